"""An HTTPS server with a freshly made self-signed certificate, for the TLS-failure test.

Usage: python3 tls_server.py WORKDIR
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves a page
that nobody should ever see until it is killed. Needs only the standard library and the
openssl command-line tool.
"""
import http.server
import os
import ssl
import subprocess
import sys

workdir = sys.argv[1]
cert, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
subprocess.run(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
     "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
     "-addext", "subjectAltName=IP:127.0.0.1"],
    check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<html><body>secret page behind a self-signed certificate</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Page)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
