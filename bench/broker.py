#!/usr/bin/env python3
"""The sign-in broker's benchmark, run by `bench/run --broker` and by a full `bench/run`:
`GetToken` of a valid cached token over a private session bus, p50 and p99, against `webauth token`
as a process (through the running broker, and with no broker); and a scripted sign-in from a running broker (its engine warm) against a cold
`webauth login`, both off screen on the development provider. Numbers, never assertions.
Standalone: `python3 bench/broker.py --bin DIR` prints the table."""

import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "wonderland"
CALLS, TOKEN_PROCESSES, SIGN_INS = 2000, 50, 10

# The bus client, in Debian's python3 (python3-gi): the python3 first on PATH may have no gi.
CLIENT = r'''
import json, sys, time
from gi.repository import Gio, GLib
issuer, script, sign_ins, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
BROKER, PATH = "org.webauthsession.Broker", "/org/webauthsession/Broker"
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
prefix = "/org/webauthsession/Broker/request/%s/" % bus.get_unique_name()[1:].replace(".", "_")

def sign_in(token):
    loop, outcome = GLib.MainLoop(), {}
    def heard(*signal):
        outcome["response"] = signal[5].unpack()
        loop.quit()
    subscription = bus.signal_subscribe(BROKER, "org.webauthsession.Request1", "Response", prefix + token, None,
                                        Gio.DBusSignalFlags.NONE, heard, None)
    options = {"issuer": GLib.Variant("s", issuer), "client_id": GLib.Variant("s", "webauth-demo"), "account": GLib.Variant("s", "bench"),
               "scopes": GLib.Variant("as", ["openid"]), "script_content": GLib.Variant("s", open(script).read()), "handle_token": GLib.Variant("s", token)}
    start = time.perf_counter()
    bus.call_sync(BROKER, PATH, "org.webauthsession.Broker1", "SignIn", GLib.Variant("(sa{sv})", ("", options)), None,
                  Gio.DBusCallFlags.NONE, -1, None)
    loop.run()
    took = (time.perf_counter() - start) * 1000
    bus.signal_unsubscribe(subscription)
    if outcome["response"][0] != 0:
        sys.exit("sign-in failed: %s" % outcome["response"][1].get("error"))
    return took

first = sign_in("first")  # the broker starts its engine
timed = [sign_in("s%d" % i) for i in range(sign_ins)]
options = GLib.Variant("(a{sv})", ({"account": GLib.Variant("s", "bench")},))
def get_token():
    start = time.perf_counter()
    bus.call_sync(BROKER, PATH, "org.webauthsession.Broker1", "GetToken", options, None, Gio.DBusCallFlags.NONE, -1, None)
    return (time.perf_counter() - start) * 1000
for _ in range(20): get_token()
print(json.dumps({"first_sign_in_ms": first, "sign_in_ms": timed, "get_token_ms": [get_token() for _ in range(calls)]}))
'''


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def measure(bin_dir, home):
    """Runs the provider, a private bus and the broker; returns the timings in ms."""
    webauth = os.path.join(bin_dir, "webauth")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update({"BENCH_PASSWORD": PASSWORD, "XDG_STATE_HOME": os.path.join(home, "state"), "XDG_DATA_HOME": os.path.join(home, "data"),
                "XDG_CONFIG_HOME": os.path.join(home, "config"), "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + os.path.join(home, "bus")})
    provider = subprocess.Popen([webauth, "provider", "--config", os.path.join(ROOT, "bench/provider.json")],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    issuer = provider.stdout.readline().decode().strip()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--address=" + env["DBUS_SESSION_BUS_ADDRESS"], "--print-address=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    bus.stdout.readline()
    broker = subprocess.Popen([webauth, "broker", "--allow-scripts"], stderr=subprocess.DEVNULL, env=env)
    try:
        subprocess.run(["gdbus", "wait", "--session", "--timeout", "30", "org.webauthsession.Broker"], env=env, check=True)
        client = os.path.join(home, "client.py")
        with open(client, "w") as f:
            f.write(CLIENT)
        script = os.path.join(ROOT, "bench/scripts/embedded.yaml")
        out = subprocess.run(["/usr/bin/python3", client, issuer, script, str(SIGN_INS), str(CALLS)], env=env, check=True,
                             stdout=subprocess.PIPE).stdout
        timings = json.loads(out)
        # `webauth token` asks the running broker; with no bus to reach, it reads the store itself.
        alone = dict(env, DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(home, "no-bus"))
        token_ms, token_alone_ms = [], []
        for _ in range(TOKEN_PROCESSES):
            for environment, times in ((env, token_ms), (alone, token_alone_ms)):
                start = time.perf_counter()
                subprocess.run([webauth, "token", "--profile", "bench"], env=environment, check=True, stdout=subprocess.DEVNULL)
                times.append((time.perf_counter() - start) * 1000)
        cold_ms = []
        for _ in range(SIGN_INS):
            start = time.perf_counter()
            subprocess.run([webauth, "login", "--issuer", issuer, "--client-id", "webauth-demo", "--scope", "openid", "--headless",
                            "--ephemeral", "--store", "none", "--script", script], env=env, check=True, stdout=subprocess.DEVNULL)
            cold_ms.append((time.perf_counter() - start) * 1000)
        timings.update(token_process_ms=token_ms, token_alone_ms=token_alone_ms, cold_login_ms=cold_ms)
        return timings
    finally:
        for process in (broker, bus, provider):
            process.kill()
            process.wait()


def lines(timings):
    """The broker's table for BENCHMARKS.md."""
    get, token, alone = timings["get_token_ms"], timings["token_process_ms"], timings["token_alone_ms"]
    warm, cold = statistics.median(timings["sign_in_ms"]), statistics.median(timings["cold_login_ms"])
    return [
        f"The sign-in broker (`bench/run --broker` measures only this): `GetToken` of a valid cached token over a private",
        f"session bus ({len(get)} calls one after another from Python's GDBus) against `webauth token` as a process ({len(token)} runs",
        "each: through the running broker, and alone, reading the store itself as with no broker);",
        f"a scripted sign-in from a running broker (its engine warm; {len(timings['sign_in_ms'])} after a first one of "
        f"{timings['first_sign_in_ms']:.0f} ms) against a cold `webauth login --headless` ({len(timings['cold_login_ms'])} runs), the "
        "development provider, off screen:", "",
        "| measure | p50 ms | p99 ms | goal |", "|---|---|---|---|",
        f"| `GetToken` over the bus | {percentile(get, 0.5):.2f} | {percentile(get, 0.99):.2f} | p50 ≤ 2 ms |",
        f"| `webauth token` as a process, through the broker | {percentile(token, 0.5):.1f} | {percentile(token, 0.99):.1f} | – |",
        f"| `webauth token` as a process, no broker | {percentile(alone, 0.5):.1f} | {percentile(alone, 0.99):.1f} | – |",
        f"| sign-in from a running broker | {warm:.0f} | {percentile(timings['sign_in_ms'], 0.99):.0f} | ≤ 0.5× cold: {warm / cold:.2f}× |",
        f"| cold `webauth login --headless` | {cold:.0f} | {percentile(timings['cold_login_ms'], 0.99):.0f} | – |",
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True, help="the directory with webauth")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="bench-broker-")
    try:
        print("\n".join(lines(measure(args.bin, home))))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
