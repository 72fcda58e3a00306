"""A site that two visitors of one kept web view sign in to, for the pool's view-reuse tests.

Usage: python3 visitor_site.py WORKDIR
/first leaves what a visitor can leave behind in website data and its window: cookies (one
HttpOnly), window.name, local and session storage, an IndexedDB database, two history entries, and an image that may be cached
(/cached.gif, fresh for an hour, loaded twice). It then redirects to com.example:/cb with what it
saw (history.length at load and after, databases). /sw-first registers a service worker and
redirects to com.example:/cb?workers=N. /second reads all of it, loads the image again, and
redirects to com.example:/cb with what it found.
/basic and /xhr-basic ask for HTTP authentication (Basic, alice / s3cret-pw, realms "Basic area"
and "XHR area") and, once given, redirect to com.example:/cb?reached=basic (or xhr).
/xhr-first gives those credentials to an XMLHttpRequest for /xhr-basic, then redirects to
com.example:/cb?status=STATUS; /ws-first puts them in a WebSocket URL for /xhr-basic (no WebSocket
is served: the handshake gets its 401, then a page) and redirects to com.example:/cb?status=closed.
/auth/x asks for HTTP authentication too (Basic, u1 / pw, realm "Auth area"), and /to-auth
redirects there with them in its Location (http://u1:pw@HOST/auth/x). /leave?how=HOW is a first
visitor whose page has WebKit send those credentials without asking anyone, by HOW (see LEAVES),
waits until /auth/x got them (/auth-seen), and redirects to com.example:/cb?left=seen.
Every page is sent with Cross-Origin-Opener-Policy: same-origin, as a deployed Django sends it, and
/to-second redirects to /second with it: the reset, not a process swap, must keep the visitors apart.
Keeps connections alive (HTTP/1.1). Each request is a JSON line in WORKDIR/requests.log: its
path, the client's port, its Cookie header, and whether it carried an Authorization header.
Prints the port it listens on (127.0.0.1) on the first line of stdout, then serves until killed.
"""
import base64
import http.server
import json
import os
import sys
import threading

from fixture_server import QuietHandler, serve

LOG = os.path.join(sys.argv[1], "requests.log")
LOCK = threading.Lock()
GIF = base64.b64decode("R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==")
CREDENTIAL = "Basic " + base64.b64encode(b"alice:s3cret-pw").decode()
REDIRECTED_CREDENTIAL = "Basic " + base64.b64encode(b"u1:pw").decode()
# Each protected path: its realm and the credential it takes.
PROTECTED = {"/basic": ("Basic area", CREDENTIAL), "/xhr-basic": ("XHR area", CREDENTIAL), "/auth/x": ("Auth area", REDIRECTED_CREDENTIAL)}
AUTH_SEEN = threading.Condition()
auth_seen = [False]

IMAGE = """const image = () => new Promise((done) => {
  const picture = new Image();
  picture.onload = picture.onerror = done;
  picture.src = '/cached.gif';
});
"""

FIRST = """<!DOCTYPE html><title>First visitor</title><script>""" + IMAGE + """
(async () => {
  const historyAtLoad = history.length;
  window.name = 'first';
  localStorage.setItem('visitor', 'first');
  sessionStorage.setItem('visitor', 'first');
  await new Promise((done, fail) => {
    const open = indexedDB.open('visitor', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('things');
    open.onsuccess = () => { open.result.close(); done(); };
    open.onerror = () => fail(open.error);
  });
  await image();
  await image();
  history.pushState({}, '', '/first#one');
  history.pushState({}, '', '/first#two');
  const seen = new URLSearchParams({history: historyAtLoad, historyAfter: history.length,
    databases: (await indexedDB.databases()).map((d) => d.name).join(',')});
  location.href = 'com.example:/cb?' + seen;
})().catch((error) => { location.href = 'com.example:/cb?error=' + encodeURIComponent(String(error)); });
</script>"""

SW_FIRST = """<!DOCTYPE html><title>Service worker</title><script>
(async () => {
  await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  location.href = 'com.example:/cb?workers=' + (await navigator.serviceWorker.getRegistrations()).length;
})().catch((error) => { location.href = 'com.example:/cb?error=' + encodeURIComponent(String(error)); });
</script>"""

XHR_FIRST = """<!DOCTYPE html><title>XMLHttpRequest with credentials</title><script>
const xhr = new XMLHttpRequest();
xhr.open('GET', '/xhr-basic', true, 'alice', 's3cret-pw');
xhr.onloadend = () => { location.href = 'com.example:/cb?status=' + xhr.status; };
xhr.send();
</script>"""

WS_FIRST = """<!DOCTYPE html><title>WebSocket with credentials</title><script>
const socket = new WebSocket('ws://alice:s3cret-pw@' + location.host + '/xhr-basic');
socket.onclose = () => { location.href = 'com.example:/cb?status=closed'; };
</script>"""

