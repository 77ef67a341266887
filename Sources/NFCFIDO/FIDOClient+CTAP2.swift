import Crypto
import NFCCBOR

/// A relying party (WebAuthn PublicKeyCredentialRpEntity).
public struct RelyingParty: Sendable, Hashable {
    /// The RP ID, a domain such as `example.com`; its SHA-256 is the authenticator data's ``AuthenticatorData/rpIDHash``.
    public var id: String
    /// A name for people; sent only when set.
    public var name: String?
    /// A relying party with its ID and, optionally, a name.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// A user account (WebAuthn PublicKeyCredentialUserEntity).
public struct UserEntity: Sendable, Hashable {
    /// The user handle, 1–64 bytes.
    public var id: [UInt8]
    /// The account name (e.g. an email address); sent only when set.
    public var name: String?
    /// A name for people; sent only when set.
    public var displayName: String?
    /// A user; nothing is checked here (``FIDOClient/makeCredential(clientDataHash:rp:user:residentKey:excludeList:pinUvAuthToken:)``
    /// refuses an ID outside 1–64 bytes).
    public init(id: [UInt8], name: String? = nil, displayName: String? = nil) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// authenticatorMakeCredential's answer: the attestation object (CTAP 2.1 §6.1).
public struct AttestationObject: Sendable, Hashable {
    /// `fmt` (0x01): the attestation statement format, e.g. `packed`.
    public let format: String
    /// `authData` (0x02), parsed.
    public let authenticatorData: AuthenticatorData
    /// The attestation statement as sent.
    public let statement: CBOR

    /// Parses makeCredential's answer map.
    /// - Throws: ``FIDOError`` `.malformedResponse` when `fmt` is not text, `authData` not bytes or `attStmt` not a map,
    ///   and what ``AuthenticatorData/init(parsing:)`` throws.
    public init(_ map: CBOR) throws(FIDOError) {
        guard let format = map[1]?.textValue else { throw .malformedResponse(field: "makeCredential.fmt", reason: "missing or not text") }
        guard let authData = map[2]?.bytesValue else {
            throw .malformedResponse(field: "makeCredential.authData", reason: "missing or not bytes")
        }
        guard let statement = map[3], statement.mapValue != nil else {
            throw .malformedResponse(field: "makeCredential.attStmt", reason: "missing or not a map")
        }
        self.format = format
        authenticatorData = try AuthenticatorData(parsing: authData)
        self.statement = statement
    }

    /// The new credential.
    public var credential: AuthenticatorData.AttestedCredential {
        get throws(FIDOError) {
            guard let credential = authenticatorData.attestedCredential else {
                throw .malformedResponse(field: "authData.attestedCredentialData", reason: "absent (flag AT clear)")
            }
            return credential
        }
    }

    /// Verifies "packed" attestation (WebAuthn §8.2): self attestation (no `x5c`, signed by the
    /// credential key, `alg` equal to the credential's) or basic attestation with `x5c[0]`'s key.
    public func verify(clientDataHash: [UInt8]) throws(FIDOError) {
        guard format == "packed" else { throw .verificationFailed("attestation format \(format) is not packed") }
        guard statement["alg"]?.intValue == -7 else { throw .verificationFailed("attStmt.alg is not ES256") }
        guard let signature = statement["sig"]?.bytesValue else { throw .malformedResponse(field: "attStmt.sig", reason: "missing") }
        let key: P256.Signing.PublicKey
        if let chain = statement["x5c"]?.arrayValue, let first = chain.first?.bytesValue {
            key = try AttestationCertificate.publicKey(first)
        } else {
            key = try credential.publicKey.publicKey
        }
        try ES256.verify(
            signature: signature, message: authenticatorData.bytes + clientDataHash, key: key, what: "packed attestation signature")
    }
}

/// One authenticatorGetAssertion / GetNextAssertion answer (CTAP 2.1 §6.2).
public struct Assertion: Sendable, Hashable {
    /// The ID of the credential used (`credential.id`, 0x01).
    public let credentialID: [UInt8]
    /// `authData` (0x02), parsed.
    public let authenticatorData: AuthenticatorData
    /// The DER ECDSA signature over authData || clientDataHash (0x03).
    public let signature: [UInt8]
    /// Present for discoverable credentials.
    public let user: UserEntity?
    /// Present on the first answer when several credentials matched.
    public let numberOfCredentials: Int?

    /// Parses one getAssertion or getNextAssertion answer map.
    /// - Throws: ``FIDOError`` `.malformedResponse` when the credential ID, `authData` or signature is missing or a
    ///   user has no ID, and what ``AuthenticatorData/init(parsing:)`` throws.
    public init(_ map: CBOR) throws(FIDOError) {
        guard let id = map[1]?["id"]?.bytesValue else { throw .malformedResponse(field: "getAssertion.credential.id", reason: "missing") }
        guard let authData = map[2]?.bytesValue else { throw .malformedResponse(field: "getAssertion.authData", reason: "missing") }
        guard let signature = map[3]?.bytesValue else { throw .malformedResponse(field: "getAssertion.signature", reason: "missing") }
        credentialID = id
        authenticatorData = try AuthenticatorData(parsing: authData)
        self.signature = signature
        if let user = map[4] {
            guard let userID = user["id"]?.bytesValue else { throw .malformedResponse(field: "getAssertion.user.id", reason: "missing") }
            self.user = UserEntity(id: userID, name: user["name"]?.textValue, displayName: user["displayName"]?.textValue)
        } else {
            self.user = nil
        }
        numberOfCredentials = map[5]?.intValue
    }

