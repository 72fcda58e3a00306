import CGTK
import Foundation
import WebAuthSession

/// A GTK 3 application that signs its user in: a window with a "Sign in" button, which opens the
/// provider's page in a popup over the window and then shows who signed in.
///
/// The application owns the main loop, as every GTK application does: it initialises GTK and runs
/// `gtk_main` on its main thread, and the engine, configured with ``EngineConfiguration/MainLoop/host``,
/// schedules its work (``WebKitActor``) onto that loop instead of starting a thread of its own. So
/// the window's code is `@WebKitActor` too, and may touch GTK between its `await`s.
@main
enum GTKSignIn {
    static func main() throws {
        let settings = Settings.parse(CommandLine.arguments.dropFirst())
        guard gtk_init_check(nil, nil) != 0 else {
            Settings.fail("cannot open a display: run it in a desktop session (or under xvfb-run)")
        }
        try WebAuthEngine.configure(EngineConfiguration(mainLoop: .host))
        cgtk_quit_on_termination_signals()  // so that SIGTERM ends gtk_main and main returns
        // Runs once gtk_main below turns the loop.
        Task { @WebKitActor in
            SignInWindow(settings: settings).show()
        }
        gtk_main()
    }
}
