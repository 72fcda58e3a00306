#!/usr/bin/env python3
"""The token path, what kubectl, git and scripts call most, with a valid saved token: p50 and p99 of wall
time and peak RSS over CALLS calls of each client, all interleaved, on the binaries in --bin (bench/run
--token gives the ones the Debian package ships). Three places the token can come from:

  file     the sign-in in a file, no session bus (CI, containers, SSH)
  keyring  the sign-in in a real gnome-keyring on a private session bus (dbus-daemon of its own)
  broker   `webauth broker` running on another private bus, holding the sign-in (no store on the
           caller's side: its state folder is empty)

and four commands for each: `webauth token`, the git helper under real git (`git credential fill`),
`docker-credential-webauth get`, and `webauth kubernetes-credential` called as kubectl calls its exec
plugin (KUBERNETES_EXEC_INFO). Anchors: `webauth-tokens token` (the same command without the front's
shortcut, as `webauth token` ran before it), `webauth-engine token` (the engine linked), `gh auth token`
(a Go credential helper; said when it is not installed), `cat` of the store file (the floor), and
kubectl itself running the plugin against a server that refuses (the plugin within kubectl's own start).
Numbers only; nothing passes or fails."""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "wonderland"
EXEC_INFO = json.dumps({"kind": "ExecCredential", "apiVersion": "client.authentication.k8s.io/v1",
                        "spec": {"interactive": False}})


def timed(command, environment, stdin=None, may_fail=False):
    """Wall seconds and peak RSS (KiB, as `/usr/bin/time -f %M` reads it) of one run of `command`."""
    command = ["/usr/bin/time", "-f", "%M", *command]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=environment, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(stdin.encode() if stdin else None)
    wall = time.perf_counter() - start
    if process.returncode != 0 and not may_fail:
        sys.exit(f"{command} failed ({process.returncode}): {err.decode()[-500:]}")
    return wall, int(err.decode().strip().splitlines()[-1].split()[-1]), out


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class PrivateBus:
    """A session bus of its own with an unlocked gnome-keyring on it, everything under `home`."""

    def __init__(self, home):
        os.makedirs(home)
        self.address = "unix:path=" + os.path.join(home, "socket")
        self.environment = {"PATH": os.environ["PATH"], "HOME": home, "XDG_DATA_HOME": os.path.join(home, "data"),
                            "XDG_RUNTIME_DIR": home}
        self.daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--address=" + self.address, "--print-address=1"],
                                       env=self.environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.daemon.stdout.readline()  # the bus listens
        subprocess.run("printf bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1", shell=True, check=True,
                       env=dict(self.environment, DBUS_SESSION_BUS_ADDRESS=self.address))

    def stop(self):
        self.daemon.kill()  # the keyring leaves with its bus
        self.daemon.wait()


