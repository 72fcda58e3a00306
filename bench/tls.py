#!/usr/bin/env python3
"""TLS as deployed (`bench/run --tls`): django-oauth-toolkit under gunicorn served twice, over plain HTTP and
over HTTPS with a certificate from a private CA, and this engine's warm sign-ins (webauth-bench, kept views)
and cold `webauth login` against each, in interleaved rounds. Over HTTPS twice: as the engine runs (TLS
session tickets off, so no sign-in resumes another's TLS session) and with tickets on (tls_tickets_on.c,
preloaded, hides %NO_TICKETS from glib-networking), so that what tickets-off costs per sign-in is the
difference between two runs of the same binaries.

The engine must trust the private CA without --ca-file (a CA file gives a session a private web context,
and so no kept view): the CA goes into the system's store (update-ca-certificates) for the run and is
removed after it, which needs root. Numbers only; nothing passes or fails."""
import argparse, os, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # bench.py beside this file: its Gunicorn provider, environment and measuring

ROOT = bench.ROOT
SYSTEM_CA = "/usr/local/share/ca-certificates/webauth-bench-tls.crt"


def certificates(folder):
    """A private CA and a certificate for 127.0.0.1 it signed (RSA 2048, as most providers' are); returns (ca, cert, key)."""
    ca_key, ca, key, request, cert = (os.path.join(folder, name) for name in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    extensions = os.path.join(folder, "server.ext")
    with open(extensions, "w") as file:
        file.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2",
                    "-subj", "/CN=webauth bench private CA"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"], **quiet)
    subprocess.run(["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert,
                    "-days", "2", "-extfile", extensions], **quiet)
    return ca, cert, key


class TLSGunicorn(bench.Gunicorn):
    """The benchmark's Django under gunicorn, over HTTPS."""
    name = "django-oauth-toolkit under gunicorn over TLS (fast hasher)"

    def __init__(self, cert, key):
        self.server_arguments = ["--gunicorn", "--tls", cert, key]
        super().__init__()
        self.base = self.base.replace("http://", "https://")
        self.issuer = self.base + "/o"
        self.authorize, self.token = self.issuer + "/authorize/", self.issuer + "/token/"


def preload(folder):
    """Builds tls_tickets_on.c into a shared library; returns its path."""
    library = os.path.join(folder, "tls_tickets_on.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", library, os.path.join(ROOT, "bench/tls_tickets_on.c"), "-ldl"], check=True)
    return library


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True, help="the directory with webauth and webauth-bench")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warm", type=int, default=10, help="timed warm sign-ins per client per round")
    parser.add_argument("--cold", type=int, default=3, help="cold `webauth login` runs per client per round")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench/tls.py puts a private CA in the system's store for the run: run it as root")
    scratch = tempfile.mkdtemp(prefix="bench-tls-")
    home = os.path.join(scratch, "home")
    providers = []
    try:
        ca, cert, key = certificates(scratch)
        shutil.copy(ca, SYSTEM_CA)
        subprocess.run(["update-ca-certificates"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tickets_on = {"LD_PRELOAD": preload(scratch)}
        plain, tls = bench.Gunicorn(), TLSGunicorn(cert, key)
        providers = [plain, tls]
        clients = [("plain HTTP", plain, None), ("TLS, tickets off (as the engine runs)", tls, None), ("TLS, tickets on (preloaded)", tls, tickets_on)]
        warm = {name: [] for name, _, _ in clients}
        cold = {name: [] for name, _, _ in clients}
        for round_ in range(args.rounds):
            print(f"== round {round_ + 1} of {args.rounds}", file=sys.stderr, flush=True)
            for name, provider, extra in clients:
                result, _, _ = bench.engine_bench(provider, args.bin, home, ["--count", str(args.warm)], extra)
                warm[name] += [run["redirect_ms"] for run in result["runs"]]
                for _ in range(args.cold):
                    command = [os.path.join(args.bin, "webauth"), "login", "--issuer", provider.issuer, "--client-id", provider.client_id,
                               "--redirect-uri", bench.CUSTOM_REDIRECT, "--scope", "openid", "--headless", "--ephemeral",
                               "--script", os.path.join(ROOT, "bench/scripts", provider.script)]
                    out, err, status, wall, _, _ = bench.measured(command, {**bench.environment(home), **(extra or {})})
                    if status != 0:
                        sys.exit(f"webauth login failed against {provider.issuer}: {err.decode()[-1500:]}")
                    cold[name].append(wall * 1000)
        print(f"Warm sign-ins (to the redirect, {args.rounds} rounds of {args.warm}) and cold `webauth login` ({args.rounds} rounds of "
              f"{args.cold}), django-oauth-toolkit under gunicorn, median (min–max) ms:\n")
        print("| client | warm | cold |\n|---|---|---|")
        for name, _, _ in clients:
            print(f"| {name} | {statistics.median(warm[name]):.0f} ({min(warm[name]):.0f}–{max(warm[name]):.0f}) | "
                  f"{statistics.median(cold[name]):.0f} ({min(cold[name]):.0f}–{max(cold[name]):.0f}) |")
    finally:
        for provider in providers:
            provider.stop()
        if os.path.exists(SYSTEM_CA):
            os.remove(SYSTEM_CA)
            subprocess.run(["update-ca-certificates", "--fresh"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
