"""Sends a window the close request a window manager sends for Alt+F4 or its close button.

Usage: python3 close_request.py TITLE
Finds the viewable top-level windows titled TITLE on $DISPLAY and sends each a WM_PROTOCOLS
client message carrying WM_DELETE_WINDOW (ICCCM 4.2.8.1). xdotool cannot send one, and with
no window manager under Xvfb, Alt+F4 alone does nothing. Prints how many windows it asked.
Needs python3-xlib.
"""
import sys

from Xlib import X, Xatom, display, error, xauth
from Xlib.protocol import event

# The engine's Xauthority file holds one "wild" entry (any address, any display), which libXau
# honours and python-xlib 0.33 does not: look for it when no exact entry matches.
exact_match = xauth.Xauthority.get_best_auth


def best_or_wild(self, family, address, dispno, types=(b"MIT-MAGIC-COOKIE-1",)):
    try:
        return exact_match(self, family, address, dispno, types)
    except error.XNoAuthError:
        for entry_family, _, number, name, data in self.entries:
            if entry_family == 0xFFFF and number in (b"", str(dispno).encode()) and name in types:
                return name, data
        raise


xauth.Xauthority.get_best_auth = best_or_wild
title = sys.argv[1]
screen = display.Display()
root = screen.screen().root
protocols = screen.intern_atom("WM_PROTOCOLS")
delete = screen.intern_atom("WM_DELETE_WINDOW")
utf8_name = screen.intern_atom("_NET_WM_NAME")
utf8 = screen.intern_atom("UTF8_STRING")


def name(window):
    prop = window.get_full_property(utf8_name, utf8)
    if prop is not None:
        return prop.value.decode("utf-8") if isinstance(prop.value, bytes) else str(prop.value)
    prop = window.get_full_property(Xatom.WM_NAME, X.AnyPropertyType)
    return prop.value.decode("latin-1") if prop is not None and isinstance(prop.value, bytes) else None


asked = 0
for window in root.query_tree().children:
    if window.get_attributes().map_state == X.IsViewable and name(window) == title:
        message = event.ClientMessage(window=window, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        window.send_event(message, event_mask=X.NoEventMask)
        asked += 1
screen.sync()
print(asked)
