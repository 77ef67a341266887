import ISO7816
import NFCTestSupport
import Testing

@testable import NFCOATH

/// The client's pieces without a card: key derivation, Base32, names, truncation.
@Suite("OATH client: building blocks")
struct OATHClientBuildingBlockTests {
    /// The YubiKey OATH applet's data objects take BER lengths (ISO/IEC 7816-4 §5.2.2, X.690
    /// §8.1.3): one byte below 128, `81 xx` up to 255, `82 xx xx` above.
    @Test(
        "TLV lengths at the BER boundaries: 127, 128, 255, 256",
        arguments: [
            (127, [UInt8(0x7F)]), (128, [0x81, 0x80]), (255, [0x81, 0xFF]), (256, [0x82, 0x01, 0x00]),
        ])
    func tlvLengthBoundaries(count: Int, length: [UInt8]) throws {
        let value = [UInt8](repeating: 0x5A, count: count)
        let encoded = OATHTLV.encode(0x71, value)
        #expect(Array(encoded.prefix(1 + length.count)) == [0x71] + length)
        #expect(encoded.count == 1 + length.count + count)
        let parsed = try OATHTLV.parse(encoded, operation: .list)
        #expect(parsed.map(\.value) == [value])
    }

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var chars = Array(text.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) ?? 0)
            chars = chars.dropFirst(2)
        }
        return out
    }

    @Test("PBKDF2-HMAC-SHA1: RFC 6070 test vectors")
    func pbkdf2() throws {
        let password = Array("password".utf8)
        let salt = Array("salt".utf8)
        #expect(
            try PBKDF2.sha1(password: password, salt: salt, iterations: 1, length: 20)
                == Self.hex("0c60c80f961f0e71f3a9b524af6012062fe037a6"))
        #expect(
            try PBKDF2.sha1(password: password, salt: salt, iterations: 2, length: 20)
                == Self.hex("ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"))
        #expect(
            try PBKDF2.sha1(password: password, salt: salt, iterations: 4096, length: 20)
                == Self.hex("4b007901b765489abead49d926f721d065a429c1"))
        #expect(
            try PBKDF2.sha1(
                password: Array("passwordPASSWORDpassword".utf8), salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
                iterations: 4096, length: 25)
                == Self.hex("3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"))
    }

    @Test("the access key is PBKDF2(password, salt, 1000, 16)")
    func accessKey() throws {
        let key = try OATHSession.deriveKey(password: "password", salt: Array("salt".utf8))
        #expect(key.count == 16)
        #expect(try key == PBKDF2.sha1(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 1000, length: 16))
        #expect(try key != OATHSession.deriveKey(password: "password", salt: Array("salT".utf8)))
    }

    @Test("Base32: RFC 4648 §10 vectors, lower case, spaces, padding; bad input is typed")
    func base32() throws {
        let vectors = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(try Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(try Base32.decode("mzxw 6ytb oi======") == Array("foobar".utf8))
        #expect(throws: Base32.DecodingError.invalidCharacter(offset: 2)) { try Base32.decode("MZ1W") }
        #expect(throws: Base32.DecodingError.invalidLength(1)) { try Base32.decode("M") }
        #expect(throws: Base32.DecodingError.invalidCharacter(offset: 3)) { try Base32.decode("MY=A") }
    }

    @Test("names: period prefix and issuer are parsed and written back")
    func names() {
        let totp = OATHCredentialName(parsing: Array("60/Example:alice@example.com".utf8), type: .totp)
        #expect(totp == OATHCredentialName(issuer: "Example", account: "alice@example.com", period: 60))
        #expect(totp.encoded(type: .totp) == Array("60/Example:alice@example.com".utf8))
        // 30 s is not written; HOTP has no period prefix.
        #expect(OATHCredentialName(issuer: "I", account: "a").encoded(type: .totp) == Array("I:a".utf8))
        #expect(OATHCredentialName(issuer: nil, account: "a", period: 60).encoded(type: .hotp) == Array("a".utf8))
        #expect(OATHCredentialName(parsing: Array("60/x".utf8), type: .hotp) == OATHCredentialName(account: "60/x"))
        // A leading colon, a trailing colon and a slash with no digits are part of the account.
        #expect(OATHCredentialName(parsing: Array(":a".utf8), type: .totp) == OATHCredentialName(account: ":a"))
        #expect(OATHCredentialName(parsing: Array("a:".utf8), type: .totp) == OATHCredentialName(account: "a:"))
        #expect(OATHCredentialName(parsing: Array("ab/c".utf8), type: .totp) == OATHCredentialName(account: "ab/c"))
        #expect(OATHCredentialName(parsing: Array("a:b:c".utf8), type: .totp) == OATHCredentialName(issuer: "a", account: "b:c"))
        // Bytes that are not UTF-8 do not trap.
        #expect(OATHCredentialName(parsing: [0xFF, 0x3A, 0x61], type: .totp).account == "a")
    }

    @Test("RFC 4226 Appendix D through the client's own truncation")
    func hotpTruncation() {
        let secret = Array("12345678901234567890".utf8)
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in expected.enumerated() {
            let mac = OATHAlgorithm.sha1.hmac(key: secret, message: OATHSession.timeChallenge(Int64(counter)))
            let value = OATHTruncation.dynamicTruncate(mac)
            #expect(value.map { OATHTruncation.code($0, digits: 6) } == code)
        }
        #expect(OATHTruncation.dynamicTruncate([1, 2, 3]) == nil)
        #expect(OATHTruncation.truncated([0xFF, 0xFF, 0xFF, 0xFF]) == 0x7FFF_FFFF)
        #expect(OATHTruncation.code(7, digits: 8) == "00000007")
    }

    @Test("time steps floor toward minus infinity and are big-endian")
    func timeSteps() {
        #expect(OATHSession.floorDivide(59, 30) == 1)
        #expect(OATHSession.floorDivide(-1, 30) == -1)
        #expect(OATHSession.timeChallenge(0x0102) == [0, 0, 0, 0, 0, 0, 1, 2])
    }

    @Test("status words map to typed statuses")
    func statuses() {
        #expect(OATHStatus(StatusWord(rawValue: 0x6982)) == .authenticationRequired)
        #expect(OATHStatus(StatusWord(rawValue: 0x6984)) == .noSuchObject)
        #expect(OATHStatus(StatusWord(rawValue: 0x6A80)) == .wrongSyntax)
        #expect(OATHStatus(StatusWord(rawValue: 0x6A84)) == .noSpace)
        #expect(OATHStatus(StatusWord(rawValue: 0x6A82)) == .applicationNotFound)
        #expect(OATHStatus(StatusWord(rawValue: 0x6F00)) == .other(StatusWord(rawValue: 0x6F00)))
    }
}

