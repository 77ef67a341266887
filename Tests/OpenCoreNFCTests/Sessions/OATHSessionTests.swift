import Foundation
import ISO7816
import NFCOATH
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// The OATH client against the emulated applet of a `security-key` card, through
/// `NFCTagReaderSession` and `tag.apduTransmitter`, as an app would.
extension SessionTests {
    @Suite struct OATHSessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Shows one-time passwords.", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: ["A0000005272101"]
        )
        static let sha1Seed = Array("12345678901234567890".utf8)
        static let sha256Seed = Array("12345678901234567890123456789012".utf8)
        static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

        /// Places `card` in a simulated field, connects a tag reader session to it and runs `body`
        /// with the session's ISO 7816 tag as a transmitter. Returns the card as the field left it.
        @discardableResult
        func withCard(_ card: ISO7816Card, _ body: (NFCISO7816TagTransmitter) async throws -> Void) async throws -> ISO7816Card {
            let bench = await SessionBench([card], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first,
                case .iso7816(let iso7816Tag) = tag
            else {
                Issue.record("expected an ISO 7816 tag")
                session.invalidate()
                return card
            }
            try await session.connect(to: tag)
            do {
                try await body(iso7816Tag.apduTransmitter)
            } catch {
                session.invalidate()
                throw error
            }
            session.invalidate()
            guard let id = await bench.field.tagIDs.first, let placed = await bench.field.tag(id, as: ISO7816Card.self) else {
                Issue.record("the card left the field")
                return card
            }
            return placed
        }

        static func securityKey() throws -> ISO7816Card {
            try #require(try VirtualTagKind.securityKey.make() as? ISO7816Card)
        }

        @Test func rfc4226AndRFC6238VectorsThroughTheSession() async throws {
            try await withCard(try Self.securityKey()) { transmitter in
                let oath = try await OATHSession(transmitter: transmitter)
                #expect(await oath.selection.version == OATHVersion(5, 3, 1))
                #expect(await oath.selection.hasAccessCode == false)
                let hotp = try await oath.put(
                    OATHCredentialData(name: OATHCredentialName(issuer: "RFC", account: "4226"), type: .hotp, secret: Self.sha1Seed))
                var codes: [String] = []
                for _ in 0..<10 { codes.append(try await oath.calculate(hotp, time: 0).value) }
                #expect(codes == ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"])

                let s1 = try await oath.put(OATHCredentialData(name: OATHCredentialName(account: "sha1"), secret: Self.sha1Seed, digits: 8))
                let s256 = try await oath.put(
                    OATHCredentialData(name: OATHCredentialName(account: "sha256"), algorithm: .sha256, secret: Self.sha256Seed, digits: 8))
                let s512 = try await oath.put(
                    OATHCredentialData(name: OATHCredentialName(account: "sha512"), algorithm: .sha512, secret: Self.sha512Seed, digits: 8))
                let table: [(Int64, String, String, String)] = [
                    (59, "94287082", "46119246", "90693936"),
                    (1_111_111_109, "07081804", "68084774", "25091201"),
                    (1_111_111_111, "14050471", "67062674", "99943326"),
                    (1_234_567_890, "89005924", "91819424", "93441116"),
                    (2_000_000_000, "69279037", "90698825", "38618901"),
                    (20_000_000_000, "65353130", "77737706", "47863826"),
                ]
                for (time, sha1, sha256, sha512) in table {
                    #expect(try await oath.calculate(s1, time: time).value == sha1)
                    #expect(try await oath.calculate(s256, time: time).value == sha256)
                    #expect(try await oath.calculate(s512, time: time).value == sha512)
                    // CALCULATE ALL gives the same TOTP codes.
                    let all = try await oath.calculateAll(time: time)
                    #expect(all.first { $0.credential.id == s1.id }?.code?.value == sha1)
                    #expect(all.first { $0.credential.id == s512.id }?.code?.value == sha512)
                    #expect(all.first { $0.credential.id == hotp.id }?.code == nil)
                }
                let window = try await oath.calculate(s1, time: 59)
                #expect(window.validFrom == 30 && window.validTo == 60)
            }
        }

        @Test func credentialManagementAndLongLists() async throws {
            let card = try await withCard(try Self.securityKey()) { transmitter in
                let oath = try await OATHSession(transmitter: transmitter)
                // Enough credentials that LIST and CALCULATE ALL need SEND REMAINING.
                for index in 0..<24 {
                    try await oath.put(
                        OATHCredentialData(
                            name: OATHCredentialName(issuer: "Issuer \(index)", account: "user\(index)@example.com"), secret: Self.sha1Seed)
                    )
                }
                let p60 = try await oath.put(
                    OATHCredentialData(
                        name: OATHCredentialName(issuer: "Slow", account: "p60", period: 60), secret: Self.sha1Seed, digits: 8))
                let listed = try await oath.list()
                #expect(listed.count == 25)
                #expect(listed.last?.name == OATHCredentialName(issuer: "Slow", account: "p60", period: 60))
                #expect(listed.last?.id == Array("60/Slow:p60".utf8))
                let all = try await oath.calculateAll(time: 59)
                #expect(all.count == 25)
                // A 60 s credential is calculated again with its own period: step 0 at t = 59.
                #expect(all.last?.code == OATHCode(value: "84755224", validFrom: 0, validTo: 60))
                #expect(all.first?.code?.value == "287082")

                let renamed = try await oath.rename(p60, to: OATHCredentialName(issuer: "Fast", account: "p60"))
                #expect(renamed.id == Array("60/Fast:p60".utf8))
                try await oath.delete(renamed.id)
                await #expect(throws: OATHError.status(.noSuchObject, StatusWord(rawValue: 0x6984), .delete)) {
                    try await oath.delete(renamed.id)
                }
                #expect(try await oath.list().count == 24)
                try await oath.put(
                    OATHCredentialData(name: OATHCredentialName(account: "touch"), secret: Self.sha1Seed, touchRequired: true))
                let touchRow = try await oath.calculateAll(time: 59).last
                #expect(touchRow?.credential.touchRequired == true && touchRow?.code == nil)
            }
            // The field's card kept the changes.
            #expect(card.applet(OATHApplet.self)?.credentials.count == 25)
        }

        @Test func accessCodeFlows() async throws {
            let card = try await withCard(try Self.securityKey()) { transmitter in
                let oath = try await OATHSession(transmitter: transmitter)
                let credential = try await oath.put(OATHCredentialData(name: OATHCredentialName(account: "a"), secret: Self.sha1Seed))
                try await oath.setAccessCode(password: "correct horse")
                // The session that set the code stays unlocked.
                #expect(try await oath.list().count == 1)
                // A new SELECT locks it: a challenge appears and commands need VALIDATE.
                let selection = try await oath.reselect()
                #expect(selection.hasAccessCode && selection.challenge?.count == 8)
                await #expect(throws: OATHError.status(.authenticationRequired, StatusWord(rawValue: 0x6982), .list)) {
                    _ = try await oath.list()
                }
                await #expect(throws: OATHError.status(.wrongSyntax, StatusWord(rawValue: 0x6A80), .validate)) {
                    try await oath.validate(password: "wrong")
                }
                // The spent challenge is renewed by selecting again before the next attempt.
                try await oath.validate(password: "correct horse")
                #expect(await oath.selection.hasAccessCode)
                #expect(try await oath.calculate(credential, time: 59).value == "287082")
                // Clear it: the next SELECT has no challenge.
                try await oath.clearAccessCode()
                #expect(try await oath.reselect().hasAccessCode == false)
                #expect(try await oath.list().count == 1)
                // Set again, then RESET (no authentication needed) removes code and credentials.
                try await oath.setAccessCode(password: "x")
                let oldSalt = await oath.selection.salt
                try await oath.reselect()
                try await oath.reset()
                let after = await oath.selection
                #expect(!after.hasAccessCode && after.salt != oldSalt)
                #expect(try await oath.list().isEmpty)
            }
            #expect(card.applet(OATHApplet.self)?.accessKey == nil)
        }

        @Test func keyDerivationMatchesTheApplet() async throws {
            // The applet stores the key SET CODE sent; it must be PBKDF2(password, salt, 1000, 16).
            let card = try await withCard(try Self.securityKey()) { transmitter in
                let oath = try await OATHSession(transmitter: transmitter)
                try await oath.setAccessCode(password: "pass")
            }
            let applet = try #require(card.applet(OATHApplet.self))
            #expect(try applet.accessKey?.key == OATHSession.deriveKey(password: "pass", salt: applet.salt))
            #expect(applet.accessKey?.key.count == 16)
        }
    }
}
