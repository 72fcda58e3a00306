"""What the tests' Python fixture servers share: a handler that answers with one call and logs
nothing (stderr belongs to the test), passing a request on to a local server (a front), a
self-signed certificate for 127.0.0.1, and the start the tests read (the port on the first line
of stdout, then serve until killed).

The fixtures import it from their own folder (Python puts a script's folder first on sys.path).
"""
import http.client
import http.server
import os
import ssl
import subprocess


class QuietHandler(http.server.BaseHTTPRequestHandler):
    def reply(self, status, body, headers=()):
        """Answers `status` with `body` and `headers` (name, value pairs) and its length."""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def forward(handler, backend):
    """Passes HANDLER's request to http://127.0.0.1:BACKEND and its answer back (redirects
    included, never followed)."""
    length = int(handler.headers.get("Content-Length") or 0)
    body = handler.rfile.read(length) if length else None
    connection = http.client.HTTPConnection("127.0.0.1", backend)
    headers = {name: value for name, value in handler.headers.items() if name.lower() not in ("connection", "keep-alive")}
    connection.request(handler.command, handler.path, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    handler.send_response(answer.status, answer.reason)
    for name, value in answer.getheaders():
        if name.lower() not in ("connection", "transfer-encoding", "content-length"):
            handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
    connection.close()


def use_self_signed_certificate(server, folder):
    """Makes FOLDER/cert.pem and FOLDER/key.pem (EC P-256, 127.0.0.1, one day) and serves
    `server` over TLS with them."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)


def serve(server):
    """Prints the port the server listens on (the line the test waits for), then serves."""
    print(server.server_address[1], flush=True)
    server.serve_forever()
