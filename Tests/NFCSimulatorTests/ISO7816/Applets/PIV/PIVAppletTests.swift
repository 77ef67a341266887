import Crypto
import Foundation
import NFCSimulator
import NFCTestSupport
import Testing
import _CryptoExtras

/// The emulated PIV applet answering raw commands: security status, memory writes, the
/// administration key's two protocols, GET VERSION, and its image.
@Suite struct PIVAppletTests {
    static let defaultKey: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]

    func send(_ applet: inout PIVApplet, _ ins: UInt8, _ p1: UInt8 = 0, _ p2: UInt8 = 0, _ data: [UInt8] = []) -> SimResponseAPDU {
        applet.process(SimCommandAPDU(cla: 0x00, ins: ins, p1: p1, p2: p2, data: data, ne: 256))
    }

    func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] { [tag, UInt8(value.count)] + value }

    func aes(_ block: [UInt8], _ key: [UInt8], decrypt: Bool = false) throws -> [UInt8] {
        var out = block
        if decrypt {
            try AES.inversePermute(&out, key: SymmetricKey(data: key))
        } else {
            try AES.permute(&out, key: SymmetricKey(data: key))
        }
        return out
    }

    /// Mutual authentication (SP 800-73-4 Part 2 Appendix A.3) with raw commands.
    func authenticate(_ applet: inout PIVApplet, key: [UInt8] = PIVAppletTests.defaultKey, algorithm: UInt8 = 0x0A) throws
        -> SimResponseAPDU
    {
        let witness = send(&applet, 0x87, algorithm, 0x9B, tlv(0x7C, tlv(0x80, [])))
        guard witness.status == .success, witness.data.count == 20 else { return witness }
        let plain = try aes(Array(witness.data[4...]), key, decrypt: true)
        let challenge = [UInt8](repeating: 0x5A, count: 16)
        let answer = send(&applet, 0x87, algorithm, 0x9B, tlv(0x7C, tlv(0x80, plain) + tlv(0x81, challenge)))
        if answer.status == .success { #expect(Array(answer.data[4...]) == (try aes(challenge, key))) }
        return answer
    }

    func generate(_ applet: inout PIVApplet, slot: UInt8) throws -> P256.Signing.PublicKey {
        let response = send(&applet, 0x47, 0x00, slot, [0xAC, 0x03, 0x80, 0x01, 0x11])
        #expect(response.status == .success)
        #expect(response.writesMemory)
        #expect(Array(response.data.prefix(5)) == [0x7F, 0x49, 0x43, 0x86, 0x41])
        return try P256.Signing.PublicKey(x963Representation: response.data.dropFirst(5))
    }

    @Test func resetAndReselectClearTheSecurityStatus() throws {
        var applet = PIVApplet()
        _ = applet.select(command: SimCommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: [0xA0, 0, 0, 3, 8]))
        #expect(try authenticate(&applet).status == .success)
        #expect(send(&applet, 0x20, 0, 0x80, Array("123456".utf8) + [0xFF, 0xFF]).status == .success)
        #expect(send(&applet, 0x20, 0, 0x80).status == .success)
        applet.reset()
        #expect(send(&applet, 0x20, 0, 0x80).status == SimStatusWord(0x63, 0xC3))
        #expect(send(&applet, 0x47, 0, 0x9A, [0xAC, 0x03, 0x80, 0x01, 0x11]).status == .securityStatusNotSatisfied)
        #expect(try authenticate(&applet).status == .success)
        _ = applet.select(command: SimCommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: [0xA0, 0, 0, 3, 8]))
        #expect(send(&applet, 0x47, 0, 0x9A, [0xAC, 0x03, 0x80, 0x01, 0x11]).status == .securityStatusNotSatisfied)
        // VERIFY with P1 FF forgets the PIN.
        #expect(send(&applet, 0x20, 0, 0x80, Array("123456".utf8) + [0xFF, 0xFF]).status == .success)
        #expect(send(&applet, 0x20, 0xFF, 0x80).status == .success)
        #expect(send(&applet, 0x20, 0, 0x80).status == SimStatusWord(0x63, 0xC3))
    }

    @Test func memoryWritesAreMarked() throws {
        var applet = PIVApplet()
        #expect(!send(&applet, 0xCB, 0x3F, 0xFF, [0x5C, 0x03, 0x5F, 0xC1, 0x02]).writesMemory)
        let wrong = send(&applet, 0x20, 0, 0x80, Array("999999".utf8) + [0xFF, 0xFF])
        #expect(wrong.status == SimStatusWord(0x63, 0xC2) && wrong.writesMemory)
        #expect(try authenticate(&applet).status == .success)
        let put = send(&applet, 0xDB, 0x3F, 0xFF, [0x5C, 0x03, 0x5F, 0xC1, 0x05, 0x53, 0x03, 0x70, 0x01, 0x00])
        #expect(put.status == .success && put.writesMemory)
        _ = try generate(&applet, slot: 0x9E)
    }

    @Test func externalAuthenticationAndWrongAlgorithm() throws {
        var applet = PIVApplet()
        // The key is AES-192: asking with AES-128 is refused.
        #expect(send(&applet, 0x87, 0x08, 0x9B, tlv(0x7C, tlv(0x80, []))).status == .incorrectP1P2)
        let challenge = send(&applet, 0x87, 0x0A, 0x9B, tlv(0x7C, tlv(0x81, [])))
        #expect(challenge.status == .success && challenge.data.count == 20)
        let response = try aes(Array(challenge.data[4...]), Self.defaultKey)
        #expect(send(&applet, 0x87, 0x0A, 0x9B, tlv(0x7C, tlv(0x82, response))).status == .success)
        _ = try generate(&applet, slot: 0x9A)
        // A wrong answer fails and the challenge is spent.
        let second = send(&applet, 0x87, 0x0A, 0x9B, tlv(0x7C, tlv(0x81, [])))
        var bad = try aes(Array(second.data[4...]), Self.defaultKey)
        bad[0] ^= 1
        #expect(send(&applet, 0x87, 0x0A, 0x9B, tlv(0x7C, tlv(0x82, bad))).status == .securityStatusNotSatisfied)
        #expect(send(&applet, 0x87, 0x0A, 0x9B, tlv(0x7C, tlv(0x82, response))).status == .conditionsNotSatisfied)
    }

    @Test func getVersionAnswersTheProtocolLevelAndNoSerial() {
        var applet = PIVApplet()
        #expect(send(&applet, 0xFD).data == [4, 0, 0])
        #expect(send(&applet, 0xF8).status == .instructionNotSupported)
    }

    @Test func imageKeepsKeysObjectsAndCounters() throws {
        var applet = PIVApplet()
        #expect(try authenticate(&applet).status == .success)
        let publicKey = try generate(&applet, slot: 0x9E)
        _ = send(&applet, 0x20, 0, 0x80, Array("000000".utf8) + [0xFF, 0xFF])
        let json = try JSONEncoder().encode(ISO7816AppletImage.piv(applet.image))
        let decoded = try JSONDecoder().decode(ISO7816AppletImage.self, from: json)
        guard case .piv(let image) = decoded else {
            Issue.record("not a PIV image")
            return
        }
        #expect(image == applet.image)
        #expect(image.pinRetries == 2)
        var rebuilt = try #require(try decoded.makeApplet() as? PIVApplet)
        #expect(rebuilt.object(0x5FC102) == applet.object(0x5FC102))
        // The rebuilt key signs for the same public key (9E needs no PIN).
        let digest = Array(SHA256.hash(data: [1, 2, 3]))
        let signed = send(&rebuilt, 0x87, 0x11, 0x9E, tlv(0x7C, tlv(0x82, []) + tlv(0x81, digest)))
        #expect(signed.status == .success)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: signed.data.dropFirst(4))
        #expect(publicKey.isValidSignature(signature, for: SHA256.hash(data: [1, 2, 3])))
    }

    @Test func imagesWithAnotherAESKey() throws {
        var image = PIVApplet().image
        image.managementKeyAlgorithm = 0x0C
        image.managementKey = HexBytes([UInt8](repeating: 0x42, count: 32))
        var applet = try PIVApplet(image: image)
        #expect(try authenticate(&applet, key: image.managementKey.bytes, algorithm: 0x0C).status == .success)
        #expect(try authenticate(&applet, key: Self.defaultKey, algorithm: 0x0A).status == .incorrectP1P2)
    }

    @Test func imageRejectionsNameTheField() throws {
        func field(_ change: (inout PIVApplet.Image) -> Void) -> String? {
            var image = PIVApplet().image
            change(&image)
            do {
                _ = try PIVApplet(image: image)
                return nil
            } catch {
                return error.field
            }
        }
        #expect(field { $0.managementKeyAlgorithm = 3 } == "managementKeyAlgorithm")
        #expect(field { $0.managementKey = HexBytes([1, 2, 3]) } == "managementKey")
        #expect(field { $0.pin = HexBytes([]) } == "pin")
        #expect(field { $0.pinRetries = 9 } == "pinRetries")
        #expect(field { $0.objects.append(.init(tag: HexBytes([0x7E]), data: HexBytes([]))) } == "objects[2].tag")
        #expect(
            field {
                $0.keys = [.init(slot: HexBytes([0x9A]), algorithm: 17, privateKey: HexBytes([1]), pinPolicy: .once)]
            } == "keys[0].privateKey")
        #expect(
            field {
                $0.keys = [
                    .init(slot: HexBytes([0x82]), algorithm: 17, privateKey: HexBytes([UInt8](repeating: 1, count: 32)), pinPolicy: .once)
                ]
            } == "keys[0].slot")
    }
}

