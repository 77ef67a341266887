import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

/// The FIDO applet inside a `security-key` card, as python-fido2's PC/SC transport drives it:
/// short APDUs with Le 00, CLA 90 chaining, 61xx and GET RESPONSE.
@Suite("FIDO authenticator in the ISO 7816 host")
struct FIDOAuthenticatorHostTests {
    func send(_ card: inout ISO7816Card, _ bytes: [UInt8]) -> [UInt8] {
        card.respond(to: bytes, context: ExchangeContext()).transceivedBytes ?? []
    }

    func securityKey() throws -> ISO7816Card {
        try #require(try VirtualTagKind.securityKey.make() as? ISO7816Card)
    }

    @Test("SELECT answers U2F_V2; a long answer to Le 00 waits behind 61xx instead of being cut")
    func longAnswersBehind61xx() throws {
        var card = try securityKey()
        #expect(send(&card, [0x00, 0xA4, 0x04, 0x00, 0x08] + FIDOAuthenticator.fidoAID + [0x00]) == Array("U2F_V2".utf8) + [0x90, 0x00])
        // U2F REGISTER (short, Le 00): the answer is longer than 256 bytes.
        let first = send(&card, [0x00, 0x01, 0x03, 0x00, 0x40] + Array(repeating: 0x11, count: 64) + [0x00])
        #expect(first.count == 258)
        #expect(first[256] == 0x61)
        var answer = Array(first.prefix(256))
        var sw = Array(first.suffix(2))
        while sw[0] == 0x61 {
            let next = send(&card, [0x00, 0xC0, 0x00, 0x00, sw[1]])
            answer += next.dropLast(2)
            sw = Array(next.suffix(2))
        }
        #expect(sw == [0x90, 0x00])
        #expect(answer.first == 0x05)
        let certificate = Array(answer[(67 + Int(answer[66]))...])
        #expect(certificate.starts(with: [0x30, 0x82]))
        #expect(card.applet(FIDOAuthenticator.self)?.attestationCertificate.count ?? 0 > 200)
    }

    @Test("CLA 90 chains an NFCCTAP_MSG; each part but the last answers 9000")
    func chaining() throws {
        var card = try securityKey()
        _ = send(&card, [0x00, 0xA4, 0x04, 0x00, 0x08] + FIDOAuthenticator.fidoAID)
        // GetInfo split in two parts: [04] then nothing more (an empty second part).
        #expect(send(&card, [0x90, 0x10, 0x00, 0x00, 0x01, 0x04]) == [0x90, 0x00])
        let info = send(&card, [0x80, 0x10, 0x00, 0x00, 0x00])
        #expect(info.first == 0x00)
        #expect(info.suffix(2) == [0x90, 0x00])
        // Re-selecting drops a half-received chain.
        #expect(send(&card, [0x90, 0x10, 0x00, 0x00, 0x01, 0x06]) == [0x90, 0x00])
        _ = send(&card, [0x00, 0xA4, 0x04, 0x00, 0x08] + FIDOAuthenticator.fidoAID)
        #expect(send(&card, [0x80, 0x10, 0x00, 0x00, 0x01, 0x04]).first == 0x00)
        // A chain longer than maxMsgSize is refused with CTAP2_ERR_REQUEST_TOO_LARGE.
        let part: [UInt8] = [0x90, 0x10, 0x00, 0x00, 0xFA] + Array(repeating: 0, count: 250)
        for _ in 0..<8 { #expect(send(&card, part) == [0x90, 0x00]) }
        #expect(send(&card, part) == [0x39, 0x90, 0x00])
        #expect(send(&card, [0x80, 0x10, 0x00, 0x00, 0x01, 0x04]).first == 0x00)
    }

    @Test("state-changing commands are marked as writing memory; queries are not")
    func writesMemory() throws {
        var applet = FIDOAuthenticator()
        func process(_ bytes: [UInt8]) throws -> SimResponseAPDU {
            applet.process(try SimCommandAPDU(bytes: bytes))
        }
        // GetInfo, getKeyAgreement, getPINRetries, U2F VERSION: no write.
        #expect(try process([0x80, 0x10, 0x00, 0x00, 0x01, 0x04]).writesMemory == false)
        #expect(try process([0x80, 0x10, 0x00, 0x00, 0x05, 0x06, 0xA2, 0x01, 0x02, 0x02, 0x02]).writesMemory == false)
        #expect(try process([0x80, 0x10, 0x00, 0x00, 0x05, 0x06, 0xA2, 0x01, 0x02, 0x02, 0x01]).writesMemory == false)
        #expect(try process([0x00, 0x03, 0x00, 0x00]).writesMemory == false)
        // MakeCredential (counter, maybe a resident key): a write; GetAssertion (counter) too.
        let cdh = [UInt8](repeating: 0x42, count: 32)
        let make: [UInt8] =
            [0x01, 0xA4, 0x01, 0x58, 0x20] + cdh + [
                0x02, 0xA1, 0x62, 0x69, 0x64, 0x61, 0x61,
                0x03, 0xA1, 0x62, 0x69, 0x64, 0x41, 0x01,
                0x04, 0x81, 0xA2, 0x63, 0x61, 0x6C, 0x67, 0x26, 0x64, 0x74, 0x79, 0x70, 0x65,
                0x6A,
            ] + Array("public-key".utf8)
        let made = try process([0x80, 0x10, 0x00, 0x00, UInt8(make.count)] + make)
        #expect(made.data.first == 0x00)
        #expect(made.writesMemory)
        #expect(applet.signatureCounter == 1)
        // A refused command changes nothing and writes nothing.
        let refused = try process([0x80, 0x10, 0x00, 0x00, 0x02, 0x02, 0xA0])
        #expect(refused.data == [0x14] && refused.writesMemory == false)
    }

    @Test("the security-key image carries a fido applet and comes back the same")
    func imageRoundTrip() throws {
        let card = try securityKey()
        let image = card.image
        #expect(image.applets.map(\.kind).contains("fido"))
        let rebuilt = try ISO7816Card(image: image)
        #expect(rebuilt.image == image)
    }
}