# How a first visitor's page has WebKit send u1 / pw to /auth/x (`auth` is its URL with them in it).
# (WebKitGTK 2.50 sends neither a beacon's nor a prefetch's: they are not here.)
LEAVES = {
    "redirect-image": "await image('/to-auth');",
    "redirect-fetch": "await fetch('/to-auth');",
    "redirect-xhr": "await new Promise((done) => { const x = new XMLHttpRequest(); x.open('GET', '/to-auth'); x.onloadend = done; x.send(); });",
    "image": "await image(auth);",
    "event-source": "new EventSource(auth);",
    "iframe": "document.body.appendChild(Object.assign(document.createElement('iframe'), {src: auth}));",
    "stylesheet": "document.head.appendChild(Object.assign(document.createElement('link'), {rel: 'stylesheet', href: auth}));",
    "worker-redirect": "new Worker(URL.createObjectURL(new Blob([`fetch('${location.origin}/to-auth')`])));",
    "shared-worker-redirect": "new SharedWorker(URL.createObjectURL(new Blob([`fetch('${location.origin}/to-auth')`])));",
    "form": "Object.assign(document.body.appendChild(document.createElement('form')), {action: auth}).submit(); return;",
}

LEAVE = """<!DOCTYPE html><title>Credentials left</title><body><script>
const auth = 'http://u1:pw@' + location.host + '/auth/x';
const image = (source) => new Promise((done) => {
  const picture = new Image();
  picture.onload = picture.onerror = done;
  picture.src = source;
});
(async () => {
  %s
  location.href = 'com.example:/cb?left=' + await (await fetch('/auth-seen')).text();
})().catch((error) => { location.href = 'com.example:/cb?error=' + encodeURIComponent(String(error)); });
</script>"""

SECOND = """<!DOCTYPE html><title>Second visitor</title><script>""" + IMAGE + """
(async () => {
  const found = {history: history.length, cookie: document.cookie,
    name: window.name, local: localStorage.getItem('visitor') ?? '', session: sessionStorage.getItem('visitor') ?? ''};
  found.databases = (await indexedDB.databases()).map((d) => d.name).join(',');
  found.workers = (await navigator.serviceWorker.getRegistrations()).length;
  found.controlled = navigator.serviceWorker.controller ? 'yes' : 'no';
  await image();
  location.href = 'com.example:/cb?' + new URLSearchParams(found);
})().catch((error) => { location.href = 'com.example:/cb?error=' + encodeURIComponent(String(error)); });
</script>"""


COOP = ("Cross-Origin-Opener-Policy", "same-origin")


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        authorization = self.headers.get("Authorization")
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({"path": self.path, "port": self.client_address[1], "cookie": self.headers.get("Cookie", ""),
                                  "authorization": authorization is not None}) + "\n")
        html = [("Content-Type", "text/html"), COOP]
        if self.path == "/first":
            self.reply(200, FIRST.encode(), html + [("Set-Cookie", "hidden=first; HttpOnly; Path=/"), ("Set-Cookie", "shown=first; Path=/")])
        elif self.path == "/second":
            self.reply(200, SECOND.encode(), html)
        elif self.path == "/sw.js":
            self.reply(200, b"self.addEventListener('install', () => self.skipWaiting());", [("Content-Type", "text/javascript")])
        elif self.path == "/sw-first":
            self.reply(200, SW_FIRST.encode(), html)
        elif self.path == "/ws-first":
            self.reply(200, WS_FIRST.encode(), html)
        elif self.path == "/xhr-first":
            self.reply(200, XHR_FIRST.encode(), html)
        elif self.path == "/cached.gif":
            self.reply(200, GIF, [("Content-Type", "image/gif"), ("Cache-Control", "max-age=3600")])
        elif self.path.startswith("/leave?how="):
            self.reply(200, (LEAVE % LEAVES[self.path.split("=", 1)[1]]).encode(), html)
        elif self.path == "/to-second":
            self.reply(302, b"", [("Location", "/second"), COOP])
        elif self.path == "/to-auth":
            self.reply(302, b"", [("Location", f"http://u1:pw@{self.headers['Host']}/auth/x")])
        elif self.path == "/auth-seen":
            with AUTH_SEEN:
                seen = AUTH_SEEN.wait_for(lambda: auth_seen[0], timeout=30)
            self.reply(200, b"seen" if seen else b"not-seen", [("Content-Type", "text/plain")])
        elif self.path.split("?")[0] in PROTECTED:  # a form's GET adds "?"
            realm, credential = PROTECTED[self.path.split("?")[0]]
            if authorization != credential:
                return self.reply(401, b"unauthorised", [("WWW-Authenticate", f'Basic realm="{realm}"')])
            if self.path.startswith("/auth/x"):
                with AUTH_SEEN:
                    auth_seen[0] = True
                    AUTH_SEEN.notify_all()
            reached = self.path[1:].split("-")[0].split("/")[0]
            body = f"<script>if (window === top) location.href = 'com.example:/cb?reached={reached}'</script>".encode()
            self.reply(200, body, html)
        else:
            self.reply(404, b"")


serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler))
