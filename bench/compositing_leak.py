#!/usr/bin/python3
"""A minimal reproducer, outside this package, of the leak that keeps prewarmed views on GPU
compositing (bench/NOTES.md): WebKitGTK views made ahead, their web process started on
about:blank, and rendering without compositing, leave a thread and a descriptor behind in the UI
process every few sign-ins.

Only PyGObject and WebKitGTK 4.1 (Debian's python3-gi, gir1.2-webkit2-4.1), and an X display:

    Xvfb :97 & DISPLAY=:97 /usr/bin/python3 bench/compositing_leak.py [--fresh] [--compositing] [CYCLES]

Each cycle is a sign-in's shape: the view made ahead (with --fresh, a new one) goes into an
offscreen window, loads a page from a local HTTP server, posts its form, and is destroyed once
the answer has loaded; then the next view is made ahead. Every 25 cycles it prints this process's
threads and open descriptors: flat means no leak. Numbers, not a test.
"""
import http.server
import os
import sys
import threading

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

fresh = "--fresh" in sys.argv
compositing = "--compositing" in sys.argv
cycles = next((int(a) for a in sys.argv[1:] if a.isdigit()), 200)


class Page(http.server.BaseHTTPRequestHandler):
    def answer(self):
        body = b"<form method='post'><input name='user' value='alice'></form>"
        if self.command == "POST":
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = b"<p>signed in</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = answer

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/"
context = WebKit2.WebContext.get_default()


def new_view():
    view = WebKit2.WebView(web_context=context, is_ephemeral=True)
    if not compositing:
        view.get_settings().set_hardware_acceleration_policy(WebKit2.HardwareAccelerationPolicy.NEVER)
    if not fresh:
        view.load_html("", "about:blank")  # its web process starts now, before the "session"
    return view


def counts():
    return len(os.listdir("/proc/self/task")), len(os.listdir("/proc/self/fd"))


def thread_names():
    names = {}
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/comm") as comm:
            name = comm.read().strip()
        names[name] = names.get(name, 0) + 1
    return ", ".join(f"{count} {name}" for name, count in sorted(names.items(), key=lambda item: -item[1]))


ahead = None if fresh else new_view()
done = 0


def cycle():
    global ahead, done
    view = new_view() if fresh else ahead
    window = Gtk.OffscreenWindow()
    window.add(view)
    window.show_all()
    loads = []

    def on_load(view, event):
        if event != WebKit2.LoadEvent.FINISHED or view.get_uri() in (None, "about:blank"):
            return
        loads.append(event)
        if len(loads) == 1:
            view.evaluate_javascript("document.forms[0].submit()", -1, None, None, None, None, None)
        else:
            window.destroy()
            finish()

    view.connect("load-changed", on_load)
    if not fresh:
        ahead = new_view()  # the next one, made as this one is taken
    view.load_uri(url)


def finish():
    global done
    done += 1
    if done % 25 == 0:
        threads, descriptors = counts()
        print(f"{done:4d} cycles: {threads} threads, {descriptors} descriptors", flush=True)
    if done >= cycles:
        print(f"threads by name: {thread_names()}", flush=True)
        Gtk.main_quit()
    else:
        GLib.idle_add(lambda: cycle() and False)


threads, descriptors = counts()
print(f"{'fresh views' if fresh else 'views made ahead'}, {'with' if compositing else 'without'} compositing, WebKitGTK "
      f"{WebKit2.get_major_version()}.{WebKit2.get_minor_version()}.{WebKit2.get_micro_version()}", flush=True)
print(f"   0 cycles: {threads} threads, {descriptors} descriptors", flush=True)
GLib.idle_add(lambda: cycle() and False)
Gtk.main()
