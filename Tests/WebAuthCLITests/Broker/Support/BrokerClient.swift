import Foundation
import OpenIDConnect

/// The tests' own client of the broker, in Python (python3-gi): one request or call, its outcome
/// printed as one JSON object, so a test can look at every result, error name and exit status.
/// Options are JSON: a string is `s`, a number `u`, a list `as`, an object `a{ss}`;
/// `{"x": {"int64": 5}}` gives another type where a test needs a wrong one. Two keys are the
/// client's own: `script_file` (a path, opened by the client and sent as `script_fd`) and
/// `script_pipe` (a pipe's read end sent as `script_fd`).
enum BrokerClient {
    /// `request.py METHOD PARENT_WINDOW OPTIONS_JSON`: SignIn or SignOut, subscribed to its
    /// Response first (and to the broker leaving); prints `{"handle", "response", "results"}`, or
    /// `{"error_name", "message"}` when the call itself fails.
    static let request = common + """
        method, parent, options = sys.argv[1], sys.argv[2], variant_options(json.loads(sys.argv[3]))
        token = json.loads(sys.argv[3]).get("handle_token", "t%d" % os.getpid())
        options["handle_token"] = GLib.Variant("s", token)
        fds = Gio.UnixFDList()
        if "script_file" in options:  # the tests' own key: the file, opened here, goes as script_fd (the broker opens no path)
            options["script_fd"] = GLib.Variant("h", fds.append(os.open(options.pop("script_file").get_string(), os.O_RDONLY)))
        if "script_pipe" in options:  # a descriptor that is not a regular file
            reader, writer = os.pipe()
            options.pop("script_pipe")
            options["script_fd"] = GLib.Variant("h", fds.append(reader))
        handle = "/org/webauthsession/Broker/request/%s/%s" % (bus.get_unique_name()[1:].replace(".", "_"), token)
        loop, outcome = GLib.MainLoop(), {"handle": handle}
        def finish(response, results):
            outcome.update(response=response, results=results)
            loop.quit()
        bus.signal_subscribe(BROKER, "org.webauthsession.Request1", "Response", handle, None, Gio.DBusSignalFlags.NONE,
                             lambda *s: finish(*s[5].unpack()), None)
        bus.signal_subscribe("org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", BROKER,
                             Gio.DBusSignalFlags.NONE, lambda *s: s[5].unpack()[2] or finish(2, {"error": "the broker left"}), None)
        try:
            call(method, GLib.Variant("(sa{sv})", (parent, options)), fds)
        except GLib.Error as error:
            print(json.dumps(error_of(error))); sys.exit(0)
        print("requested", flush=True, file=sys.stderr)
        loop.run()
        print(json.dumps(outcome))
        """

    /// `call.py METHOD ARGUMENTS_JSON`: GetToken or ListAccounts; prints `{"results"}` or `{"error_name", "message"}`.
    static let call = common + """
        method, arguments = sys.argv[1], json.loads(sys.argv[2])
        parameters = GLib.Variant("(a{sv})", (variant_options(arguments),)) if method == "GetToken" else None
        if method == "GetTokenWithAString": method, parameters = "GetToken", GLib.Variant("(s)", ("work",))
        try:
            print(json.dumps({"results": call(method, parameters).unpack()[0]}))
        except GLib.Error as error:
            print(json.dumps(error_of(error)))
        """

    /// What both share: the bus, option conversion, the call, and a D-Bus error as JSON.
    static let common = """
        import json, os, sys
        from gi.repository import Gio, GLib
        BROKER, PATH = "org.webauthsession.Broker", "/org/webauthsession/Broker"
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        def variant(value):
            if isinstance(value, str): return GLib.Variant("s", value)
            if isinstance(value, bool): return GLib.Variant("b", value)
            if isinstance(value, int): return GLib.Variant("u", value)
            if isinstance(value, list): return GLib.Variant("as", value)
            if "int64" in value: return GLib.Variant("x", value["int64"])
            return GLib.Variant("a{ss}", value)
        def variant_options(options):
            return {name: variant(value) for name, value in options.items()}
        def call(method, parameters, fds=None):
            return bus.call_with_unix_fd_list_sync(BROKER, PATH, "org.webauthsession.Broker1", method, parameters, None, Gio.DBusCallFlags.NONE,
                                                   120000, fds, None)[0]
        def error_of(error):
            name = Gio.DBusError.get_remote_error(error)
            prefix = "GDBus.Error:%s: " % name
            return {"error_name": name, "message": error.message[len(prefix):] if error.message.startswith(prefix) else error.message}

        """
}

extension BrokerBus {
    /// One `SignIn` (or `SignOut`) by the tests' Python client, its outcome parsed.
    func request(_ options: [String: JSONValue], method: String = "SignIn", parent: String = "") async throws -> JSONValue {
        let run = try await python(BrokerClient.request, [method, parent, JSONValue.object(options).description])
        return try JSONValue(parsing: run.stdout.isEmpty ? "{\"stderr\": \(JSONValue.string(run.stderr).description)}" : run.stdout)
    }

    /// One `GetToken` (or `ListAccounts`) by the tests' Python client, its outcome parsed.
    func call(_ options: [String: JSONValue] = [:], method: String = "GetToken") async throws -> JSONValue {
        let run = try await python(BrokerClient.call, [method, JSONValue.object(options).description])
        return try JSONValue(parsing: run.stdout.isEmpty ? "{\"stderr\": \(JSONValue.string(run.stderr).description)}" : run.stdout)
    }
}