/// The client against bytes a card might send: malformed answers are errors, never traps.
@Suite("OATH client: responses")
struct OATHClientResponseTests {
    func makeSession(_ responses: [[UInt8]]) async throws -> (OATHSession, ScriptedTransmitter) {
        let card = ScriptedTransmitter([ScriptedTransmitter.selectAnswer()] + responses, extended: false)
        return (try await OATHSession(transmitter: card), card)
    }

    func expectMalformed(_ operation: OATHOperation, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected a malformed \(operation) response")
        } catch let error as OATHError {
            guard error.code == .malformedResponse else {
                Issue.record("expected malformedResponse, got \(error)")
                return
            }
            #expect(error.operation == operation)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("SELECT: version, salt and challenge are read; the command is 00A4040007 + AID")
    func select() async throws {
        let card = ScriptedTransmitter([ScriptedTransmitter.selectAnswer(challenge: [9, 9, 9, 9, 9, 9, 9, 9])], extended: false)
        let session = try await OATHSession(transmitter: card)
        let selection = await session.selection
        #expect(selection.version == OATHVersion(5, 3, 1))
        #expect(selection.salt == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(selection.challenge == [9, 9, 9, 9, 9, 9, 9, 9])
        #expect(selection.algorithm == .sha1)
        #expect(card.commands == [[0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]])
    }

    @Test("SELECT answers that are malformed: no version, a short version, a cut-off TLV, a bad length form")
    func malformedSelect() async {
        let answers: [[UInt8]] = [
            [0x71, 0x01, 0x01, 0x90, 0x00],
            [0x79, 0x02, 0x05, 0x03, 0x71, 0x01, 0x01, 0x90, 0x00],
            [0x79, 0x03, 0x05, 0x90, 0x00],
            [0x79, 0x83, 0x00, 0x00, 0x03, 0x90, 0x00],
            [0x79, 0x81, 0x90, 0x00],
            [0x79, 0x90, 0x00],
            [0x79, 0x03, 0x05, 0x03, 0x01, 0x71, 0x01, 0x01, 0x7B, 0x01, 0x09, 0x90, 0x00],
        ]
        for answer in answers {
            await expectMalformed(.select) { _ = try await OATHSession(transmitter: ScriptedTransmitter([answer], extended: false)) }
        }
    }

    @Test("a card without the applet: applicationNotFound")
    func noApplet() async {
        await #expect(throws: OATHError.status(.applicationNotFound, StatusWord(rawValue: 0x6A82), .select)) {
            _ = try await OATHSession(transmitter: ScriptedTransmitter([[0x6A, 0x82]], extended: false))
        }
    }

