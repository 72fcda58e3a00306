/// The page side of WebAuthn in a WebKit that has none: `PublicKeyCredential`, its
/// responses, and `navigator.credentials.create` and `.get`, in the page's own world of every
/// frame at document start. A request leaves as a DOM event on the top document, which only
/// ``PasskeyBridgeScript`` (the engine's isolated world, top frame only) hears; the answer
/// comes back as another. A subframe's request is refused here with `NotAllowedError`: the
/// engine answers the top-level document only. Nothing here is trusted: the engine takes the
/// origin from WebKit, checks the options itself, and a page that forges these events only
/// asks for what it could ask through the API.
enum PasskeyPageScript {
    /// The event the page side posts a request with, and the one answers come back with.
    static let requestEvent = "webauthsession-passkey-request"
    /// The event answers come back with.
    static let answerEvent = "webauthsession-passkey-answer"

    /// The script (page world, every frame, document start).
    static let source = """
        (() => {
            if (window.PublicKeyCredential) return;  // a WebKit with Web Authentication keeps its own
            const isTop = window === window.top, doc = document, token = Symbol('webauthsession');
            const dispatch = EventTarget.prototype.dispatchEvent, listen = EventTarget.prototype.addEventListener;
            const Event = CustomEvent, Exception = DOMException, Fulfilled = Promise, Bytes = Uint8Array, Buffer = ArrayBuffer;
            const stringify = JSON.stringify, parse = JSON.parse, fromCharCode = String.fromCharCode, toBase64 = btoa, fromBase64 = atob;
            const pending = new Map();
            let next = 0;
            const str = (value) => value == null ? undefined : String(value);
            const num = (value) => value == null ? undefined : Number(value);
            const bytesOf = (source, name) => {
                if (source instanceof Buffer) return new Bytes(source);
                if (Buffer.isView(source)) return new Bytes(source.buffer, source.byteOffset, source.byteLength);
                throw new TypeError(name + ' is not a BufferSource');
            };
            const encode = (source, name) => {
                const bytes = bytesOf(source, name);
                let binary = '';
                for (let i = 0; i < bytes.length; i += 0x8000) binary += fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
                return toBase64(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
            };
            const decode = (text) => {
                const binary = fromBase64(String(text).replace(/-/g, '+').replace(/_/g, '/'));
                const bytes = new Bytes(binary.length);
                for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
                return bytes.buffer;
            };
            const descriptors = (list, name) => list == null ? [] :
                Array.from(list, (item) => ({ type: str(item.type), id: encode(item.id, name + '.id') }));
            const creation = (o) => {
                if (!o.rp || !o.user || !o.pubKeyCredParams) throw new TypeError('rp, user and pubKeyCredParams are required');
                const selection = o.authenticatorSelection || {};
                return {
                    rp: { id: str(o.rp.id), name: str(o.rp.name) },
                    user: { id: encode(o.user.id, 'user.id'), name: str(o.user.name), displayName: str(o.user.displayName) },
                    challenge: encode(o.challenge, 'challenge'),
                    pubKeyCredParams: Array.from(o.pubKeyCredParams, (p) => ({ type: str(p.type), alg: num(p.alg) })),
                    timeout: num(o.timeout), excludeCredentials: descriptors(o.excludeCredentials, 'excludeCredentials'),
                    authenticatorSelection: { residentKey: str(selection.residentKey), requireResidentKey: !!selection.requireResidentKey,
                                              userVerification: str(selection.userVerification) },
                    extensions: { credProps: !!(o.extensions && o.extensions.credProps) },
                };
            };
            const request = (o) => ({ challenge: encode(o.challenge, 'challenge'), timeout: num(o.timeout), rpId: str(o.rpId),
                                      allowCredentials: descriptors(o.allowCredentials, 'allowCredentials'),
                                      userVerification: str(o.userVerification) });
            const post = (message) => dispatch.call(doc, new Event('\(requestEvent)', { detail: stringify(message) }));
            listen.call(doc, '\(answerEvent)', (event) => {
                let answer;
                try { answer = parse(event.detail); } catch (error) { return; }
                const settle = answer && pending.get(answer.id);
                if (!settle) return;
                pending.delete(answer.id);
                settle(answer);
            });
            const aborted = (signal) => signal.reason !== undefined ? signal.reason : new Exception('The operation was aborted.', 'AbortError');
            const ask = (message, signal) => new Fulfilled((resolve, reject) => {
                const id = ++next;
                pending.set(id, resolve);
                if (signal) listen.call(signal, 'abort', () => {
                    if (!pending.delete(id)) return;
                    post({ kind: 'abort', id });
                    reject(aborted(signal));
                }, { once: true });
                post(Object.assign({}, message, { id }));
            });
            const failure = (error) => error.name === 'TypeError' ? new TypeError(error.message) : new Exception(error.message, error.name);
            const operate = (kind, options) => {
                const signal = options.signal;
                if (signal && signal.aborted) return Fulfilled.reject(aborted(signal));
                if (!isTop) return Fulfilled.reject(new Exception('Only the top-level document may use passkeys here.', 'NotAllowedError'));
                let encoded;
                try { encoded = kind === 'create' ? creation(options.publicKey) : request(options.publicKey); }
                catch (error) { return Fulfilled.reject(error instanceof TypeError ? error : new TypeError(String(error))); }
                return ask({ kind, options: encoded, mediation: str(options.mediation) }, signal).then((answer) => {
                    if (answer.error) throw failure(answer.error);
                    return new PublicKeyCredential(token, answer.credential);
                });
            };
            const illegal = (key) => { if (key !== token) throw new TypeError('Illegal constructor'); };
            class Credential { constructor(key) { illegal(key); } }
            class AuthenticatorResponse {
                #clientDataJSON;
                constructor(key, json) { illegal(key); this.#clientDataJSON = decode(json.clientDataJSON); }
                get clientDataJSON() { return this.#clientDataJSON; }
            }
            class AuthenticatorAttestationResponse extends AuthenticatorResponse {
                #json; #attestationObject;
                constructor(key, json) { super(key, json); this.#json = json; this.#attestationObject = decode(json.attestationObject); }
                get attestationObject() { return this.#attestationObject; }
                getTransports() { return this.#json.transports.slice(); }
                getAuthenticatorData() { return decode(this.#json.authenticatorData); }
                getPublicKey() { return decode(this.#json.publicKey); }
                getPublicKeyAlgorithm() { return this.#json.publicKeyAlgorithm; }
                get [Symbol.toStringTag]() { return 'AuthenticatorAttestationResponse'; }
            }
            class AuthenticatorAssertionResponse extends AuthenticatorResponse {
                #authenticatorData; #signature; #userHandle;
                constructor(key, json) {
                    super(key, json);
                    this.#authenticatorData = decode(json.authenticatorData);
                    this.#signature = decode(json.signature);
                    this.#userHandle = json.userHandle == null ? null : decode(json.userHandle);
                }
                get authenticatorData() { return this.#authenticatorData; }
                get signature() { return this.#signature; }
                get userHandle() { return this.#userHandle; }
                get [Symbol.toStringTag]() { return 'AuthenticatorAssertionResponse'; }
            }
            const fromJSON = (o, fields) => {
                const copy = Object.assign({}, o);
                for (const field of fields) if (copy[field] != null) copy[field] = decode(copy[field]);
                return copy;
            };
            const descriptorsFromJSON = (list) => list == null ? list : Array.from(list, (item) => fromJSON(item, ['id']));
            class PublicKeyCredential extends Credential {
                #json; #rawId; #response;
                constructor(key, json) {
                    super(key);
                    this.#json = json;
                    this.#rawId = decode(json.rawId);
                    this.#response = 'attestationObject' in json.response ? new AuthenticatorAttestationResponse(key, json.response)
                                                                         : new AuthenticatorAssertionResponse(key, json.response);
                }
                get id() { return this.#json.id; }
                get rawId() { return this.#rawId; }
                get type() { return 'public-key'; }
                get response() { return this.#response; }
                get authenticatorAttachment() { return this.#json.authenticatorAttachment; }
                getClientExtensionResults() { return parse(stringify(this.#json.clientExtensionResults || {})); }
                toJSON() { return parse(stringify(this.#json)); }
                get [Symbol.toStringTag]() { return 'PublicKeyCredential'; }
                static isUserVerifyingPlatformAuthenticatorAvailable() {
                    return isTop ? ask({ kind: 'available' }).then((answer) => answer.value === true) : Fulfilled.resolve(false);
                }
                static isConditionalMediationAvailable() { return Fulfilled.resolve(false); }
                static parseCreationOptionsFromJSON(o) {
                    return Object.assign(fromJSON(o, ['challenge']), { user: fromJSON(o.user, ['id']),
                                                                     excludeCredentials: descriptorsFromJSON(o.excludeCredentials) });
                }
                static parseRequestOptionsFromJSON(o) {
                    return Object.assign(fromJSON(o, ['challenge']), { allowCredentials: descriptorsFromJSON(o.allowCredentials) });
                }
            }
            const credentials = {
                get(options) {
                    options = options || {};
                    return options.publicKey ? operate('get', options) : Fulfilled.resolve(null);
                },
                create(options) {
                    options = options || {};
                    return options.publicKey ? operate('create', options)
                        : Fulfilled.reject(new Exception('This browser cannot store credentials.', 'NotSupportedError'));
                },
                store() { return Fulfilled.reject(new Exception('This browser cannot store credentials.', 'NotSupportedError')); },
                preventSilentAccess() { return Fulfilled.resolve(); },
            };
            const define = (name, value) => Object.defineProperty(window, name, { value, writable: true, configurable: true });
            if (!window.Credential) define('Credential', Credential);
            define('PublicKeyCredential', PublicKeyCredential);
            define('AuthenticatorResponse', AuthenticatorResponse);
            define('AuthenticatorAttestationResponse', AuthenticatorAttestationResponse);
            define('AuthenticatorAssertionResponse', AuthenticatorAssertionResponse);
            Object.defineProperty(Navigator.prototype, 'credentials', { configurable: true, enumerable: true, get: () => credentials });
        })();
        """
}
