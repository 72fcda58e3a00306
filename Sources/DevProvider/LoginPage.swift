/// The HTML of the development provider's pages: plain, accessible, with stable element IDs for
/// scripts (`#username`, `#password`, `#sign-in`, `#use-email-code`, `#email`, `#send-code`,
/// `#code`, `#verify`, `#resend`, `#allow`, `#deny`, `#sign-out`, `#stay`, the device page's `#user-code`
/// and `#continue`, and `#error` / `#notice` for messages; the passkey pages' are in ``PasskeyPage``).
/// Every form posts back to the authorization URL it was shown at; a hidden `step` says which.
enum LoginPage {
    /// The user name and password form; `passkey` is the passkey sign-in offered beside it (``PasskeyPage/signInOffer(challenge:relyingParty:returnTo:)``).
    static func password(error: String?, passkey: String = "") -> String {
        document(title: "Sign in to the development provider", body: """
            <h1>Sign in</h1>
            \(alert(error))
            <form method="post">
              <input type="hidden" name="step" value="password">
              <label>User name <input id="username" name="username" autocomplete="username" autofocus></label>
              <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
              <button id="sign-in" type="submit">Sign in</button>
            </form>
            <form method="post"><input type="hidden" name="step" value="choose-email">
              <button id="use-email-code" class="link" type="submit">Email me a code instead</button></form>
            \(passkey)
            """)
    }

    /// The first page of the email one-time-code login: the address.
    static func email(error: String?) -> String {
        document(title: "Sign in with an email code", body: """
            <h1>Sign in with an email code</h1>
            \(alert(error))
            <form method="post">
              <input type="hidden" name="step" value="email">
              <label>Email <input id="email" name="email" type="email" autocomplete="email" autofocus></label>
              <button id="send-code" type="submit">Send code</button>
            </form>
            """)
    }

    /// The second page: the code sent to `email`, with "resend".
    static func code(email: String, error: String?, notice: String?) -> String {
        document(title: "Enter your code", body: """
            <h1>Enter your code</h1>
            \(notice.map { "<p id='notice' role='status'>\(escape($0))</p>" } ?? "")
            \(alert(error))
            <form method="post">
              <input type="hidden" name="step" value="code"><input type="hidden" name="email" value="\(escape(email))">
              <label>Code <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" autofocus></label>
              <button id="verify" type="submit">Verify</button>
            </form>
            <form method="post">
              <input type="hidden" name="step" value="resend"><input type="hidden" name="email" value="\(escape(email))">
              <button id="resend" class="link" type="submit">Send a new code</button>
            </form>
            """)
    }

    /// The second factor of a user with a TOTP secret: the code of their authenticator app.
    static func totp(interaction: String, error: String?) -> String {
        document(title: "Enter your authenticator code", body: """
            <h1>Enter your authenticator code</h1>
            \(alert(error))
            <form method="post">
              <input type="hidden" name="step" value="totp"><input type="hidden" name="interaction" value="\(escape(interaction))">
              <label>Code <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" autofocus></label>
              <button id="verify" type="submit">Verify</button>
            </form>
            """)
    }

    /// The device verification page: the code the device shows (filled in from its link).
    static func userCode(_ code: String, error: String?) -> String {
        document(title: "Sign in a device", body: """
            <h1>Sign in a device</h1>
            <p>Enter the code your device shows.</p>
            \(alert(error))
            <form method="post">
              <input type="hidden" name="step" value="user_code">
              <label>Code <input id="user-code" name="user_code" value="\(escape(code))" autocomplete="off" autocapitalize="characters" autofocus></label>
              <button id="continue" type="submit">Continue</button>
            </form>
            """)
    }

    /// The consent page: may `clientID` have `scopes`?
    static func consent(clientID: String, scopes: [String], interaction: String) -> String {
        document(title: "Allow access?", body: """
            <h1>Allow access?</h1>
            <p><strong id="client">\(escape(clientID))</strong> asks for:</p>
            <ul id="scopes">\(scopes.map { "<li>\(escape($0))</li>" }.joined())</ul>
            <form method="post">
              <input type="hidden" name="step" value="consent"><input type="hidden" name="interaction" value="\(escape(interaction))">
              <button id="allow" name="decision" value="allow" type="submit">Allow</button>
              <button id="deny" name="decision" value="deny" type="submit" class="secondary">Deny</button>
            </form>
            """)
    }

    /// The end-session endpoint's question (``ProviderFault/confirmSignOut``): sign out, or stay.
    static func confirmSignOut() -> String {
        document(title: "Sign out?", body: """
            <h1>Sign out?</h1>
            <p id="question">Do you want to sign out of the development provider?</p>
            <form method="post">
              <input type="hidden" name="step" value="sign-out">
              <button id="sign-out" name="decision" value="sign-out" type="submit">Sign out</button>
              <button id="stay" name="decision" value="stay" type="submit" class="secondary">Stay signed in</button>
            </form>
            """)
    }

    /// A page that only says something (an error that must not be redirected anywhere).
    static func message(title: String, _ text: String) -> String {
        document(title: title, body: "<h1>\(escape(title))</h1><p id='message'>\(escape(text))</p>")
    }

    static func alert(_ error: String?) -> String {
        error.map { "<p id='error' role='alert'>\(escape($0))</p>" } ?? ""
    }

    static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width">
        <style>
          body { font: 16px system-ui, sans-serif; max-width: 22rem; margin: 3rem auto; color: #1d1d1f; }
          label { display: block; margin: 1rem 0; } input { display: block; width: 100%; padding: .5rem; font: inherit; }
          button { padding: .6rem 1.2rem; font: inherit; background: #2b59c3; color: white; border: 0; border-radius: 4px; }
          button.secondary { background: #666; } button.link { background: none; color: #2b59c3; padding: 0; margin-top: 1rem; }
          #error { color: #b00020; } #notice { color: #1b6e20; }
        </style></head><body>\(body)</body></html>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
