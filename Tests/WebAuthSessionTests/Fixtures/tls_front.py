"""An HTTPS front for a local HTTP server, with a certificate from a CA of its own, for the
private-CA tests.

Usage: python3 tls_front.py WORKDIR BACKEND_PORT
Makes WORKDIR/ca.pem (a new certificate authority) and a server certificate it signs for
127.0.0.1, prints the port it listens on (127.0.0.1) on the first line of stdout, then passes
each request to http://127.0.0.1:BACKEND_PORT and its answer back (redirects included, never
followed) until it is killed. Needs only the standard library and the openssl command-line tool.
"""
import http.client
import http.server
import os
import ssl
import subprocess
import sys

workdir, backend = sys.argv[1], int(sys.argv[2])
path = lambda name: os.path.join(workdir, name)
quiet = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
subprocess.run(["openssl", "req", "-x509", *ec, "-keyout", path("ca-key.pem"), "-out", path("ca.pem"), "-days", "1",
                "-subj", "/CN=WebAuthSession test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign"], **quiet)
subprocess.run(["openssl", "req", *ec, "-keyout", path("key.pem"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"], **quiet)
with open(path("server.ext"), "w") as extensions:
    extensions.write("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
subprocess.run(["openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
                "-CAcreateserial", "-out", path("cert.pem"), "-days", "1", "-extfile", path("server.ext")], **quiet)


class Front(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        connection = http.client.HTTPConnection("127.0.0.1", backend)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in ("connection", "keep-alive")}
        connection.request(self.command, self.path, body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        connection.close()

    do_GET = do_POST = forward

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(path("cert.pem"), path("key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
