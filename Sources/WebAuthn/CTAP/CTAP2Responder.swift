import Foundation

/// The authenticator's side of CTAP2 (CTAP 2.1 §6) over the virtual authenticator: a CBOR
/// command in, a status byte and a CBOR answer out. It serves authenticatorGetInfo,
/// authenticatorMakeCredential, authenticatorGetAssertion and authenticatorSelection, and with
/// a ``CTAP2ClientPIN`` authenticatorClientPIN (PIN protocol 1): a key with a PIN then makes
/// credentials only with a `pinAuth` and verifies the user with it. Every input ends in an
/// answer, a malformed one in an error status.
public struct CTAP2Responder: Sendable {
    /// The commands it knows (CTAP 2.1 §6).
    public enum Command: UInt8, Sendable {
        /// authenticatorMakeCredential.
        case makeCredential = 0x01
        /// authenticatorGetAssertion.
        case getAssertion = 0x02
        /// authenticatorGetInfo.
        case getInfo = 0x04
        /// authenticatorClientPIN.
        case clientPIN = 0x06
        /// authenticatorSelection (a touch, to pick this key among several).
        case selection = 0x0B
    }

    /// The virtual authenticator's AAGUID: all zero, as attestation `none` reports.
    public static var aaguid: Data { Data(count: 16) }  // made each time: a static Data was reported by LeakSanitizer at exit
    /// The longest message it accepts.
    public static let maximumMessageSize = 1200

    /// The authenticator that answers.
    public let authenticator: VirtualAuthenticator
    /// The key's PIN, if it has one.
    public let clientPIN: CTAP2ClientPIN?

    /// A responder for `authenticator`, protected by `clientPIN` if given.
    public init(authenticator: VirtualAuthenticator, clientPIN: CTAP2ClientPIN? = nil) {
        self.authenticator = authenticator
        self.clientPIN = clientPIN
    }

    /// The answer to `message` (command byte, then its CBOR parameters): status byte, then CBOR.
    public func respond(to message: Data) -> Data {
        guard let first = message.first else { return Data([CTAP2Status.invalidLength.rawValue]) }
        guard message.count <= Self.maximumMessageSize else { return Data([CTAP2Status.invalidLength.rawValue]) }
        guard let command = Command(rawValue: first) else { return Data([CTAP2Status.invalidCommand.rawValue]) }
        do {
            let answer = try answer(command, parameters: message.dropFirst())
            return Data([CTAP2Status.ok.rawValue]) + (answer?.encoded ?? Data())
        } catch {
            return Data([error.rawValue])
        }
    }

    private func answer(_ command: Command, parameters bytes: Data) throws(CTAP2Status) -> CBORValue? {
        switch command {
        case .getInfo:
            return info
        case .selection:
            guard authenticator.settings.userPresence else { throw .operationDenied }
            return nil
        case .clientPIN:
            guard let clientPIN else { throw .invalidCommand }
            return try clientPIN.respond(to: try Self.parameters(bytes))
        case .makeCredential:
            let parameters = try Self.parameters(bytes)
            let request = try Self.makeCredentialRequest(parameters)
            let verified = try pinVerified(parameters, pinAuthKey: 8, clientDataHash: request.clientDataHash, required: true)
            do {
                let made = try authenticator.makeCredentialNow(request, verifiedByPIN: verified)
                return .map([(1, "none"), (2, .bytes(made.authenticatorData.encoded)), (3, .map([]))])
            } catch {
                throw CTAP2Status(error)
            }
        case .getAssertion:
            let parameters = try Self.parameters(bytes)
            let request = try Self.getAssertionRequest(parameters)
            let verified = try pinVerified(parameters, pinAuthKey: 6, clientDataHash: request.clientDataHash,
                                           required: request.userVerification == .required)
            do {
                let assertion = try authenticator.getAssertionNow(request, verifiedByPIN: verified)
                var entries: [(key: CBORValue, value: CBORValue)] = [
                    (1, .map([("id", .bytes(assertion.credentialID)), ("type", "public-key")])),
                    (2, .bytes(assertion.authenticatorData)), (3, .bytes(assertion.signature)),
                ]
                if let handle = assertion.userHandle { entries.append((4, .map([("id", .bytes(handle))]))) }
                return .map(entries)
            } catch {
                throw CTAP2Status(error)
            }
        }
    }

