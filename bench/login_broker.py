#!/usr/bin/env python3
"""`webauth login` through a running broker (`bench/run --login-broker`): a person's second sign-in of the day.
django-oauth-toolkit under gunicorn remembers the person (its session cookie, kept in the profile's cookies since a
first, scripted sign-in) and skips its consent page for an app already allowed (approval_prompt=auto), so each sign-in
goes through with no typing, in a window on an Xvfb of its own, as a person's would. Three clients, in interleaved
rounds (every order of the three in turn, each after a second of quiet, as a person's second sign-in comes
minutes after the first), each timed from its start to the end of its sign-in:

- the broker's own `SignIn`, from a Python client already connected (the broker's engine warm): the floor;
- `webauth login --profile bench` with that broker running: through it (its log confirms each);
- `webauth login --profile bench --no-broker`: in-process, the engine cold, with peak PSS.

The goal: through the broker within 30 ms of the broker's own. Numbers only; nothing passes or fails."""
import argparse, itertools, json, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # bench.py beside this file: its Gunicorn provider, Xvfb, environment and measuring

ROOT = bench.ROOT

# The floor: SignIn from a client that is already connected, timed to its Response, ROUNDS times on request.
CLIENT = r'''
import json, sys, time
from gi.repository import Gio, GLib
issuer, client_id, redirect = sys.argv[1], sys.argv[2], sys.argv[3]
BROKER, PATH = "org.webauthsession.Broker", "/org/webauthsession/Broker"
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
prefix = "/org/webauthsession/Broker/request/%s/" % bus.get_unique_name()[1:].replace(".", "_")
count = 0
for line in sys.stdin:
    count += 1
    token, loop, outcome = "s%d" % count, GLib.MainLoop(), {}
    def heard(*signal):
        outcome["response"] = signal[5].unpack()
        loop.quit()
    subscription = bus.signal_subscribe(BROKER, "org.webauthsession.Request1", "Response", prefix + token, None, Gio.DBusSignalFlags.NONE, heard, None)
    options = {"issuer": GLib.Variant("s", issuer), "client_id": GLib.Variant("s", client_id), "redirect_uri": GLib.Variant("s", redirect),
               "account": GLib.Variant("s", "bench"), "scopes": GLib.Variant("as", ["openid"]),
               "parameters": GLib.Variant("a{ss}", {"approval_prompt": "auto"}), "handle_token": GLib.Variant("s", token)}
    start = time.perf_counter()
    bus.call_sync(BROKER, PATH, "org.webauthsession.Broker1", "SignIn", GLib.Variant("(sa{sv})", ("", options)), None, Gio.DBusCallFlags.NONE, -1, None)
    loop.run()
    took = (time.perf_counter() - start) * 1000
    bus.signal_unsubscribe(subscription)
    if outcome["response"][0] != 0:
        sys.exit("SignIn failed: %s" % outcome["response"][1].get("error"))
    print(json.dumps(took), flush=True)
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True, help="the directory with webauth, webauth-tokens and webauth-engine")
    parser.add_argument("--rounds", type=int, default=12, help="rounds of the three clients (12: every order twice)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds of quiet before each timed sign-in (not timed)")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="bench-login-broker-")
    home = os.path.join(scratch, "home")
    provider, display, processes = bench.Gunicorn(), bench.Display(), []
    try:
        env = bench.environment(home)
        os.makedirs(os.path.join(home, "bus"))  # a directory of its own: WebKit mounts it into its D-Bus proxy's sandbox
        env.update({"DISPLAY": display.name, "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + os.path.join(home, "bus/socket"),
                    "XDG_CONFIG_HOME": os.path.join(home, "config")})
        # A bus that activates nothing: every client finds no keyring and uses the file store, the same for all three.
        config = os.path.join(scratch, "bus.conf")
        with open(config, "w") as file:
            file.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>{env["DBUS_SESSION_BUS_ADDRESS"]}</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
""")
        bus = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        processes.append(bus)
        bus.stdout.readline()
        webauth = os.path.join(args.bin, "webauth")
        common = ["login", "--profile", "bench", "--issuer", provider.issuer, "--client-id", provider.client_id,
                  "--redirect-uri", bench.CUSTOM_REDIRECT, "--scope", "openid", "--param", "approval_prompt=auto"]
        first = subprocess.run([webauth] + common + ["--headless", "--script", os.path.join(ROOT, "bench/scripts", provider.script)],
                               env=env, capture_output=True)
        if first.returncode != 0:
            sys.exit(f"the first, scripted sign-in failed: {first.stderr.decode()[-1500:]}")
        log_path = os.path.join(scratch, "broker.log")
        with open(log_path, "w") as log:
            processes.append(subprocess.Popen([webauth, "broker"], stderr=log, env=env))
        subprocess.run(["gdbus", "wait", "--session", "--timeout", "30", "org.webauthsession.Broker"], env=env, check=True)
        client_path = os.path.join(scratch, "client.py")
        with open(client_path, "w") as file:
            file.write(CLIENT)
        # The client is another app: allowed the account beforehand, as a person's Allow would.
        subprocess.run([webauth, "broker", "--grant", os.path.realpath("/usr/bin/python3") + " " + client_path, "bench"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        client = subprocess.Popen(["/usr/bin/python3", client_path, provider.issuer, provider.client_id, bench.CUSTOM_REDIRECT], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        processes.append(client)

        def broker_sign_in():
            client.stdin.write("\n")
            client.stdin.flush()
            line = client.stdout.readline()
            if not line:
                sys.exit("the SignIn client stopped")
            return json.loads(line)

        def login(extra, metered=False):
            """Wall ms of `webauth login` with `extra`, and with `metered` its tree's peak PSS. Only the in-process
            login is metered: the meter's sampling every 50 ms (a walk of every process, their smaps) takes CPU
            and the GIL from the timing, which the floor's client does not pay."""
            if metered:
                out, err, status, wall, pss, _ = bench.measured([webauth] + common + extra, env)
            else:
                start = time.perf_counter()
                finished = subprocess.run([webauth] + common + extra, env=env, capture_output=True)
                wall, pss, status, err = time.perf_counter() - start, 0, finished.returncode, finished.stderr
            if status != 0:
                sys.exit(f"webauth login {' '.join(extra)} failed: {err.decode()[-1500:]}")
            return wall * 1000, pss

        broker_sign_in()  # the broker's engine starts
        login([])
        rows = {"broker": [], "through": [], "in-process": [], "in-process PSS": []}
        def in_process():
            wall, pss = login(["--no-broker"], metered=True)
            rows["in-process"].append(wall)
            rows["in-process PSS"].append(pss / 2**20)
        clients = [lambda: rows["broker"].append(broker_sign_in()), lambda: rows["through"].append(login([])[0]), in_process]
        orders = list(itertools.permutations(range(len(clients))))
        for round_ in range(args.rounds):
            print(f"== round {round_ + 1} of {args.rounds}", file=sys.stderr, flush=True)
            # Every order in turn, so that no client always follows the same one; and each starts on a quiet
            # machine, as a person's second sign-in comes minutes after the first: the previous window's teardown,
            # the cold process's exit and the view the broker makes ready for the account's next sign-in are over.
            for index in orders[round_ % len(orders)]:
                time.sleep(args.pause)
                clients[index]()
        with open(log_path) as log:
            through = log.read().count("SignIn from webauth for the account 'bench'")
        print(f"A second sign-in of the day in a window (django-oauth-toolkit under gunicorn remembers the person), {args.rounds} "
              f"interleaved rounds, median (min–max) ms; {through} of {args.rounds + 1} `webauth login` runs went through the broker:\n")
        print("| client | wall |\n|---|---|")

        def cell(values):
            return f"{statistics.median(values):.0f} ({min(values):.0f}–{max(values):.0f})"
        print(f"| the broker's own SignIn, a client already connected (the floor) | {cell(rows['broker'])} |")
        print(f"| `webauth login --profile bench`, the broker running | {cell(rows['through'])} |")
        print(f"| `webauth login --profile bench --no-broker` (in-process, cold) | {cell(rows['in-process'])} |")
        print(f"\nThrough the broker minus its own SignIn: {statistics.median(rows['through']) - statistics.median(rows['broker']):.0f} ms "
              f"(goal ≤ 30); in-process peak PSS {statistics.median(rows['in-process PSS']):.0f} MiB.")
    finally:
        for process in reversed(processes):
            process.kill()
            process.wait()
        display.stop()
        provider.stop()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
