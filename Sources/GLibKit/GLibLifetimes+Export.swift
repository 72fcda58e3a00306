// A GObject reference and a GError owned by Swift live in GLibLifetimes, on GLib alone, so that
// `webauth`'s front holds them without libsoup: whoever imports the kit sees them as its own.
@_exported import GLibLifetimes
