import ISO7816

/// A session with the YubiKey OATH applet over any `APDUTransmitter` (Yubico, "YKOATH
/// Protocol Specification").
///
/// ```swift
/// let oath = try await OATHSession(transmitter: tag.apduTransmitter)
/// if await oath.selection.hasAccessCode { try await oath.validate(password: "…") }
/// let codes = try await oath.calculateAll(time: now)
/// ```
///
/// Long responses arrive in parts behind `61xx`; the session collects them with SEND REMAINING
/// (`A5`), as the applet expects, not GET RESPONSE.
public actor OATHSession {
    /// The applet's AID.
    public static let aid = OATHApplication.aid
    /// PBKDF2 rounds of the access key derivation.
    public static let keyDerivationIterations = 1000
    /// Access key length in bytes.
    public static let accessKeyLength = 16
    /// The shortest secret PUT sends: shorter ones are padded with zeros, which HMAC does anyway
    /// (RFC 2104 §2), as YubiKey clients do.
    public static let minimumSecretLength = 14

    private let transmitter: any APDUTransmitter
    /// What the last SELECT returned (the challenge is spent by VALIDATE).
    public private(set) var selection: OATHSelection
    /// The most SEND REMAINING exchanges collected for one response.
    private let maximumParts = 256

    /// Selects the applet.
    /// - Throws: ``OATHError``: `.status(.applicationNotFound, …)` when the card has no OATH
    ///   applet; `.malformedResponse` when the answer lacks the version or name.
    public init(transmitter: any APDUTransmitter) async throws {
        self.transmitter = transmitter
        selection = try await Self.select(transmitter)
    }

    /// Selects the applet again (a fresh challenge when an access code is set).
    @discardableResult
    public func reselect() async throws -> OATHSelection {
        selection = try await Self.select(transmitter)
        return selection
    }

    // MARK: Access code

    /// The access key for `password` with this applet's salt: PBKDF2-HMAC-SHA1, 1000 rounds,
    /// 16 bytes.
    public func deriveKey(password: String) throws(OATHError) -> [UInt8] {
        try Self.deriveKey(password: password, salt: selection.salt)
    }

    /// PBKDF2-HMAC-SHA1(password, salt, 1000, 16) (RFC 8018 §5.2).
    public static func deriveKey(password: String, salt: [UInt8]) throws(OATHError) -> [UInt8] {
        var passwordBytes = Array(password.utf8)
        defer { for i in passwordBytes.indices { passwordBytes[i] = 0 } }
        return try PBKDF2.sha1(password: passwordBytes, salt: salt, iterations: keyDerivationIterations, length: accessKeyLength)
    }

    /// Unlocks the session with a password.
    public func validate(password: String) async throws {
        var key = try deriveKey(password: password)
        defer { for i in key.indices { key[i] = 0 } }
        try await validate(key: key)
    }

    /// VALIDATE: answers SELECT's challenge with HMAC(key, challenge) and checks the applet's
    /// answer to a challenge of ours, so each side proves it holds the key.
    /// - Throws: ``OATHError`` `.status(.wrongSyntax, …)` for a wrong key;
    ///   `.cardAuthenticationFailed` when the applet's answer does not verify.
    ///
    /// The applet's challenge serves one attempt: when it was spent (a VALIDATE before), the
    /// applet is selected again for a fresh one.
    public func validate(key: [UInt8]) async throws {
        if selection.challenge == nil && selection.hasAccessCode { try await reselect() }
        guard let cardChallenge = selection.challenge else {
            throw OATHError.status(.noSuchObject, StatusWord(rawValue: 0x6984), .validate)
        }
        selection.challenge = nil
        let algorithm = selection.algorithm
        let ourChallenge = Self.randomBytes(8)
        var response = algorithm.hmac(key: key, message: cardChallenge)
        defer { for i in response.indices { response[i] = 0 } }
        let data = OATHTLV.encode(OATHTag.response, response) + OATHTLV.encode(OATHTag.challenge, ourChallenge)
        let answer = try await command(.validate, ins: 0xA3, data: data)
        let objects = try OATHTLV.parse(answer, operation: .validate)
        let cardResponse = try objects.require(OATHTag.response, "response", operation: .validate, responseLength: answer.count)
        let expected = algorithm.hmac(key: key, message: ourChallenge)
        guard Self.constantTimeEqual(cardResponse.value, expected) else { throw OATHError.cardAuthenticationFailed }
    }

    /// SET CODE: protects the applet with the key of `password` (SHA-1, as YubiKey clients set).
    public func setAccessCode(password: String) async throws {
        var key = try deriveKey(password: password)
        defer { for i in key.indices { key[i] = 0 } }
        try await setAccessKey(key)
    }

    /// SET CODE with a raw key: the key, and a challenge with its HMAC so the applet can check
    /// the key arrived intact.
    public func setAccessKey(_ key: [UInt8], algorithm: OATHAlgorithm = .sha1) async throws {
        guard !key.isEmpty else { throw OATHError.invalidArgument(field: "key", "an access key cannot be empty") }
        let challenge = Self.randomBytes(8)
        var keyObject = [OATHType.totp.rawValue | algorithm.rawValue] + key
        defer { for i in keyObject.indices { keyObject[i] = 0 } }
        let data =
            OATHTLV.encode(OATHTag.key, keyObject) + OATHTLV.encode(OATHTag.challenge, challenge)
            + OATHTLV.encode(OATHTag.response, algorithm.hmac(key: key, message: challenge))
        _ = try await command(.setCode, ins: 0x03, data: data)
    }

    /// SET CODE with an empty key object: removes the access code.
    public func clearAccessCode() async throws {
        _ = try await command(.setCode, ins: 0x03, data: OATHTLV.encode(OATHTag.key, []))
    }

    // MARK: Credentials

    /// PUT: adds a credential, or replaces the one of the same name.
    /// - Throws: ``OATHError`` `.invalidArgument` for a name over 64 bytes, an empty secret or
    ///   digits outside 6–8; `.status(.noSpace, …)` when the applet is full.
    @discardableResult
    public func put(_ credential: OATHCredentialData) async throws -> OATHCredential {
        let id = credential.name.encoded(type: credential.type)
        guard !id.isEmpty, id.count <= OATHCredentialName.maximumLength else {
            throw OATHError.invalidArgument(field: "name", "a name has 1–\(OATHCredentialName.maximumLength) bytes, not \(id.count)")
        }
        guard (6...8).contains(credential.digits) else {
            throw OATHError.invalidArgument(field: "digits", "6, 7 or 8, not \(credential.digits)")
        }
        guard !credential.secret.isEmpty else { throw OATHError.invalidArgument(field: "secret", "the secret is empty") }
        guard credential.type == .hotp || credential.name.period > 0 else {
            throw OATHError.invalidArgument(field: "period", "a TOTP period is at least 1 second")
        }
        var secret = credential.algorithm.shortened(credential.secret)
        if secret.count < Self.minimumSecretLength { secret += [UInt8](repeating: 0, count: Self.minimumSecretLength - secret.count) }
        var keyObject = [credential.type.rawValue | credential.algorithm.rawValue, UInt8(credential.digits)] + secret
        defer {
            for i in secret.indices { secret[i] = 0 }
            for i in keyObject.indices { keyObject[i] = 0 }
        }
        var data = OATHTLV.encode(OATHTag.name, id) + OATHTLV.encode(OATHTag.key, keyObject)
        if credential.touchRequired { data += [OATHTag.property, 0x02] }  // tag and value, no length
        if credential.type == .hotp && credential.counter > 0 {
            let c = credential.counter
            data += OATHTLV.encode(
                OATHTag.imf,
                [
                    UInt8(truncatingIfNeeded: c >> 24), UInt8(truncatingIfNeeded: c >> 16),
                    UInt8(truncatingIfNeeded: c >> 8), UInt8(truncatingIfNeeded: c),
                ])
        }
        defer { for i in data.indices { data[i] = 0 } }
        _ = try await command(.put, ins: 0x01, data: data)
        return OATHCredential(id: id, type: credential.type, algorithm: credential.algorithm, touchRequired: credential.touchRequired)
    }

    /// LIST: every credential with its type and algorithm.
    public func list() async throws -> [OATHCredential] {
        let answer = try await command(.list, ins: 0xA1)
        var credentials: [OATHCredential] = []
        for object in try OATHTLV.parse(answer, operation: .list) {
            guard object.tag == OATHTag.nameList else {
                throw OATHError.malformedResponse(.list, offset: object.offset, "expected tag 72, found \(OATHTLV.hex(object.tag))")
            }
            guard let first = object.value.first else {
                throw OATHError.malformedResponse(.list, offset: object.offset, "an empty name list entry")
            }
            guard let type = OATHType(rawValue: first & 0xF0) else {
                throw OATHError.malformedResponse(.list, offset: object.offset + 2, "unknown credential type \(OATHTLV.hex(first & 0xF0))")
            }
            guard let algorithm = OATHAlgorithm(rawValue: first & 0x0F) else {
                throw OATHError.malformedResponse(.list, offset: object.offset + 2, "unknown algorithm \(OATHTLV.hex(first & 0x0F))")
            }
            credentials.append(OATHCredential(id: Array(object.value.dropFirst()), type: type, algorithm: algorithm))
        }
        return credentials
    }

    /// CALCULATE of one credential's code: TOTP over the time step of `time` (Unix seconds)
    /// and the name's period; HOTP over the applet's counter (which it then increments).
    public func calculate(_ credential: OATHCredential, time: Int64) async throws -> OATHCode {
        let challenge: [UInt8]
        var validFrom: Int64?
        var validTo: Int64?
        switch credential.type {
        case .totp:
            let period = Int64(max(credential.name.period, 1))
            let step = Self.floorDivide(time, period)
            challenge = Self.timeChallenge(step)
            validFrom = step * period
            validTo = (step + 1) * period
        case .hotp:
            challenge = []
        }
        let data = OATHTLV.encode(OATHTag.name, credential.id) + OATHTLV.encode(OATHTag.challenge, challenge)
        let answer = try await command(.calculate, ins: 0xA2, p2: 0x01, data: data)
        let objects = try OATHTLV.parse(answer, operation: .calculate)
        let truncated = try objects.require(
            OATHTag.truncatedResponse, "truncated response", operation: .calculate, responseLength: answer.count)
        let code = try Self.code(from: truncated, operation: .calculate)
        return OATHCode(value: code, validFrom: validFrom, validTo: validTo)
    }

    /// CALCULATE without truncation: the full HMAC of `challenge` under a credential's secret.
    public func calculateResponse(credentialID: [UInt8], challenge: [UInt8]) async throws -> [UInt8] {
        let data = OATHTLV.encode(OATHTag.name, credentialID) + OATHTLV.encode(OATHTag.challenge, challenge)
        let answer = try await command(.calculate, ins: 0xA2, p2: 0x00, data: data)
        let objects = try OATHTLV.parse(answer, operation: .calculate)
        let response = try objects.require(OATHTag.response, "response", operation: .calculate, responseLength: answer.count)
        guard response.value.count >= 2 else {
            throw OATHError.malformedResponse(.calculate, offset: response.offset, "a response holds the digits and an HMAC")
        }
        return Array(response.value.dropFirst())
    }

    /// CALCULATE ALL: TOTP codes of every credential that needs no touch, over the 30-second
    /// step of `time`; codes of credentials with another period are calculated again with
    /// their own.
    public func calculateAll(time: Int64) async throws -> [OATHCalculation] {
        let challenge = Self.timeChallenge(Self.floorDivide(time, Int64(OATHCredentialName.defaultPeriod)))
        let answer = try await command(.calculateAll, ins: 0xA4, p2: 0x01, data: OATHTLV.encode(OATHTag.challenge, challenge))
        let objects = try OATHTLV.parse(answer, operation: .calculateAll)
        var rows: [OATHCalculation] = []
        var index = 0
        while index < objects.count {
            let nameObject = objects[index]
            guard nameObject.tag == OATHTag.name else {
                throw OATHError.malformedResponse(
                    .calculateAll, offset: nameObject.offset, "expected a name (tag 71), found \(OATHTLV.hex(nameObject.tag))")
            }
            guard index + 1 < objects.count else {
                throw OATHError.malformedResponse(.calculateAll, offset: answer.count, "name without a response")
            }
            let result = objects[index + 1]
            index += 2
            let type: OATHType = result.tag == OATHTag.hotp ? .hotp : .totp
            switch result.tag {
            case OATHTag.truncatedResponse:
                let credential = OATHCredential(id: nameObject.value, type: .totp, touchRequired: false)
                if credential.name.period == OATHCredentialName.defaultPeriod {
                    let value = try Self.code(from: result, operation: .calculateAll)
                    let step = Self.floorDivide(time, 30)
                    rows.append(
                        OATHCalculation(
                            credential: credential, code: OATHCode(value: value, validFrom: step * 30, validTo: (step + 1) * 30)))
                } else {
                    rows.append(OATHCalculation(credential: credential, code: try await calculate(credential, time: time)))
                }
            case OATHTag.hotp, OATHTag.touch:
                rows.append(
                    OATHCalculation(
                        credential: OATHCredential(id: nameObject.value, type: type, touchRequired: result.tag == OATHTag.touch), code: nil)
                )
            default:
                throw OATHError.malformedResponse(
                    .calculateAll, offset: result.offset, "unexpected tag \(OATHTLV.hex(result.tag)) after a name")
            }
        }
        return rows
    }

    /// DELETE a credential by its stored name.
    public func delete(_ credentialID: [UInt8]) async throws {
        _ = try await command(.delete, ins: 0x02, data: OATHTLV.encode(OATHTag.name, credentialID))
    }

    /// RENAME a credential; the period prefix of a TOTP name is kept as it was.
    @discardableResult
    public func rename(_ credential: OATHCredential, to name: OATHCredentialName) async throws -> OATHCredential {
        var newName = name
        newName.period = credential.name.period
        let newID = newName.encoded(type: credential.type)
        guard !newID.isEmpty, newID.count <= OATHCredentialName.maximumLength else {
            throw OATHError.invalidArgument(field: "name", "a name has 1–\(OATHCredentialName.maximumLength) bytes, not \(newID.count)")
        }
        _ = try await command(.rename, ins: 0x05, data: OATHTLV.encode(OATHTag.name, credential.id) + OATHTLV.encode(OATHTag.name, newID))
        var renamed = credential
        renamed.id = newID
        renamed.name = OATHCredentialName(parsing: newID, type: credential.type)
        return renamed
    }

    /// RESET (`P1 P2 = DE AD`): deletes every credential and the access code; selects again.
    public func reset() async throws {
        _ = try await command(.reset, ins: 0x04, p1: 0xDE, p2: 0xAD)
        try await reselect()
    }

    // MARK: Exchange

    /// Sends one command and collects its whole answer with SEND REMAINING.
    private func command(_ operation: OATHOperation, ins: UInt8, p1: UInt8 = 0, p2: UInt8 = 0, data: [UInt8] = []) async throws -> [UInt8] {
        try await Self.exchange(transmitter, operation, CommandAPDU(ins: ins, p1: p1, p2: p2, data: data), maximumParts)
    }

    private static func exchange(_ transmitter: any APDUTransmitter, _ operation: OATHOperation, _ apdu: CommandAPDU, _ maximumParts: Int)
        async throws -> [UInt8]
    {
        let options = APDUExchangeOptions(followGetResponse: false)
        var response = try await transmitter.send(apdu, options: options)
        var data = response.data
        var parts = 1
        while response.statusWord.sw1 == 0x61 {
            parts += 1
            guard parts <= maximumParts else {
                throw OATHError.malformedResponse(operation, offset: data.count, "more than \(maximumParts) parts")
            }
            response = try await transmitter.send(CommandAPDU(ins: 0xA5), options: options)
            data += response.data
        }
        guard response.statusWord == .success else {
            throw OATHError.status(OATHStatus(response.statusWord), response.statusWord, operation)
        }
        return data
    }

    private static func select(_ transmitter: any APDUTransmitter) async throws -> OATHSelection {
        let answer = try await exchange(transmitter, .select, CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00, data: aid), 16)
        return try parseSelection(answer)
    }

    /// Reads SELECT's data objects (version `79`, name `71`, challenge `74`, algorithm `7B`).
    static func parseSelection(_ answer: [UInt8]) throws(OATHError) -> OATHSelection {
        let objects = try OATHTLV.parse(answer, operation: .select)
        let version = try objects.require(OATHTag.version, "version", operation: .select, responseLength: answer.count)
        guard version.value.count == 3 else {
            throw .malformedResponse(.select, offset: version.offset, "a version has 3 bytes, not \(version.value.count)")
        }
        let salt = try objects.require(OATHTag.name, "name", operation: .select, responseLength: answer.count)
        var algorithm = OATHAlgorithm.sha1
        if let object = objects.first(where: { $0.tag == OATHTag.algorithm }) {
            guard object.value.count == 1, let value = OATHAlgorithm(rawValue: object.value[0] & 0x0F) else {
                throw .malformedResponse(.select, offset: object.offset, "unknown access key algorithm")
            }
            algorithm = value
        }
        return OATHSelection(
            version: OATHVersion(version.value[0], version.value[1], version.value[2]),
            salt: salt.value, challenge: objects.value(OATHTag.challenge), algorithm: algorithm
        )
    }

    /// A code from a truncated response object: digits, then four bytes.
    static func code(from object: OATHTLV, operation: OATHOperation) throws(OATHError) -> String {
        guard object.value.count == 5 else {
            throw .malformedResponse(operation, offset: object.offset, "a truncated response has 5 bytes, not \(object.value.count)")
        }
        let digits = Int(object.value[0])
        guard (1...10).contains(digits), let value = OATHTruncation.truncated(Array(object.value[1...])) else {
            throw .malformedResponse(operation, offset: object.offset + 2, "\(digits) digits")
        }
        return OATHTruncation.code(value, digits: digits)
    }

    /// The TOTP challenge: the time step as 8 bytes, big-endian (RFC 6238 §4.2).
    static func timeChallenge(_ step: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> (56 - 8 * UInt64($0))) }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