/// Random commands never trap the applet, and every answer has a status word of ISO/IEC 7816-4.
@Suite struct PIVAppletRandomCommandTests {
    @Test func randomCommands() {
        var generator = SeededGenerator(seed: 0x5049_5602)
        var applet = PIVApplet()
        let instructions: [UInt8] = [0xCB, 0xDB, 0x20, 0x24, 0x2C, 0x87, 0x47, 0xFD, 0x00]
        var statuses = Set<UInt8>()
        for _ in 0..<5_000 {
            let ins = instructions[Int.random(in: 0..<instructions.count, using: &generator)]
            let count = Int.random(in: 0...40, using: &generator)
            var data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half the time, a plausible outer template so the inner parsers are reached.
            if Bool.random(using: &generator), count > 2 {
                data[0] = [0x7C, 0xAC, 0x5C][Int.random(in: 0..<3, using: &generator)]
                data[1] = UInt8(count - 2)
            }
            let p2 = [0x80, 0x81, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0xFF][Int.random(in: 0..<8, using: &generator)] as UInt8
            let response = applet.process(
                SimCommandAPDU(
                    cla: 0, ins: ins, p1: [0x00, 0x0A, 0x11, 0x3F][Int.random(in: 0..<4, using: &generator)], p2: p2, data: data, ne: 256))
            statuses.insert(response.status.sw1)
            if Int.random(in: 0..<50, using: &generator) == 0 { applet.reset() }
        }
        #expect(statuses.isSubset(of: [0x90, 0x63, 0x67, 0x69, 0x6A, 0x6D, 0x6E, 0x6F]))
        #expect(statuses.contains(0x6A))
    }
}