    /// Verifies the signature over authData || clientDataHash (WebAuthn §7.2 step 20).
    public func verify(publicKey: P256.Signing.PublicKey, clientDataHash: [UInt8]) throws(FIDOError) {
        try ES256.verify(
            signature: signature, message: authenticatorData.bytes + clientDataHash, key: publicKey, what: "assertion signature")
    }
}

extension FIDOClient {
    /// authenticatorGetInfo (0x04).
    public func getInfo() async throws -> AuthenticatorInfo {
        try AuthenticatorInfo(try await ctap2Map(0x04, nil, name: "authenticatorGetInfo"))
    }

    /// authenticatorMakeCredential (0x01) with ES256.
    /// - Parameters:
    ///   - clientDataHash: the SHA-256 of the client data, 32 bytes.
    ///   - rp: the relying party the credential is for.
    ///   - user: the account the credential is for; its handle has 1–64 bytes.
    ///   - residentKey: ask for a discoverable credential (option `rk`).
    ///   - excludeList: IDs of credentials already registered; the authenticator refuses to create another if it holds one.
    ///   - pinUvAuthToken: a token from ``getPinUvAuthToken(pin:permissions:rpID:)``; the client
    ///     sends pinUvAuthParam = HMAC-SHA-256(token, clientDataHash) with protocol 2.
    public func makeCredential(
        clientDataHash: [UInt8], rp: RelyingParty, user: UserEntity, residentKey: Bool = false,
        excludeList: [[UInt8]] = [], pinUvAuthToken: PinUvAuthToken? = nil
    ) async throws -> AttestationObject {
        guard clientDataHash.count == 32 else { throw FIDOError.invalidRequest("clientDataHash has 32 bytes") }
        guard (1...64).contains(user.id.count) else { throw FIDOError.invalidRequest("a user handle has 1–64 bytes") }
        var rpMap: [CBOR: CBOR] = ["id": .text(rp.id)]
        if let name = rp.name { rpMap["name"] = .text(name) }
        var userMap: [CBOR: CBOR] = ["id": .bytes(user.id)]
        if let name = user.name { userMap["name"] = .text(name) }
        if let displayName = user.displayName { userMap["displayName"] = .text(displayName) }
        var parameters: [CBOR: CBOR] = [
            .int(1): .bytes(clientDataHash),
            .int(2): .map(rpMap),
            .int(3): .map(userMap),
            .int(4): [["alg": -7, "type": "public-key"]],
        ]
        if !excludeList.isEmpty {
            parameters[.int(5)] = .array(excludeList.map { .map(["id": .bytes($0), "type": "public-key"]) })
        }
        if residentKey { parameters[.int(7)] = ["rk": true] }
        if let pinUvAuthToken {
            parameters[.int(8)] = .bytes(pinUvAuthToken.authenticate(clientDataHash))
            parameters[.int(9)] = 2
        }
        return try AttestationObject(try await ctap2Map(0x01, .map(parameters), name: "authenticatorMakeCredential"))
    }

    /// authenticatorGetAssertion (0x02), then GetNextAssertion (0x08) for every further
    /// credential the authenticator counted: all the assertions, first first.
    public func getAssertions(
        rpID: String, clientDataHash: [UInt8], allowList: [[UInt8]] = [], userPresence: Bool = true,
        pinUvAuthToken: PinUvAuthToken? = nil
    ) async throws -> [Assertion] {
        guard clientDataHash.count == 32 else { throw FIDOError.invalidRequest("clientDataHash has 32 bytes") }
        var parameters: [CBOR: CBOR] = [.int(1): .text(rpID), .int(2): .bytes(clientDataHash)]
        if !allowList.isEmpty {
            parameters[.int(3)] = .array(allowList.map { .map(["id": .bytes($0), "type": "public-key"]) })
        }
        if !userPresence { parameters[.int(5)] = ["up": false] }
        if let pinUvAuthToken {
            parameters[.int(6)] = .bytes(pinUvAuthToken.authenticate(clientDataHash))
            parameters[.int(7)] = 2
        }
        let first = try Assertion(try await ctap2Map(0x02, .map(parameters), name: "authenticatorGetAssertion"))
        var assertions = [first]
        let count = first.numberOfCredentials ?? 1
        // A key stores a few dozen credentials per RP at most; a larger count is not believed.
        guard (1...255).contains(count) else {
            throw FIDOError.malformedResponse(field: "getAssertion.numberOfCredentials", reason: "\(count) is outside 1…255")
        }
        while assertions.count < count {
            assertions.append(try await getNextAssertion())
        }
        return assertions
    }

    /// authenticatorReset (0x07): the key forgets every credential and its PIN. Keys may refuse it
    /// (CTAP2_ERR_NOT_ALLOWED) outside a few seconds after power-up.
    public func reset() async throws {
        _ = try await ctap2(0x07, nil, name: "authenticatorReset")
    }

    /// authenticatorSelection (0x0B): asks for the user's touch; an NFC key answers at once.
    public func selection() async throws {
        _ = try await ctap2(0x0B, nil, name: "authenticatorSelection")
    }

    /// authenticatorGetNextAssertion (0x08).
    public func getNextAssertion() async throws -> Assertion {
        try Assertion(try await ctap2Map(0x08, nil, name: "authenticatorGetNextAssertion"))
    }
}
