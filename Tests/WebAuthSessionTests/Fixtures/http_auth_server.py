"""A site whose pages ask for HTTP authentication, for the http_auth tests.

Usage: python3 http_auth_server.py WORKDIR
/basic asks with `WWW-Authenticate: Basic realm="Basic area"`, /digest with a real Digest
challenge (RFC 7616: MD5, qop=auth, realm "Digest area") whose response it computes and checks.
The only account is alice / s3cret-pw. Once authorised, a page redirects to
com.example:/cb?reached=SCHEME. Wrong or missing credentials: 401 and the challenge again.
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves until killed.
"""
import base64
import hashlib
import http.server
import re
import secrets
import sys

from fixture_server import QuietHandler, serve

USER, PASSWORD = "alice", "s3cret-pw"
NONCE = secrets.token_hex(16)


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def basic_ok(header):
    if not header.startswith("Basic "):
        return False
    return base64.b64decode(header[6:]).decode() == USER + ":" + PASSWORD


def digest_ok(header, method):
    if not header.startswith("Digest "):
        return False
    fields = dict((key, quoted or plain) for key, quoted, plain in re.findall(r'(\w+)=(?:"([^"]*)"|([^\s,]+))', header[7:]))
    if fields.get("username") != USER or fields.get("nonce") != NONCE or fields.get("qop") != "auth":
        return False
    ha1 = md5(f"{USER}:Digest area:{PASSWORD}")
    ha2 = md5(f"{method}:{fields.get('uri')}")
    expected = md5(f"{ha1}:{NONCE}:{fields.get('nc')}:{fields.get('cnonce')}:auth:{ha2}")
    return fields.get("response") == expected


class Handler(QuietHandler):
    def do_GET(self):
        header = self.headers.get("Authorization", "")
        if self.path == "/basic":
            ok, challenge = basic_ok(header), 'Basic realm="Basic area"'
        elif self.path == "/digest":
            ok, challenge = digest_ok(header, "GET"), f'Digest realm="Digest area", qop="auth", nonce="{NONCE}", algorithm=MD5'
        else:
            return self.reply(404, b"")
        if not ok:
            return self.reply(401, b"unauthorised", [("WWW-Authenticate", challenge)])
        scheme = self.path[1:]
        body = f"<p>Inside</p><script>location.href = 'com.example:/cb?reached={scheme}'</script>".encode()
        self.reply(200, body, [("Content-Type", "text/html")])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
serve(server)
