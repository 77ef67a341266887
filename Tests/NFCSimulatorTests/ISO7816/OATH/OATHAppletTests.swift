import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

/// The emulated YKOATH applet, driven with raw APDUs (YKOATH protocol; RFC 4226, RFC 6238).
@Suite("OATH applet")
struct OATHAppletTests {
    static let sha1Seed = Array("12345678901234567890".utf8)
    static let sha256Seed = Array("12345678901234567890123456789012".utf8)
    static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    // MARK: Helpers (the test's own TLV writing and code arithmetic)

    static func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        precondition(value.count < 0x80)
        return [tag, UInt8(value.count)] + value
    }

    static func apdu(_ ins: UInt8, p1: UInt8 = 0, p2: UInt8 = 0, _ data: [UInt8] = [], ne: Int? = nil) -> SimCommandAPDU {
        SimCommandAPDU(cla: 0x00, ins: ins, p1: p1, p2: p2, data: data, ne: ne)
    }

    static func put(_ name: String, type: UInt8, algorithm: UInt8, digits: UInt8, secret: [UInt8], extra: [UInt8] = []) -> SimCommandAPDU {
        apdu(0x01, tlv(0x71, Array(name.utf8)) + tlv(0x73, [type | algorithm, digits] + secret) + extra)
    }

    static func calculate(_ name: String, challenge: [UInt8], truncate: Bool = true) -> SimCommandAPDU {
        apdu(0xA2, p2: truncate ? 1 : 0, tlv(0x71, Array(name.utf8)) + tlv(0x74, challenge))
    }

    static func step(_ value: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: UInt64(value) >> (56 - 8 * UInt64($0))) }
    }

    /// Digits from a `76` response: the four bytes modulo 10^digits (RFC 4226 §5.3).
    static func code(_ response: SimResponseAPDU) -> String? {
        let d = response.data
        guard d.count == 7, d[0] == 0x76, d[1] == 5 else { return nil }
        let digits = Int(d[2])
        let value = (UInt64(d[3] & 0x7F) << 24 | UInt64(d[4]) << 16 | UInt64(d[5]) << 8 | UInt64(d[6]))
        var modulus: UInt64 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    static func selected(_ applet: OATHApplet = OATHApplet()) -> (OATHApplet, SimResponseAPDU) {
        var applet = applet
        let response = applet.select(command: SimCommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: OATHApplet.applicationIdentifier))
        return (applet, response)
    }

    // MARK: SELECT

    @Test("SELECT answers version 79, the 8-byte name 71, and no challenge without an access code")
    func selectWithoutCode() throws {
        let (applet, response) = Self.selected()
        #expect(response.status == .success)
        #expect(Array(response.data.prefix(5)) == [0x79, 0x03, 0x05, 0x03, 0x01])
        #expect(Array(response.data[5..<7]) == [0x71, 0x08])
        #expect(Array(response.data[7..<15]) == applet.salt)
        #expect(response.data.count == 15)
    }

    // MARK: RFC vectors

    @Test("HOTP: RFC 4226 Appendix D, counters 0–9, and the counter is stored and saved")
    func hotpVectors() throws {
        var (applet, _) = Self.selected()
        #expect(applet.process(Self.put("hotp", type: 0x10, algorithm: 0x01, digits: 6, secret: Self.sha1Seed)).status == .success)
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for value in expected {
            let response = applet.process(Self.calculate("hotp", challenge: []))
            #expect(response.writesMemory)
            #expect(Self.code(response) == value)
        }
        #expect(applet.credentials.first?.counter == 10)
        #expect(applet.image.credentials.first?.counter == 10)
    }

    @Test("HOTP: an initial moving factor (7A) starts the counter")
    func hotpInitialCounter() throws {
        var (applet, _) = Self.selected()
        let imf = Self.tlv(0x7A, [0, 0, 0, 7])
        #expect(applet.process(Self.put("h", type: 0x10, algorithm: 0x01, digits: 6, secret: Self.sha1Seed, extra: imf)).status == .success)
        #expect(Self.code(applet.process(Self.calculate("h", challenge: []))) == "162583")
    }

    @Test("TOTP: RFC 6238 Appendix B, SHA-1/256/512, 8 digits, time from the challenge")
    func totpVectors() throws {
        var (applet, _) = Self.selected()
        #expect(applet.process(Self.put("s1", type: 0x20, algorithm: 0x01, digits: 8, secret: Self.sha1Seed)).status == .success)
        #expect(applet.process(Self.put("s256", type: 0x20, algorithm: 0x02, digits: 8, secret: Self.sha256Seed)).status == .success)
        #expect(applet.process(Self.put("s512", type: 0x20, algorithm: 0x03, digits: 8, secret: Self.sha512Seed)).status == .success)
        let table: [(Int64, String, String, String)] = [
            (59, "94287082", "46119246", "90693936"),
            (1_111_111_109, "07081804", "68084774", "25091201"),
            (1_111_111_111, "14050471", "67062674", "99943326"),
            (1_234_567_890, "89005924", "91819424", "93441116"),
            (2_000_000_000, "69279037", "90698825", "38618901"),
            (20_000_000_000, "65353130", "77737706", "47863826"),
        ]
        for (time, sha1, sha256, sha512) in table {
            let challenge = Self.step(time / 30)
            let r1 = applet.process(Self.calculate("s1", challenge: challenge))
            #expect(!r1.writesMemory)
            #expect(Self.code(r1) == sha1, "SHA-1 at \(time)")
            #expect(Self.code(applet.process(Self.calculate("s256", challenge: challenge))) == sha256, "SHA-256 at \(time)")
            #expect(Self.code(applet.process(Self.calculate("s512", challenge: challenge))) == sha512, "SHA-512 at \(time)")
        }
    }

    @Test("CALCULATE with P2 00 answers 75: digits and the whole HMAC")
    func fullResponse() throws {
        var (applet, _) = Self.selected()
        _ = applet.process(Self.put("s1", type: 0x20, algorithm: 0x01, digits: 6, secret: Self.sha1Seed))
        let response = applet.process(Self.calculate("s1", challenge: Self.step(1), truncate: false))
        // RFC 4226 Appendix D: HMAC-SHA-1 of counter 1.
        #expect(response.data == [0x75, 21, 6] + (try [UInt8](hex: "75a48a19d4cbe100644e8ac1397eea747a2d33ab")))
    }

    // MARK: CALCULATE ALL, touch, SEND REMAINING

    @Test("CALCULATE ALL: 76 for TOTP, 77 for HOTP (counter untouched), 7C for touch")
    func calculateAll() throws {
        var (applet, _) = Self.selected()
        _ = applet.process(Self.put("t", type: 0x20, algorithm: 0x01, digits: 8, secret: Self.sha1Seed))
        _ = applet.process(Self.put("h", type: 0x10, algorithm: 0x01, digits: 6, secret: Self.sha1Seed))
        _ = applet.process(Self.put("k", type: 0x20, algorithm: 0x01, digits: 7, secret: Self.sha1Seed, extra: [0x78, 0x02]))
        #expect(applet.credentials.last?.touchRequired == true)
        let response = applet.process(Self.apdu(0xA4, p2: 1, Self.tlv(0x74, Self.step(59 / 30))))
        #expect(response.status == .success)
        let d = response.data
        #expect(Array(d[0..<3]) == [0x71, 1, 0x74])
        #expect(Self.code(SimResponseAPDU(data: Array(d[3..<10]))) == "94287082")
        #expect(Array(d[10...]) == [0x71, 1, 0x68, 0x77, 1, 6, 0x71, 1, 0x6B, 0x7C, 1, 7])
        #expect(applet.credentials[1].counter == 0)
        // Touch is treated as given: CALCULATE computes the touch credential.
        #expect(Self.code(applet.process(Self.calculate("k", challenge: Self.step(1)))) == "4287082")
    }

    @Test("a long LIST comes in parts behind 61xx, collected with SEND REMAINING (A5)")
    func sendRemaining() throws {
        var (applet, _) = Self.selected()
        var expected: [UInt8] = []
        for index in 0..<20 {
            let name = "issuer-\(index):account-number-\(index)"
            #expect(applet.process(Self.put(name, type: 0x20, algorithm: 0x02, digits: 6, secret: Self.sha1Seed)).status == .success)
            expected += [0x72, UInt8(name.utf8.count + 1), 0x22] + Array(name.utf8)
        }
        #expect(expected.count > 512)
        var response = applet.process(Self.apdu(0xA1))
        var collected = response.data
        var parts = 1
        while response.status.sw1 == 0x61 {
            #expect(response.data.count == 256)
            response = applet.process(Self.apdu(0xA5))
            collected += response.data
            parts += 1
        }
        #expect(response.status == .success)
        #expect(parts == 3)
        #expect(collected == expected)
        // Nothing left: another SEND REMAINING is refused.
        #expect(applet.process(Self.apdu(0xA5)).status == .conditionsNotSatisfied)
    }

    @Test("another command drops the rest of a long answer")
    func sendRemainingDropped() throws {
        var (applet, _) = Self.selected()
        for index in 0..<20 {
            _ = applet.process(Self.put("name-number-\(index)-long-enough", type: 0x20, algorithm: 0x01, digits: 6, secret: Self.sha1Seed))
        }
        #expect(applet.process(Self.apdu(0xA1)).status.sw1 == 0x61)
        #expect(applet.process(Self.calculate("name-number-0-long-enough", challenge: [1])).status == .success)
        #expect(applet.process(Self.apdu(0xA5)).status == .conditionsNotSatisfied)
    }

    // MARK: Access code

    /// HMAC-SHA-1 of RFC 2202 test case 2 ("Jefe", "what do ya want for nothing?").
    static let jefe = Array("Jefe".utf8)
    static let jefeMessage = Array("what do ya want for nothing?".utf8)
    static let jefeMAC: [UInt8] = [
        0xef, 0xfc, 0xdf, 0x6a, 0xe5, 0xeb, 0x2f, 0xa2, 0xd2, 0x74, 0x16, 0xd5, 0xf1, 0x84, 0xdf, 0x9c, 0x25, 0x9a, 0x7c, 0x79,
    ]

    @Test("SET CODE checks the response, then commands need VALIDATE after each SELECT")
    func accessCode() throws {
        var (applet, _) = Self.selected()
        _ = applet.process(Self.put("t", type: 0x20, algorithm: 0x01, digits: 6, secret: Self.sha1Seed))
        // A response that does not match the key: 6A80, nothing set.
        var bad = Self.jefeMAC
        bad[0] ^= 1
        let wrong = Self.tlv(0x73, [0x21] + Self.jefe) + Self.tlv(0x74, Self.jefeMessage) + Self.tlv(0x75, bad)
        #expect(applet.process(Self.apdu(0x03, wrong)).status == .incorrectData)
        #expect(applet.accessKey == nil)
        let set = Self.tlv(0x73, [0x21] + Self.jefe) + Self.tlv(0x74, Self.jefeMessage) + Self.tlv(0x75, Self.jefeMAC)
        let response = applet.process(Self.apdu(0x03, set))
        #expect(response.status == .success && response.writesMemory)
        #expect(applet.accessKey == OATHApplet.AccessKey(algorithm: .sha1, key: Self.jefe))

        // After SELECT: challenge 74 and algorithm 7B; LIST needs authentication.
        var (locked, selection) = Self.selected(applet)
        #expect(selection.data.count == 15 + 10 + 3)
        #expect(Array(selection.data[15..<17]) == [0x74, 0x08])
        #expect(Array(selection.data[25...]) == [0x7B, 0x01, 0x01])
        #expect(locked.process(Self.apdu(0xA1)).status == .securityStatusNotSatisfied)
        #expect(locked.process(Self.calculate("t", challenge: [1])).status == .securityStatusNotSatisfied)
        // A wrong VALIDATE: 6A80; the challenge is spent, so a second try needs SELECT (6985).
        let validateWrong = Self.tlv(0x75, [UInt8](repeating: 0, count: 20)) + Self.tlv(0x74, Self.jefeMessage)
        #expect(locked.process(Self.apdu(0xA3, validateWrong)).status == .incorrectData)
        #expect(locked.process(Self.apdu(0xA3, validateWrong)).status == .conditionsNotSatisfied)
        #expect(!locked.authenticated)
        // RESET needs no authentication and removes everything.
        let oldSalt = locked.salt
        let reset = locked.process(Self.apdu(0x04, p1: 0xDE, p2: 0xAD))
        #expect(reset.status == .success && reset.writesMemory)
        #expect(locked.accessKey == nil && locked.credentials.isEmpty && locked.salt != oldSalt)
        #expect(locked.process(Self.apdu(0x04, p1: 0x00, p2: 0x00)).status == .incorrectP1P2)
    }

    @Test("VALIDATE with no access code set answers 6984")
    func validateWithoutCode() throws {
        var (applet, _) = Self.selected()
        #expect(applet.process(Self.apdu(0xA3, Self.tlv(0x75, [1]) + Self.tlv(0x74, [2]))).status.rawValue == 0x6984)
    }

    // MARK: Credentials

    @Test("PUT validates its data; DELETE and RENAME find names; capacity gives 6A84")
    func credentials() throws {
        var (applet, _) = Self.selected(OATHApplet(capacity: 2))
        // Digits outside 6–8, unknown type or algorithm, a name over 64 bytes, truncated TLV.
        #expect(applet.process(Self.put("a", type: 0x20, algorithm: 0x01, digits: 5, secret: [1, 2])).status == .incorrectData)
        #expect(applet.process(Self.put("a", type: 0x30, algorithm: 0x01, digits: 6, secret: [1, 2])).status == .incorrectData)
        #expect(applet.process(Self.put("a", type: 0x20, algorithm: 0x04, digits: 6, secret: [1, 2])).status == .incorrectData)
        #expect(
            applet.process(Self.put(String(repeating: "n", count: 65), type: 0x20, algorithm: 0x01, digits: 6, secret: [1])).status
                == .incorrectData)
        #expect(applet.process(Self.apdu(0x01, [0x71, 0x05, 0x61])).status == .incorrectData)
        #expect(applet.credentials.isEmpty)

        #expect(applet.process(Self.put("a", type: 0x20, algorithm: 0x01, digits: 6, secret: [1])).status == .success)
        #expect(applet.process(Self.put("b", type: 0x20, algorithm: 0x01, digits: 6, secret: [2])).status == .success)
        #expect(applet.process(Self.put("c", type: 0x20, algorithm: 0x01, digits: 6, secret: [3])).status == .notEnoughMemory)
        // Same name replaces, even when full.
        #expect(applet.process(Self.put("b", type: 0x10, algorithm: 0x02, digits: 8, secret: [4])).status == .success)
        #expect(applet.credentials.count == 2 && applet.credentials[1].kind == .hotp && applet.credentials[1].secret == [4])

        #expect(applet.process(Self.apdu(0x05, Self.tlv(0x71, Array("a".utf8)) + Self.tlv(0x71, Array("b".utf8)))).status == .incorrectData)
        #expect(
            applet.process(Self.apdu(0x05, Self.tlv(0x71, Array("z".utf8)) + Self.tlv(0x71, Array("y".utf8)))).status.rawValue == 0x6984)
        let rename = applet.process(Self.apdu(0x05, Self.tlv(0x71, Array("a".utf8)) + Self.tlv(0x71, Array("Issuer:a".utf8))))
        #expect(rename.status == .success && rename.writesMemory)
        #expect(applet.credentials[0].name == Array("Issuer:a".utf8))

        #expect(applet.process(Self.apdu(0x02, Self.tlv(0x71, Array("a".utf8)))).status.rawValue == 0x6984)
        #expect(applet.process(Self.calculate("a", challenge: [1])).status.rawValue == 0x6984)
        let delete = applet.process(Self.apdu(0x02, Self.tlv(0x71, Array("Issuer:a".utf8))))
        #expect(delete.status == .success && delete.writesMemory)
        #expect(applet.credentials.map(\.name) == [Array("b".utf8)])
        #expect(!applet.process(Self.apdu(0xA1)).writesMemory)
        #expect(applet.process(Self.apdu(0xEE)).status == .instructionNotSupported)
    }

    // MARK: Image

    @Test("the image round-trips through JSON with secrets, counters and the access key")
    func imageRoundTrip() throws {
        var (applet, _) = Self.selected()
        _ = applet.process(
            Self.put(
                "h", type: 0x10, algorithm: 0x03, digits: 8, secret: Self.sha1Seed, extra: [0x78, 0x03] + Self.tlv(0x7A, [0, 0, 1, 0])))
        let set = Self.tlv(0x73, [0x21] + Self.jefe) + Self.tlv(0x74, Self.jefeMessage) + Self.tlv(0x75, Self.jefeMAC)
        _ = applet.process(Self.apdu(0x03, set))
        let data = try JSONEncoder().encode(ISO7816AppletImage.oath(applet.image))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"applet\":\"oath\""))
        #expect(text.contains(Hex.encode(Self.sha1Seed)))
        let decoded = try JSONDecoder().decode(ISO7816AppletImage.self, from: data)
        let rebuilt = try #require(try decoded.makeApplet() as? OATHApplet)
        #expect(rebuilt.credentials == applet.credentials)
        #expect(rebuilt.credentials.first?.counter == 256)
        #expect(rebuilt.credentials.first?.onlyIncreasing == true && rebuilt.credentials.first?.touchRequired == true)
        #expect(rebuilt.accessKey == applet.accessKey)
        #expect(rebuilt.salt == applet.salt)
    }

    @Test("a bad image names the field")
    func imageErrors() throws {
        var image = OATHApplet().image
        image.credentials = [
            .init(name: HexBytes(Array("x".utf8)), type: .totp, algorithm: .sha1, digits: 9, secret: [1], touch: false, counter: 0)
        ]
        #expect(throws: TagImageError.self) { try OATHApplet(image: image) }
        do {
            _ = try OATHApplet(image: image)
        } catch {
            #expect(error.field == "credentials[0].digits")
        }
        image.credentials[0].digits = 6
        image.version = [1, 2]
        do {
            _ = try OATHApplet(image: image)
            Issue.record("a 2-byte version was accepted")
        } catch {
            #expect(error.field == "version")
        }
    }

    @Test("a security-key card hosts the OATH applet and saves it in its image")
    func securityKeyCard() throws {
        let tag = try VirtualTagKind.securityKey.make()
        let card = try #require(tag as? ISO7816Card)
        #expect(card.applet(OATHApplet.self) != nil)
        #expect(card.image.applets.contains { $0.kind == "oath" })
    }
}
