"""A Kerberos realm of its own and a site that asks for Negotiate (SPNEGO), for the Negotiate tests.

Usage: python3 kerberos_site.py WORKDIR [--front BACKEND_PORT]
(A python3 without the gssapi module, such as pyenv's, hands over to Debian's /usr/bin/python3,
which has python3-gssapi.)
In WORKDIR it writes a krb5.conf and a kdc.conf for the realm TEST.EXAMPLE, creates the KDC's
database (kdb5_util), the user alice and the service HTTP/127.0.0.1 (kadmin.local, the service's
key in a keytab), starts its own krb5kdc on a free loopback port (the clients use TCP; it dies with this
script), and gets alice a ticket with kinit (the password through a pipe) in the credential cache
WORKDIR/ccache. Nothing outside WORKDIR is read or written: every Kerberos program gets
KRB5_CONFIG and KRB5_KDC_PROFILE of WORKDIR.

The site (http://127.0.0.1:PORT): /negotiate answers 401 with `WWW-Authenticate: Negotiate` until
the request carries a SPNEGO token that the service's key accepts (gssapi.SecurityContext,
usage "accept"); then its page redirects to com.example:/cb?user=PRINCIPAL. /count tells how
many tokens it saw (accepted or not).

With --front, it is instead a front for the provider at http://127.0.0.1:BACKEND_PORT whose
authorization endpoint wants Negotiate: GET /authorize is passed on only with an accepted token,
and appends "GET /authorize PRINCIPAL" to WORKDIR/principals.log; every other request is passed
on as it is.

Prints the port it listens on (127.0.0.1) on the first line of stdout once all is ready, then
serves until killed. The realm's client files: WORKDIR/krb5.conf and the cache WORKDIR/ccache.
"""
import base64
import ctypes
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading

try:
    import gssapi
except ImportError:
    os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)

from fixture_server import QuietHandler, forward, serve

REALM = "TEST.EXAMPLE"
PASSWORD = "alice-kerberos-pw"
workdir = sys.argv[1]
backend = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--front" else None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write(name, text):
    path = os.path.join(workdir, name)
    with open(path, "w") as file:
        file.write(text)
    return path


kdc_port = free_port()
krb5_config = write("krb5.conf", f"""[libdefaults]
    default_realm = {REALM}
    dns_lookup_kdc = false
    dns_lookup_realm = false
    dns_canonicalize_hostname = false
    rdns = false
    udp_preference_limit = 1
[realms]
    {REALM} = {{
        kdc = 127.0.0.1:{kdc_port}
    }}
""")
kdc_profile = write("kdc.conf", f"""[realms]
    {REALM} = {{
        database_name = {workdir}/principal
        key_stash_file = {workdir}/stash
        acl_file = {workdir}/kadm5.acl
        kdc_listen = 127.0.0.1:{kdc_port}
        kdc_tcp_listen = 127.0.0.1:{kdc_port}
    }}
[logging]
    kdc = STDERR
""")
write("kadm5.acl", "")
keytab = os.path.join(workdir, "http.keytab")
ccache = os.path.join(workdir, "ccache")
environment = dict(os.environ, KRB5_CONFIG=krb5_config, KRB5_KDC_PROFILE=kdc_profile, KRB5_KTNAME=keytab,
                   KRB5CCNAME="FILE:" + ccache)
os.environ.update(environment)


def run(*arguments, text=None):
    done = subprocess.run(arguments, input=text, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{arguments[0]} failed: {done.stderr}")


run("kdb5_util", "create", "-s", "-r", REALM, "-P", "master-" + PASSWORD)
run("kadmin.local", "-q", f"addprinc -pw {PASSWORD} alice")
run("kadmin.local", "-q", "addprinc -randkey HTTP/127.0.0.1")
run("kadmin.local", "-q", f"ktadd -k {keytab} HTTP/127.0.0.1")


def die_with_parent():
    ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


kdc = subprocess.Popen(["krb5kdc", "-n"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, preexec_fn=die_with_parent)
for line in kdc.stderr:  # the KDC says when it listens
    if "commencing operation" in line:
        break
else:
    sys.exit("krb5kdc did not start")
threading.Thread(target=kdc.stderr.read, daemon=True).start()  # its log must not fill the pipe
run("kinit", "alice@" + REALM, text=PASSWORD + "\n")

service = gssapi.Credentials(usage="accept", name=gssapi.Name("HTTP@127.0.0.1", gssapi.NameType.hostbased_service))
tokens_seen = 0


class Handler(QuietHandler):
    def do_GET(self):
        if self.path == "/count":
            return self.reply(200, str(tokens_seen).encode())
        if backend is not None:
            return self.front()
        if self.path != "/negotiate":
            return self.reply(404, b"")
        principal, headers = self.negotiated()
        if principal is None:
            return
        body = f"<p>Inside</p><script>location.href = 'com.example:/cb?user={principal}'</script>"
        self.reply(200, body.encode(), headers + [("Content-Type", "text/html")])

    def do_POST(self):
        self.front() if backend is not None else self.reply(404, b"")

    def front(self):
        """--front: the authorization endpoint wants Negotiate (the principal goes to principals.log); the rest passes."""
        if self.command == "GET" and self.path.split("?")[0] == "/authorize":
            principal, _ = self.negotiated()
            if principal is None:
                return
            with open(os.path.join(workdir, "principals.log"), "a") as log:
                log.write(f"GET /authorize {principal}\n")
        forward(self, backend)

    def negotiated(self):
        """The principal of the request's SPNEGO token and the headers that finish the exchange,
        or (None, []) once a 401 asking for one (again) has been sent."""
        global tokens_seen
        header = self.headers.get("Authorization", "")
        if not header.startswith("Negotiate "):
            self.reply(401, b"Negotiate, please", [("WWW-Authenticate", "Negotiate")])
            return None, []
        tokens_seen += 1
        context = gssapi.SecurityContext(creds=service, usage="accept")
        try:
            answer = context.step(base64.b64decode(header[len("Negotiate "):]))
        except gssapi.exceptions.GSSError:
            self.reply(401, b"token refused", [("WWW-Authenticate", "Negotiate")])
            return None, []
        if not context.complete:
            self.reply(401, b"more than one round", [("WWW-Authenticate", "Negotiate")])
            return None, []
        return str(context.initiator_name), [("WWW-Authenticate", "Negotiate " + base64.b64encode(answer).decode())] if answer else []


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
serve(server)