    @Test("LIST: entries parsed; wrong tags, empty entries and unknown types are malformed")
    func list() async throws {
        let (session, _) = try await makeSession([[0x72, 0x04, 0x21, 0x61, 0x3A, 0x62, 0x72, 0x02, 0x13, 0x63, 0x90, 0x00]])
        let credentials = try await session.list()
        #expect(credentials.count == 2)
        #expect(
            credentials[0].type == .totp && credentials[0].algorithm == .sha1
                && credentials[0].name == OATHCredentialName(issuer: "a", account: "b"))
        #expect(credentials[1].type == .hotp && credentials[1].algorithm == .sha512 && credentials[1].id == [0x63])
        for bad: [UInt8] in [[0x71, 0x01, 0x21], [0x72, 0x00], [0x72, 0x02, 0x31, 0x61], [0x72, 0x02, 0x24, 0x61], [0x72, 0x05, 0x21]] {
            let (s, _) = try await makeSession([bad + [0x90, 0x00]])
            await expectMalformed(.list) { _ = try await s.list() }
        }
    }

    @Test("SEND REMAINING: 61xx parts are collected with 00A50000")
    func sendRemaining() async throws {
        let (session, card) = try await makeSession([
            [0x72, 0x03, 0x21, 0x61, 0x61, 0x61, 0x05],
            [0x72, 0x03, 0x21, 0x62, 0x62, 0x90, 0x00],
        ])
        let credentials = try await session.list()
        #expect(credentials.map(\.id) == [[0x61, 0x61], [0x62, 0x62]])
        #expect(card.commands.last == [0x00, 0xA5, 0x00, 0x00])
    }

    @Test("a card that never stops sending 61xx is cut off")
    func endlessParts() async throws {
        let (session, _) = try await makeSession(Array(repeating: [0x61, 0x01], count: 300))
        await expectMalformed(.list) { _ = try await session.list() }
    }

    @Test("CALCULATE: 76 becomes a code with its validity; bad lengths and missing tags are malformed")
    func calculate() async throws {
        // RFC 4226 Appendix D, counter 0: DT = 0x4C93CF18 = 1284755224 → 755224.
        let (session, card) = try await makeSession([[0x76, 0x05, 0x06, 0x4C, 0x93, 0xCF, 0x18, 0x90, 0x00]])
        let credential = OATHCredential(id: Array("t".utf8), type: .totp)
        let code = try await session.calculate(credential, time: 59)
        #expect(code == OATHCode(value: "755224", validFrom: 30, validTo: 60))
        #expect(card.commands.last == [0x00, 0xA2, 0x00, 0x01, 0x0D, 0x71, 0x01, 0x74, 0x74, 0x08, 0, 0, 0, 0, 0, 0, 0, 1])
        for bad: [UInt8] in [[0x76, 0x04, 0x06, 1, 2, 3], [0x75, 0x05, 0x06, 1, 2, 3, 4], [0x76, 0x05, 0x00, 1, 2, 3, 4], [0x76, 0x05]] {
            let (s, _) = try await makeSession([bad + [0x90, 0x00]])
            await expectMalformed(.calculate) { _ = try await s.calculate(credential, time: 0) }
        }
    }

    @Test("CALCULATE ALL: rows for 76, 77 and 7C; pairs that do not fit are malformed")
    func calculateAll() async throws {
        let (session, _) = try await makeSession([
            [
                0x71, 0x01, 0x61, 0x76, 0x05, 0x06, 0x4C, 0x93, 0xCF, 0x18,
                0x71, 0x01, 0x62, 0x77, 0x01, 0x06,
                0x71, 0x01, 0x63, 0x7C, 0x01, 0x08, 0x90, 0x00,
            ]
        ])
        let rows = try await session.calculateAll(time: 0)
        #expect(rows.map(\.code?.value) == ["755224", nil, nil])
        #expect(rows.map(\.credential.type) == [.totp, .hotp, .totp])
        #expect(rows.map(\.credential.touchRequired) == [false, false, true])
        for bad: [UInt8] in [[0x71, 0x01, 0x61], [0x76, 0x05, 0x06, 1, 2, 3, 4], [0x71, 0x01, 0x61, 0x79, 0x01, 0x00]] {
            let (s, _) = try await makeSession([bad + [0x90, 0x00]])
            await expectMalformed(.calculateAll) { _ = try await s.calculateAll(time: 0) }
        }
    }

    @Test("status words become typed errors naming the command")
    func statusErrors() async throws {
        let (session, _) = try await makeSession([[0x69, 0x82], [0x69, 0x84], [0x6A, 0x84]])
        await #expect(throws: OATHError.status(.authenticationRequired, StatusWord(rawValue: 0x6982), .list)) {
            _ = try await session.list()
        }
        await #expect(throws: OATHError.status(.noSuchObject, StatusWord(rawValue: 0x6984), .delete)) { try await session.delete([0x61]) }
        let data = OATHCredentialData(name: OATHCredentialName(account: "x"), secret: [1])
        await #expect(throws: OATHError.status(.noSpace, StatusWord(rawValue: 0x6A84), .put)) { try await session.put(data) }
    }

    @Test("PUT: arguments are checked before sending; the encoding pads the secret and adds 78 and 7A")
    func put() async throws {
        let (session, card) = try await makeSession([[0x90, 0x00]])
        await #expect(throws: OATHError.self) {
            try await session.put(OATHCredentialData(name: OATHCredentialName(account: String(repeating: "n", count: 65)), secret: [1]))
        }
        await #expect(throws: OATHError.self) {
            try await session.put(OATHCredentialData(name: OATHCredentialName(account: "n"), secret: [1], digits: 9))
        }
        await #expect(throws: OATHError.self) {
            try await session.put(OATHCredentialData(name: OATHCredentialName(account: "n"), secret: []))
        }
        #expect(card.commands.count == 1)
        try await session.put(
            OATHCredentialData(
                name: OATHCredentialName(account: "h"), type: .hotp, algorithm: .sha256, secret: [0xAA], digits: 8, counter: 5,
                touchRequired: true))
        let sent = try #require(card.commands.last)
        let expectedData: [UInt8] =
            [0x71, 0x01, 0x68, 0x73, 0x10, 0x12, 0x08, 0xAA] + [UInt8](repeating: 0, count: 13)
            + [0x78, 0x02, 0x7A, 0x04, 0x00, 0x00, 0x00, 0x05]
        #expect(sent == [0x00, 0x01, 0x00, 0x00, UInt8(expectedData.count)] + expectedData)
    }

    @Test("VALIDATE: without a challenge it is not sent; a card answer that does not verify is caught")
    func validate() async throws {
        let (plain, plainCard) = try await makeSession([])
        await #expect(throws: OATHError.self) { try await plain.validate(key: [1]) }
        #expect(plainCard.commands.count == 1)
        let card = ScriptedTransmitter(
            [
                ScriptedTransmitter.selectAnswer(challenge: [1, 2, 3, 4, 5, 6, 7, 8]),
                [0x75, 0x14] + [UInt8](repeating: 0, count: 20) + [0x90, 0x00],
            ], extended: false)
        let session = try await OATHSession(transmitter: card)
        await #expect(throws: OATHError.cardAuthenticationFailed) { try await session.validate(key: [1, 2, 3]) }
        // The command carried HMAC-SHA1(key, card challenge) then our 8-byte challenge.
        let sent = try #require(card.commands.last)
        #expect(Array(sent.prefix(5)) == [0x00, 0xA3, 0x00, 0x00, 32])
        #expect(Array(sent[5..<7]) == [0x75, 0x14])
        #expect(Array(sent[7..<27]) == OATHAlgorithm.sha1.hmac(key: [1, 2, 3], message: [1, 2, 3, 4, 5, 6, 7, 8]))
        #expect(Array(sent[27..<29]) == [0x74, 0x08])
    }
}
