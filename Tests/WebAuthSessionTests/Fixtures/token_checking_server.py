"""A resource server that lets a request through only with an access token the development
provider accepts (its userinfo endpoint answers 200 to it), for the credential-helper tests.

Usage:
  python3 token_checking_server.py USERINFO_URL git ROOT   plain HTTP; Basic auth, user oauth2 and
                                                          the token as password; git http-backend
                                                          serves the repositories under ROOT
  python3 token_checking_server.py USERINFO_URL kube DIR   HTTPS with a self-signed certificate made
                                                          in DIR (DIR/cert.pem); Bearer auth; any GET
                                                          answers an empty Kubernetes list
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves until killed.
Wrong or missing credentials: 401. Needs only the standard library, openssl and git.
"""
import base64
import http.server
import os
import subprocess
import sys
import urllib.error
import urllib.request

from fixture_server import QuietHandler, serve, use_self_signed_certificate

userinfo, mode, folder = sys.argv[1], sys.argv[2], sys.argv[3]


def accepted(token):
    request = urllib.request.Request(userinfo, headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return False


def token_of(header):
    """The token in an Authorization header: Basic oauth2:TOKEN for git, Bearer TOKEN for Kubernetes."""
    scheme, _, value = (header or "").partition(" ")
    if mode == "kube" and scheme == "Bearer":
        return value
    if mode == "git" and scheme == "Basic":
        user, _, password = base64.b64decode(value).decode().partition(":")
        return password if user == "oauth2" else None
    return None


class Handler(QuietHandler):
    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()

    def handle_request(self):
        token = token_of(self.headers.get("Authorization"))
        if not token or not accepted(token):
            self.reply(401, b'{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}',
                        [("WWW-Authenticate", 'Basic realm="git"' if mode == "git" else "Bearer"), ("Content-Type", "application/json")])
        elif mode == "kube":
            self.reply(200, b'{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}', [("Content-Type", "application/json")])
        else:
            self.git_http_backend()

    def git_http_backend(self):
        path, _, query = self.path.partition("?")
        environment = dict(os.environ, GIT_PROJECT_ROOT=folder, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path, QUERY_STRING=query,
                           REQUEST_METHOD=self.command, REMOTE_USER="oauth2", CONTENT_TYPE=self.headers.get("Content-Type", ""),
                           CONTENT_LENGTH=self.headers.get("Content-Length", ""),
                           HTTP_CONTENT_ENCODING=self.headers.get("Content-Encoding", ""), GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
        body = self.rfile.read(int(self.headers.get("Content-Length", "0") or "0"))
        output = subprocess.run(["/usr/lib/git-core/git-http-backend"], input=body, env=environment,
                                stdout=subprocess.PIPE, check=True).stdout
        head, _, content = output.partition(b"\r\n\r\n")
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in head.decode().split("\r\n") if ":" in line]
        status = next((int(value.split()[0]) for name, value in headers if name.lower() == "status"), 200)
        self.reply(status, content, [(name, value) for name, value in headers if name.lower() != "status"])



server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if mode == "kube":
    use_self_signed_certificate(server, folder)
serve(server)