def wait_for_name(address, name):
    """Returns once `name` has an owner on the bus at `address`."""
    for _ in range(600):
        answer = subprocess.run(["gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path",
                                 "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                                capture_output=True, text=True)
        if "true" in answer.stdout:
            return
        time.sleep(0.1)
    sys.exit(f"{name} never appeared on {address}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the directory with the webauth, webauth-tokens and webauth-engine to measure")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--output", help="a JSON file for the figures")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="webauth-token-bench-")
    webauth = os.path.abspath(os.path.join(args.bin, "webauth"))
    engine = os.path.abspath(os.path.join(args.bin, "webauth-engine"))
    tokens = os.path.abspath(os.path.join(args.bin, "webauth-tokens"))
    base = {key: value for key, value in os.environ.items()
            if key not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS")}
    base.update(XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"), BENCH_PASSWORD=PASSWORD)
    os.makedirs(os.path.join(home, "config/webauth"))
    with open(os.path.join(home, "config/webauth/config.json"), "w") as config:
        json.dump({"credential_hosts": {"git.example.com": "default", "registry.example.com": "default"}}, config)
    os.makedirs(os.path.join(home, "bin"))
    docker_helper = os.path.join(home, "bin/docker-credential-webauth")
    os.symlink(webauth, docker_helper)

    keyring_bus, broker_bus = PrivateBus(os.path.join(home, "keyring-bus")), PrivateBus(os.path.join(home, "broker-bus"))
    environments = {
        # no Secret Service, no broker: DBUS_SESSION_BUS_ADDRESS names no socket
        "file": dict(base, XDG_STATE_HOME=os.path.join(home, "state"), DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(home, "no-bus")),
        "keyring": dict(base, XDG_STATE_HOME=os.path.join(home, "keyring-state"), DBUS_SESSION_BUS_ADDRESS=keyring_bus.address),
        "broker": dict(base, XDG_STATE_HOME=os.path.join(home, "caller-state"), DBUS_SESSION_BUS_ADDRESS=broker_bus.address),
    }
    broker = None
    try:
        # Tokens that stay valid through every call (no refresh is measured), the bench's client otherwise.
        with open(os.path.join(ROOT, "bench/provider.json")) as file:
            provider_config = dict(json.load(file), access_token_lifetime=86400)
        with open(os.path.join(home, "provider.json"), "w") as file:
            json.dump(provider_config, file)
        provider = subprocess.Popen([engine, "provider", "--config", os.path.join(home, "provider.json")], env=environments["file"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            issuer = provider.stdout.readline().strip()
            for place, store in (("file", "file"), ("keyring", "keyring")):
                subprocess.run([engine, "login", "--issuer", issuer, "--client-id", "webauth-demo", "--headless", "--store", store,
                                "--scope", "openid profile email offline_access", "--script", os.path.join(ROOT, "bench/scripts/embedded.yaml")],
                               env=environments[place], check=True, stdout=subprocess.DEVNULL)
        finally:
            provider.kill()
            provider.wait()
        # The broker holds the file's sign-in; the caller's side has no store at all.
        broker = subprocess.Popen([webauth, "broker", "--idle-timeout", "3600"],
                                  env=dict(environments["broker"], XDG_STATE_HOME=environments["file"]["XDG_STATE_HOME"]),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_name(broker_bus.address, "org.webauthsession.Broker")

        store = os.path.join(home, "state/webauthsession/default.json")
        kubeconfig = os.path.join(home, "kubeconfig")
        with open(kubeconfig, "w") as file:
            json.dump({"apiVersion": "v1", "kind": "Config", "current-context": "bench",
                       "clusters": [{"name": "bench", "cluster": {"server": "https://127.0.0.1:1"}}],
                       "contexts": [{"name": "bench", "context": {"cluster": "bench", "user": "bench"}}],
                       "users": [{"name": "bench", "user": {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": webauth,
                                                                     "args": ["kubernetes-credential"], "interactiveMode": "Never"}}}]}, file)
        clients = {}
        for place, environment in environments.items():
            clients[f"{place}: webauth token"] = ([webauth, "token"], environment, None, False)
            clients[f"{place}: git credential fill (git + webauth git-credential)"] = (
                ["git", "-c", "credential.helper=", "-c", f"credential.helper={webauth} git-credential", "credential", "fill"],
                environment, "protocol=https\nhost=git.example.com\n\n", False)
            clients[f"{place}: docker-credential-webauth get"] = ([docker_helper, "get"], environment, "https://registry.example.com\n", False)
            clients[f"{place}: webauth kubernetes-credential (as kubectl calls it)"] = (
                [webauth, "kubernetes-credential"], dict(environment, KUBERNETES_EXEC_INFO=EXEC_INFO), None, False)
        for place in ("file", "broker"):
            clients[f"{place}: webauth-tokens token (no shortcut)"] = ([tokens, "token"], environments[place], None, False)
        clients["file: webauth-engine token (the engine linked)"] = ([engine, "token"], environments["file"], None, False)
        if shutil.which("gh"):
            gh = os.path.join(home, "gh")
            os.makedirs(gh)
            with open(os.path.join(gh, "hosts.yml"), "w") as hosts:
                hosts.write("github.com:\n    oauth_token: gho_0123456789abcdefghijklmnopqrstuvwxyzAB\n    user: alice\n    git_protocol: https\n")
            clients["gh auth token (a Go credential helper)"] = (["gh", "auth", "token"], dict(environments["file"], GH_CONFIG_DIR=gh), None, False)
        else:
            print("gh is not installed: no `gh auth token` anchor; `cat` of the store file is the floor", flush=True)
        clients["cat of the store file (the floor)"] = (["cat", store], environments["file"], None, False)
        if shutil.which("kubectl"):
            # kubectl runs the plugin, then fails to connect: exit 1 is expected.
            clients["file: kubectl get --raw /version (plugin, then a refused connection)"] = (
                ["kubectl", "--kubeconfig", kubeconfig, "get", "--raw", "/version"], environments["file"], None, True)
        load_before = os.getloadavg()
        results = {name: ([], []) for name in clients}
        for _ in range(args.calls):
            for name, (command, environment, stdin, may_fail) in clients.items():
                wall, rss, _ = timed(command, environment, stdin, may_fail)
                results[name][0].append(wall * 1000)
                results[name][1].append(rss / 1024)
        load_after = os.getloadavg()
    finally:
        if broker:
            broker.kill()
            broker.wait()
        keyring_bus.stop()
        broker_bus.stop()
    summary = {"load_average_before": load_before, "load_average_after": load_after}
    print(f"load average (1, 5, 15 min) before {load_before}, after {load_after}")
    print("| client (interleaved) | p50 | p99 | peak RSS (p50) |\n|---|---|---|---|")
    for name, (walls, peaks) in results.items():
        summary[name] = {"p50_ms": round(statistics.median(walls), 1), "p99_ms": round(percentile(walls, 0.99), 1),
                         "peak_mib_p50": round(statistics.median(peaks), 1), "calls": len(walls)}
        print(f"| {name} | {summary[name]['p50_ms']} ms | {summary[name]['p99_ms']} ms | {summary[name]['peak_mib_p50']} MiB |", flush=True)
    if args.output:
        with open(args.output, "w") as output:
            json.dump(summary, output, indent=2)
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
