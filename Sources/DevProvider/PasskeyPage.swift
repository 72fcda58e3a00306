import Foundation
import OpenIDConnect
import WebAuthn

/// The development provider's passkey pages and parts, with stable IDs for scripts:
/// `#use-passkey` (sign in with a passkey, on the login page, or confirm with it as the second
/// factor), `#manage-passkeys` (to the account page), the account page's `#register-passkey`,
/// `#passkeys` (how many the account has) and `#back` (to the sign-in it came from), and
/// `#passkey-error` when the browser's request fails (the page then offers the other ways).
/// Each request's options are in the page; its answer (`PublicKeyCredential.toJSON()`) is posted
/// back in a form, as real providers' pages do. The script comes before the buttons that call it,
/// so a click as soon as a button is there finds it.
enum PasskeyPage {
    /// Passkey sign-in beside the password form: a discoverable credential, user verification
    /// required; and the link to the account page, which comes back to `returnTo`.
    static func signInOffer(challenge: Data, relyingParty: String, returnTo: String) -> String {
        let options: JSONValue = .object(["challenge": .string(Base64URL.encode(challenge)), "rpId": .string(relyingParty),
                                          "userVerification": .string("required")])
        return """
            \(script)
            <form id="passkey-form" method="post"><input type="hidden" name="step" value="passkey">
              <input type="hidden" name="challenge" value="\(Base64URL.encode(challenge))"><input type="hidden" name="credential"></form>
            <p><button id="use-passkey" class="link" type="button" onclick='passkey("get", \(LoginPage.escape(options.description)))'>Sign in with a passkey</button></p>
            <p><a id="manage-passkeys" href="/account?return_to=\(returnTo.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")">Manage passkeys</a></p>
            <p id="passkey-error" role="alert" hidden></p>
            """
    }

    /// The second factor of a user whose passkey is required after the password.
    static func secondFactor(interaction: String, challenge: Data, relyingParty: String, credentialIDs: [Data], error: String?) -> String {
        let options: JSONValue = .object([
            "challenge": .string(Base64URL.encode(challenge)), "rpId": .string(relyingParty), "userVerification": .string("preferred"),
            "allowCredentials": .array(credentialIDs.map { .object(["type": .string("public-key"), "id": .string(Base64URL.encode($0))]) }),
        ])
        return LoginPage.document(title: "Confirm with your passkey", body: """
            <h1>Confirm with your passkey</h1>
            \(LoginPage.alert(error))
            \(script)
            <form id="passkey-form" method="post"><input type="hidden" name="step" value="passkey-second">
              <input type="hidden" name="interaction" value="\(LoginPage.escape(interaction))">
              <input type="hidden" name="challenge" value="\(Base64URL.encode(challenge))"><input type="hidden" name="credential"></form>
            <button id="use-passkey" type="button" onclick='passkey("get", \(LoginPage.escape(options.description)))'>Use my passkey</button>
            <p id="passkey-error" role="alert" hidden></p>
            """)
    }

    /// The account page's sign-in (user name and password), coming back to `returnTo` afterwards.
    static func accountSignIn(returnTo: String?, error: String?) -> String {
        LoginPage.document(title: "Your account", body: """
            <h1>Your account</h1>
            \(LoginPage.alert(error))
            <form method="post">
              <input type="hidden" name="step" value="account">\(returnField(returnTo))
              <label>User name <input id="username" name="username" autocomplete="username" autofocus></label>
              <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
              <button id="sign-in" type="submit">Sign in</button>
            </form>
            """)
    }

    /// The account page: how many passkeys the account has, registering one (resident, user
    /// verification required, ES256 or EdDSA, none the account already has), and the way back.
    static func account(_ user: DevProviderConfiguration.User, interaction: String, passkeys: [Data], challenge: Data, relyingParty: String,
                        returnTo: String?, notice: String?, error: String?) -> String {
        let options: JSONValue = .object([
            "challenge": .string(Base64URL.encode(challenge)),
            "rp": .object(["id": .string(relyingParty), "name": .string("Development provider")]),
            "user": .object(["id": .string(Base64URL.encode(Data(user.subject.utf8))), "name": .string(user.username),
                             "displayName": .string(user.name)]),
            "pubKeyCredParams": .array([-7, -8].map { .object(["type": .string("public-key"), "alg": .number(Double($0))]) }),
            "excludeCredentials": .array(passkeys.map { .object(["type": .string("public-key"), "id": .string(Base64URL.encode($0))]) }),
            "authenticatorSelection": .object(["residentKey": .string("required"), "userVerification": .string("required")]),
            "attestation": .string("none"),
        ])
        let back = returnTo.map { "<p><a id='back' href='\(LoginPage.escape($0))'>Back to sign-in</a></p>" } ?? ""
        return LoginPage.document(title: "Your passkeys", body: """
            <h1>\(LoginPage.escape(user.name))'s passkeys</h1>
            \(notice.map { "<p id='notice' role='status'>\(LoginPage.escape($0))</p>" } ?? "")
            \(LoginPage.alert(error))
            <p>Passkeys registered: <strong id="passkeys">\(passkeys.count)</strong></p>
            \(script)
            <form id="passkey-form" method="post"><input type="hidden" name="step" value="register">
              <input type="hidden" name="interaction" value="\(LoginPage.escape(interaction))">\(returnField(returnTo))
              <input type="hidden" name="challenge" value="\(Base64URL.encode(challenge))"><input type="hidden" name="credential"></form>
            <button id="register-passkey" type="button" onclick='passkey("create", \(LoginPage.escape(options.description)))'>Register a passkey</button>
            <p id="passkey-error" role="alert" hidden></p>
            \(back)
            """)
    }

    private static func returnField(_ returnTo: String?) -> String {
        returnTo.map { "<input type='hidden' name='return_to' value='\(LoginPage.escape($0))'>" } ?? ""
    }

    /// `passkey(kind, options)`: the options' buffers from base64url, the browser's request, and
    /// the credential's JSON posted in `#passkey-form`; a failure shows `#passkey-error`.
    static let script = """
        <script>
        async function passkey(kind, options) {
          const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
          const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
          const publicKey = Object.assign({}, options, { challenge: bytes(options.challenge) });
          if (options.user) publicKey.user = Object.assign({}, options.user, { id: bytes(options.user.id) });
          for (const list of ['allowCredentials', 'excludeCredentials'])
            if (options[list]) publicKey[list] = options[list].map((item) => Object.assign({}, item, { id: bytes(item.id) }));
          try {
            const credential = await navigator.credentials[kind]({ publicKey });
            const response = credential.response, json = credential.toJSON ? credential.toJSON() : {
              id: credential.id, rawId: text(credential.rawId), type: credential.type,
              response: Object.fromEntries(['clientDataJSON', 'attestationObject', 'authenticatorData', 'signature', 'userHandle']
                .filter((name) => response[name]).map((name) => [name, text(response[name])])) };
            const form = document.getElementById('passkey-form');
            form.elements.credential.value = JSON.stringify(json);
            form.submit();
          } catch (error) {
            const message = document.getElementById('passkey-error');
            message.textContent = 'Passkey ' + (kind === 'get' ? 'sign-in' : 'registration') + ' failed (' + error.name + '). Try another way.';
            message.hidden = false;
          }
        }
        </script>
        """
}
