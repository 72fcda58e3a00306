"""An HTTPS front for a local HTTP server, with a certificate from a CA of its own, for the
private-CA tests.

Usage: python3 tls_front.py WORKDIR BACKEND_PORT [--require-client-certificate P12_PASSWORD]
Makes WORKDIR/ca.pem (a new certificate authority) and a server certificate it signs for
127.0.0.1, prints the port it listens on (127.0.0.1) on the first line of stdout, then passes
each request to http://127.0.0.1:BACKEND_PORT and its answer back (redirects included, never
followed) until it is killed. Needs only the standard library and the openssl command-line tool.

With --require-client-certificate (mutual TLS), the CA also signs a client certificate
(CN=webauth test client): WORKDIR/client-cert.pem, client-key.pem, client.pem (both) and
client.p12 (opened by P12_PASSWORD). The handshake then requires a client certificate the CA
signed, and each request appends "METHOD PATH CN" (path without its query) to WORKDIR/clients.log.
"""
import http.server
import os
import ssl
import subprocess
import sys

from fixture_server import forward

workdir, backend = sys.argv[1], int(sys.argv[2])
p12_password = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--require-client-certificate" else None
path = lambda name: os.path.join(workdir, name)
quiet = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
subprocess.run(["openssl", "req", "-x509", *ec, "-keyout", path("ca-key.pem"), "-out", path("ca.pem"), "-days", "1",
                "-subj", "/CN=WebAuthSession test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign"], **quiet)
subprocess.run(["openssl", "req", *ec, "-keyout", path("key.pem"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"], **quiet)
with open(path("server.ext"), "w") as extensions:
    extensions.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
subprocess.run(["openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
                "-CAcreateserial", "-out", path("cert.pem"), "-days", "1", "-extfile", path("server.ext")], **quiet)
if p12_password is not None:
    subprocess.run(["openssl", "req", *ec, "-keyout", path("client-key.pem"), "-out", path("client.csr"),
                    "-subj", "/CN=webauth test client"], **quiet)
    with open(path("client.ext"), "w") as extensions:
        extensions.write("extendedKeyUsage=clientAuth\n")
    subprocess.run(["openssl", "x509", "-req", "-in", path("client.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
                    "-CAcreateserial", "-out", path("client-cert.pem"), "-days", "1", "-extfile", path("client.ext")], **quiet)
    with open(path("client.pem"), "w") as both:
        both.write(open(path("client-cert.pem")).read() + open(path("client-key.pem")).read())
    subprocess.run(["openssl", "pkcs12", "-export", "-in", path("client-cert.pem"), "-inkey", path("client-key.pem"),
                    "-out", path("client.p12"), "-passout", "env:P12_PASSWORD"], env={**os.environ, "P12_PASSWORD": p12_password}, **quiet)


class Front(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        # The handshake in this request's thread: one that waits (or fails) holds up no other.
        self.request.do_handshake()
        super().setup()

    def pass_on(self):
        if p12_password is not None:
            subject = dict(field[0] for field in self.connection.getpeercert()["subject"])
            with open(path("clients.log"), "a") as log:
                log.write(f"{self.command} {self.path.split('?')[0]} {subject.get('commonName')}\n")
        forward(self, backend)

    do_GET = do_POST = pass_on

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a refused handshake (no client certificate) is the client's error to report


server = Server(("127.0.0.1", 0), Front)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(path("cert.pem"), path("key.pem"))
if p12_password is not None:
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(path("ca.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
print(server.server_address[1], flush=True)
server.serve_forever()
