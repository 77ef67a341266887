import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// Malformed and random APDUs: every one gets a status word, none traps.
@Suite("Emulated reader: malformed and random APDUs")
struct EmulatedReaderFrontMalformedTests {
    typealias S = PCSCTestSupport

    /// Status words the reader itself gives (`6C XX` is checked apart).
    static let readerStatusWords: Set<[UInt8]> = [
        [0x90, 0x00], [0x62, 0x82], [0x63, 0x00], [0x67, 0x00], [0x68, 0x00],
        [0x6A, 0x81], [0x6A, 0x82], [0x6B, 0x00], [0x6E, 0x00],
    ]

    static let storageKinds: [VirtualTagKind] = [.ntag216, .slix2, .iso15693_2k, .felicaLiteS]

    @Test("Short, empty and mis-length APDUs", arguments: storageKinds)
    func malformed(kind: VirtualTagKind) throws {
        var front = try S.front(kind)
        let cases: [(String, [UInt8])] = [
            ("", [0x67, 0x00]),
            ("FF", [0x67, 0x00]),
            ("FF CA", [0x67, 0x00]),
            ("FF CA 00", [0x67, 0x00]),
            ("FF CA 00 00", [0x67, 0x00]),
            ("00", [0x67, 0x00]),
            ("00 B0 00", [0x67, 0x00]),
            ("FF CA 00 00 02 01", [0x67, 0x00]),  // Lc 2, one byte
            ("FF CA 00 00 01 01", [0x67, 0x00]),  // data where none belongs
            ("FF B0 00 00 05 01", [0x67, 0x00]),  // Lc 5, one byte
            ("FF D6 00 04 08 01 02 03 04", [0x67, 0x00]),  // Lc 8, four bytes
            ("FF D6 00 04 00 00 04 01 02", [0x67, 0x00]),  // extended Lc 4, two bytes
            ("FF B0 00 00 00 FF", [0x67, 0x00]),  // extended Le cut short
            ("FF C2 00 00 00 00 00", [0x67, 0x00]),  // extended Lc 0
            ("FF 00 00 00 00", [0x68, 0x00]),
            ("FF CA 07 00 00", [0x6B, 0x00]),
            ("00 A4 04 00 00", [0x6E, 0x00]),
        ]
        for (hex, expected) in cases {
            #expect(front.send(hex) == expected, "\(kind): \(hex)")
        }
        // Huge Le values.
        for hex in ["FF B0 00 00 00 FF FF", "FF B0 00 00 00 00 00", "FF CA 00 00 00 FF FF", "FF B0 00 04 00 10 00", "FF B0 00 00 FF"] {
            let response = front.send(hex)
            #expect(response.count >= 2, "\(kind): \(hex)")
            #expect(Self.readerStatusWords.contains(S.sw(response)) || S.sw(response).first == 0x6C, "\(kind): \(hex) → \(S.sw(response))")
        }
        #expect(front.commandCount == cases.count + 5)
    }

    @Test("GET DATA with a huge Le gives the UID and 62 82")
    func hugeLe() throws {
        var front = try S.front(.slix2)
        #expect(front.send("FF CA 00 00 00 FF FF") == front.tag.identifier.reversed() + [0x62, 0x82])
        var ntag = try S.front(.ntag216)
        #expect(ntag.send("FF B0 00 04 00 FF FF") == [0x67, 0x00])
        #expect(ntag.send("FF B0 00 04 00 00 00") == Array(ntag.send("FF B0 00 04 10")))
    }

    /// Makes random APDUs: raw noise, class FF with the reader's instructions and random length
    /// fields, transparent exchanges with random objects, and corruptions of valid APDUs.
    static func randomAPDU(_ generator: inout SeededGenerator) -> [UInt8] {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let valid: [[UInt8]] = [
            hexBytes("FF CA 00 00 00"), hexBytes("FF CA 01 00 00"), hexBytes("FF B0 00 04 10"),
            hexBytes("FF B0 01 2C 00"), hexBytes("FF D6 00 05 04 01 02 03 04"), hexBytes("FF C2 00 00 02 81 00"),
            hexBytes("FF C2 00 01 04 95 02 30 04"), hexBytes("FF C2 00 00 04 83 00 84 00"),
            hexBytes("00 A4 04 00 07 D2 76 00 00 85 01 01 00"), hexBytes("00 B0 00 00 00"),
        ]
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
            return bytes(Int.random(in: 0...24, using: &generator))
        case 1:
            let ins = [0xCA, 0xB0, 0xD6, 0xC2, 0x00, 0xA4][Int.random(in: 0..<6, using: &generator)]
            return [0xFF, UInt8(ins)] + bytes(Int.random(in: 0...12, using: &generator))
        case 2:
            var apdu: [UInt8] = [0xFF, 0xB0] + bytes(2)
            apdu += Bool.random(using: &generator) ? bytes(1) : [0x00] + bytes(2)
            return apdu
        case 3:
            let body = bytes(Int.random(in: 0...40, using: &generator))
            let tags: [UInt8] = [0x95, 0x5F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x92, 0xFF]
            var data = body
            if !data.isEmpty { data[0] = tags[Int.random(in: 0..<tags.count, using: &generator)] }
            return [0xFF, 0xC2, 0x00, UInt8.random(in: 0...2, using: &generator), UInt8(truncatingIfNeeded: data.count)] + data
        default:
            var apdu = valid[Int.random(in: 0..<valid.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !apdu.isEmpty:
                    apdu[Int.random(in: 0..<apdu.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 1 where !apdu.isEmpty:
                    apdu.removeLast(Int.random(in: 1...apdu.count, using: &generator))
                default:
                    apdu += bytes(Int.random(in: 1...4, using: &generator))
                }
            }
            return apdu
        }
    }

    @Test("Thousands of random APDUs against every kind", arguments: VirtualTagKind.allCases)
    func randomized(kind: VirtualTagKind) throws {
        var generator = SeededGenerator(seed: 0x5043_5343 ^ UInt64(kind.rawValue.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var front = try S.front(kind)
        for round in 0..<3000 {
            if round % 500 == 499 {
                if Bool.random(using: &generator) { front.powerOff() }
                front.powerOn()
            }
            let apdu = Self.randomAPDU(&generator)
            let response = front.respond(to: apdu)
            #expect(response.count >= 2 && response.count <= 0xFFFF, "\(kind): \(apdu)")
            let handledByReader = apdu.count < 4 || apdu.first == 0xFF || !front.tag.speaksISODEP
            if handledByReader {
                let sw = S.sw(response)
                #expect(Self.readerStatusWords.contains(sw) || sw.first == 0x6C, "\(kind): \(apdu) → \(sw)")
            }
        }
        #expect(front.commandCount == 3000)
    }
}
