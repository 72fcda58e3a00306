/// The HTML of the development login pages: plain, accessible, with stable element IDs
/// (`#username`, `#password`, `#sign-in`, `#error`) for scripts.
enum LoginPage {
    /// The login form; `hint` is shown under it (the demo account), `error` above it.
    static func form(title: String, error: String?, hint: String?) -> String {
        document(title: title, body: """
            <h1>Sign in</h1>
            \(error.map { "<p id='error' role='alert'>\(escape($0))</p>" } ?? "")
            <form method="post">
              <label>User name <input id="username" name="username" autocomplete="username" autofocus></label>
              <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
              <button id="sign-in" type="submit">Sign in</button>
            </form>
            \(hint.map { "<p class='hint'>\(escape($0))</p>" } ?? "")
            """)
    }

    /// A page that only says something (an error that must not be redirected anywhere).
    static func message(title: String, _ text: String) -> String {
        document(title: title, body: "<h1>\(escape(title))</h1><p id='message'>\(escape(text))</p>")
    }

    private static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width">
        <style>
          body { font: 16px system-ui, sans-serif; max-width: 22rem; margin: 3rem auto; color: #1d1d1f; }
          label { display: block; margin: 1rem 0; } input { display: block; width: 100%; padding: .5rem; font: inherit; }
          button { padding: .6rem 1.2rem; font: inherit; background: #2b59c3; color: white; border: 0; border-radius: 4px; }
          #error { color: #b00020; } .hint { color: #666; font-size: .9rem; }
        </style></head><body>\(body)</body></html>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