    /// authenticatorGetInfo's answer: CTAP 2.0 and 2.1, discoverable credentials, user presence,
    /// built-in user verification as the settings say, and with a PIN `clientPin` and protocol 1.
    private var info: CBORValue {
        var options: [(key: CBORValue, value: CBORValue)] = [("rk", .bool(true)), ("up", .bool(true)), ("plat", .bool(false))]
        if authenticator.settings.userVerification { options.append(("uv", .bool(true))) }
        if clientPIN != nil { options.append(("clientPin", .bool(true))) }
        var entries: [(key: CBORValue, value: CBORValue)] = [
            (1, .array(["FIDO_2_0", "FIDO_2_1"])), (3, .bytes(Self.aaguid)), (4, .map(options)), (5, .int(Self.maximumMessageSize)),
            (10, .array(COSEAlgorithm.allCases.map { .map([("alg", .int($0.rawValue)), ("type", "public-key")]) })),
        ]
        if clientPIN != nil { entries.append((6, .array([1]))) }
        return .map(entries)
    }

    /// Whether the request's `pinAuth` (at `pinAuthKey`, its protocol at the next key) proves the
    /// key's PIN; a key with a PIN refuses a request without one when it is `required`.
    private func pinVerified(_ parameters: CBORValue, pinAuthKey: Int, clientDataHash: Data, required: Bool) throws(CTAP2Status) -> Bool {
        guard let clientPIN else { return false }
        guard let pinAuth = parameters[pinAuthKey]?.bytesValue else {
            if required { throw .pinRequired }
            return false
        }
        guard parameters[pinAuthKey + 1]?.intValue == 1, clientPIN.verifies(pinAuth: pinAuth, clientDataHash: clientDataHash) else {
            throw .pinAuthInvalid
        }
        return true
    }

    private static func parameters(_ bytes: Data) throws(CTAP2Status) -> CBORValue {
        let value: CBORValue
        do { value = try CBORDecoder.decode(bytes) } catch { throw .invalidCBOR }
        guard value.mapValue != nil else { throw .cborUnexpectedType }
        return value
    }

    static func makeCredentialRequest(_ parameters: CBORValue) throws(CTAP2Status) -> MakeCredentialRequest {
        guard let hash = parameters[1]?.bytesValue, let rp = parameters[2], let user = parameters[3],
              let algorithms = parameters[4]?.arrayValue else { throw .missingParameter }
        guard hash.count == 32, let rpID = rp["id"]?.textValue, let userID = user["id"]?.bytesValue, (1...64).contains(userID.count) else {
            throw .invalidParameter
        }
        let options = try self.options(parameters[7])
        return MakeCredentialRequest(
            clientDataHash: hash, relyingPartyID: rpID, relyingPartyName: rp["name"]?.textValue ?? "", userID: userID,
            userName: user["name"]?.textValue ?? "", userDisplayName: user["displayName"]?.textValue ?? "",
            algorithms: algorithms.compactMap { $0["type"]?.textValue == "public-key" ? $0["alg"]?.intValue.flatMap(COSEAlgorithm.init) : nil },
            excludeCredentials: try credentialIDs(parameters[5]),
            residentKey: options.rk == true ? .required : .discouraged,
            userVerification: options.uv == true ? .required : .discouraged)
    }

    static func getAssertionRequest(_ parameters: CBORValue) throws(CTAP2Status) -> GetAssertionRequest {
        guard let rpID = parameters[1]?.textValue, let hash = parameters[2]?.bytesValue else { throw .missingParameter }
        guard hash.count == 32 else { throw .invalidParameter }
        let options = try self.options(parameters[5])
        if options.rk != nil { throw .unsupportedOption }  // rk is no option of getAssertion
        return GetAssertionRequest(relyingPartyID: rpID, clientDataHash: hash, allowCredentials: try credentialIDs(parameters[3]),
                                   userVerification: options.uv == true ? .required : .discouraged)
    }

    /// The `options` map's `rk`, `uv` (and `up`, which only may be true or absent here).
    private static func options(_ value: CBORValue?) throws(CTAP2Status) -> (rk: Bool?, uv: Bool?) {
        guard let value else { return (nil, nil) }
        guard let entries = value.mapValue else { throw .cborUnexpectedType }
        var found: (rk: Bool?, uv: Bool?) = (nil, nil)
        for (key, flag) in entries {
            guard let name = key.textValue, let flag = flag.boolValue else { throw .cborUnexpectedType }
            switch name {
            case "rk": found.rk = flag
            case "uv": found.uv = flag
            case "up": if !flag { throw .unsupportedOption }
            default: break  // unknown options are ignored (CTAP 2.1 §6.1.2)
            }
        }
        return found
    }

    /// The IDs of a list of `{type: "public-key", id}` descriptors.
    private static func credentialIDs(_ value: CBORValue?) throws(CTAP2Status) -> [Data] {
        guard let value else { return [] }
        guard let items = value.arrayValue else { throw .cborUnexpectedType }
        var ids: [Data] = []
        for item in items {
            guard item.mapValue != nil, let id = item["id"]?.bytesValue else { throw .cborUnexpectedType }
            if item["type"]?.textValue == "public-key" { ids.append(id) }
        }
        return ids
    }
}
