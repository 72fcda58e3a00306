#!/usr/bin/env python3
"""The timeline of one cold `webauth login --headless --script` against the development provider,
to see where a cold start's time goes: when each process starts (Xvfb, bubblewrap's check, WebKit's network and web
processes) and when each connection opens (the provider's discovery, key set and token requests,
the page's requests, the X server), from `strace -f --seccomp-bpf` of execve, connect and exits,
with the web-process sandbox on and off; then the untraced wall time of interleaved cold runs of
both. Usage: `python3 bench/cold_timeline.py --bin .build/release [--runs 8]`. Numbers only."""

import argparse, os, re, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Embedded, environment, login_command  # noqa: E402

VARIANTS = {"sandbox on": {}, "sandbox off": {"WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1"}}
EVENT = re.compile(r"^(\d+)\s+(\d+\.\d+) (execve|connect|exit_group)\((.*)$")


def label(kind, arguments, process, provider_port):
    """What one traced call means, or None for calls that say nothing (failed lookups, other sockets)."""
    if kind == "execve":
        if "= -1" in arguments:
            return None
        program = os.path.basename(arguments.split('"')[1])
        if program == "bwrap":
            return "bubblewrap starts a web process" if '"--args"' in arguments else "bubblewrap's check (the engine's)"
        return f"exec {program}"
    if kind == "connect":
        if f"htons({provider_port})" in arguments:
            return f"{process} connects to the provider"
        if "X11-unix" in arguments and "= 0" in arguments:
            return f"{process} connects to the X server"
        return None
    return None


def timeline(bin_dir, provider, home, extra):
    """The labelled events of one traced cold run, in ms from its start."""
    with tempfile.NamedTemporaryFile(prefix="cold-trace-", suffix=".txt", delete=False) as trace:
        path = trace.name
    try:
        command = ["strace", "-f", "--seccomp-bpf", "-ttt", "-e", "trace=execve,connect,exit_group", "-o", path] + login_command(bin_dir, provider)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**environment(home), **extra}, check=True)
        port = provider.issuer.rsplit(":", 1)[1]
        kinds, events, start, last = {}, [], None, 0.0
        with open(path) as lines:
            for line in lines:
                match = EVENT.match(line)
                if not match:
                    continue
                pid, stamp, kind, arguments = match.groups()
                start = start or float(stamp)
                last = (float(stamp) - start) * 1000
                if kind == "execve" and "= -1" not in arguments:
                    kinds[pid] = os.path.basename(arguments.split('"')[1])
                what = label(kind, arguments, process_name(kinds, pid), port)
                if what:
                    events.append((last, what))
        events.append((last, "the last process exits"))
        return events
    finally:
        os.unlink(path)


def process_name(kinds, pid):
    """The process a thread belongs to, as far as execs show it (threads of webauth have no exec)."""
    name = kinds.get(pid, "webauth")
    return {"WebKitNetworkProcess": "the network process", "WebKitWebProcess": "the web process"}.get(name, name)


def wall_times(bin_dir, provider, home, runs):
    times = {name: [] for name in VARIANTS}
    for _ in range(runs):
        for name, extra in VARIANTS.items():  # interleaved, so that the machine's load hits both alike
            started = time.perf_counter()
            subprocess.run(login_command(bin_dir, provider), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**environment(home), **extra}, check=True)
            times[name].append((time.perf_counter() - started) * 1000)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True, help="the directory with webauth")
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="bench-cold-")
    provider = Embedded(args.bin)
    try:
        wall_times(args.bin, provider, home, 1)  # unmeasured: the disk cache
        for name, extra in VARIANTS.items():
            print(f"\n{name}: one cold `webauth login`, traced (strace slows every call it stops at)\n")
            print("| ms | event |\n|---|---|")
            for at, what in timeline(args.bin, provider, home, extra):
                print(f"| {at:.0f} | {what} |")
        times = wall_times(args.bin, provider, home, args.runs)
        print(f"\nuntraced, {args.runs} interleaved runs each: median (min–max) ms\n")
        print("| sandbox | cold `webauth login` |\n|---|---|")
        for name, values in times.items():
            print(f"| {name} | {statistics.median(values):.0f} ({min(values):.0f}–{max(values):.0f}) |")
    finally:
        provider.stop()


if __name__ == "__main__":
    main()
