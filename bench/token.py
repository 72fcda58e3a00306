#!/usr/bin/env python3
"""The token path, what scripts call most: `webauth token` with a saved sign-in in a file store, p50 and p99 of
wall time and peak RSS over CALLS calls, interleaved with its anchors: `webauth-engine token` (the
same command with the engine linked, as every `webauth` was before the light front), `gh auth token`
(a Go credential helper) when gh is installed, `cat` of the store file (the floor), and the git
credential helper under real git (`git credential fill`). Numbers only; nothing passes or fails."""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "wonderland"


def timed(command, environment, stdin=None):
    """Wall seconds and peak RSS (KiB, as `/usr/bin/time -f %M` reads it) of one run of `command`."""
    command = ["/usr/bin/time", "-f", "%M", *command]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=environment, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if stdin:
        process.stdin.write(stdin.encode())
        process.stdin.close()
    out = process.stdout.read()
    err = process.stderr.read()
    status = process.wait()
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{command} failed ({status}): {err.decode()[-500:]}")
    return wall, int(err.decode().strip().splitlines()[-1]), out


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the directory with the (release) webauth to measure")
    parser.add_argument("--engine", help="webauth-engine to measure beside it (default: the one in --bin, when there)")
    parser.add_argument("--sign-in-bin", help="the directory whose webauth signs in once (default: --bin)")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--output", help="a JSON file for the figures")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="webauth-token-bench-")
    environment = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment.update(XDG_STATE_HOME=os.path.join(home, "state"), XDG_CONFIG_HOME=os.path.join(home, "config"),
                       XDG_DATA_HOME=os.path.join(home, "data"), BENCH_PASSWORD=PASSWORD,
                       # no Secret Service: the file store
                       DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(home, "no-bus"))
    os.makedirs(os.path.join(home, "config/webauth"))
    with open(os.path.join(home, "config/webauth/config.json"), "w") as config:
        json.dump({"credential_hosts": {"git.example.com": "default"}}, config)
    signer = os.path.join(args.sign_in_bin or args.bin, "webauth")
    provider = subprocess.Popen([signer, "provider", "--config", os.path.join(ROOT, "bench/provider.json")], env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        issuer = provider.stdout.readline().strip()
        subprocess.run([signer, "login", "--issuer", issuer, "--client-id", "webauth-demo", "--headless", "--store", "file",
                        "--scope", "openid profile email offline_access", "--script", os.path.join(ROOT, "bench/scripts/embedded.yaml")],
                       env=environment, check=True, stdout=subprocess.DEVNULL)
    finally:
        provider.kill()
        provider.wait()
    store = os.path.join(home, "state/webauthsession/default.json")
    webauth = os.path.abspath(os.path.join(args.bin, "webauth"))
    engine = args.engine or os.path.join(args.bin, "webauth-engine")
    clients = {"webauth token (light front)": ([webauth, "token"], None)}
    if os.access(engine, os.X_OK):
        clients["webauth-engine token (the engine linked)"] = ([engine, "token"], None)
    if shutil.which("gh"):
        gh = os.path.join(home, "gh")
        os.makedirs(gh)
        with open(os.path.join(gh, "hosts.yml"), "w") as hosts:
            hosts.write("github.com:\n    oauth_token: gho_0123456789abcdefghijklmnopqrstuvwxyzAB\n    user: alice\n    git_protocol: https\n")
        environment["GH_CONFIG_DIR"] = gh
        clients["gh auth token"] = (["gh", "auth", "token"], None)
    clients["cat of the store file"] = (["cat", store], None)
    clients["git credential fill (git + webauth git-credential)"] = (
        ["git", "-c", "credential.helper=", "-c", f"credential.helper={webauth} git-credential", "credential", "fill"],
        "protocol=https\nhost=git.example.com\n\n")
    results = {name: ([], []) for name in clients}
    for _ in range(args.calls):
        for name, (command, stdin) in clients.items():
            wall, rss, _ = timed(command, environment, stdin)
            results[name][0].append(wall * 1000)
            results[name][1].append(rss / 1024)
    summary = {}
    for name, (walls, peaks) in results.items():
        summary[name] = {"p50_ms": round(statistics.median(walls), 1), "p99_ms": round(percentile(walls, 0.99), 1),
                         "peak_mib_p50": round(statistics.median(peaks), 1), "calls": len(walls)}
        print(f"{name:55} p50 {summary[name]['p50_ms']:7.1f} ms  p99 {summary[name]['p99_ms']:7.1f} ms  "
              f"peak {summary[name]['peak_mib_p50']:6.1f} MiB", flush=True)
    if args.output:
        with open(args.output, "w") as output:
            json.dump(summary, output, indent=2)
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
