"""An HTTPS server with a freshly made self-signed certificate, for the TLS-failure test.

Usage: python3 tls_server.py WORKDIR
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves a page
that nobody should ever see until it is killed. Needs only the standard library and the
openssl command-line tool.
"""
import http.server
import sys

from fixture_server import QuietHandler, serve, use_self_signed_certificate


class Page(QuietHandler):
    def do_GET(self):
        self.reply(200, b"<html><body>secret page behind a self-signed certificate</body></html>", [("Content-Type", "text/html")])


server = http.server.HTTPServer(("127.0.0.1", 0), Page)
use_self_signed_certificate(server, sys.argv[1])
serve(server)
