import NFCBytes
import NFCSimulator
import Testing

/// ISO/IEC 7816-4:2013 §5.1: the seven cases, Ne semantics and malformed lengths.
@Suite("ISO7816 command APDU parsing")
struct ISO7816CommandAPDUTests {
    struct Vector: Sendable, CustomStringConvertible {
        let hex: String
        let caseName: String
        let dataCount: Int
        let ne: Int?
        var description: String { hex }
    }

    static let valid: [Vector] = [
        Vector(hex: "00A40000", caseName: "1", dataCount: 0, ne: nil),
        Vector(hex: "00B0000010", caseName: "2S", dataCount: 0, ne: 16),
        Vector(hex: "00B0000000", caseName: "2S", dataCount: 0, ne: 256),
        Vector(hex: "00A4000C02E103", caseName: "3S", dataCount: 2, ne: nil),
        Vector(hex: "00A4040007D276000085010100", caseName: "4S", dataCount: 7, ne: 256),
        Vector(hex: "00A4040007D27600008501010F", caseName: "4S", dataCount: 7, ne: 15),
        Vector(hex: "00B00000002000", caseName: "2E", dataCount: 0, ne: 8192),
        Vector(hex: "00B00000000000", caseName: "2E", dataCount: 0, ne: 65_536),
        Vector(hex: "00D60000000003010203", caseName: "3E", dataCount: 3, ne: nil),
        Vector(hex: "00D600000000030102030100", caseName: "4E", dataCount: 3, ne: 256),
        Vector(hex: "00D600000000030102030000", caseName: "4E", dataCount: 3, ne: 65_536),
    ]

    @Test("valid APDUs parse into their case, Nc and Ne and encode back", arguments: valid)
    func parsesAndRoundTrips(_ vector: Vector) throws {
        let bytes = try [UInt8](hex: vector.hex)
        let apdu = try SimCommandAPDU(bytes: bytes)
        #expect(apdu.caseName == vector.caseName)
        #expect(apdu.data.count == vector.dataCount)
        #expect(apdu.ne == vector.ne)
        #expect(apdu.bytes == bytes)
    }

    @Test("an Le of 00 or 0000 asks for the maximum")
    func maximumLe() throws {
        #expect(try SimCommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00]).asksForMaximum)
        #expect(try SimCommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x00]).asksForMaximum)
        #expect(try !SimCommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00, 0x01, 0x00]).asksForMaximum)
        #expect(try !SimCommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0xFF]).asksForMaximum)
    }

    static let malformed: [String] = [
        "", "00", "00A4", "00A404",  // shorter than the header
        "00A4040007D2760000",  // Lc 7, 4 data bytes
        "00A4040002E1030000",  // Lc 2, two bytes beyond Le
        "00B000000000",  // 00 then one byte: neither short nor extended
        "00D6000000000001",  // extended Lc 0000 with data
        "00D60000000003010203FF",  // extended Lc 3, one stray byte
        "00D600000000050102",  // extended Lc 5, 2 bytes
    ]

    @Test("bytes matching no case are rejected", arguments: malformed)
    func rejectsMalformed(_ hex: String) throws {
        let bytes = try [UInt8](hex: hex)
        #expect(throws: SimAPDUError.self) { try SimCommandAPDU(bytes: bytes) }
    }

    @Test("fewer than four bytes are tooShort, the rest lengthMismatch")
    func errorKinds() {
        #expect(throws: SimAPDUError.tooShort(3)) { try SimCommandAPDU(bytes: [0x00, 0xA4, 0x04]) }
        #expect(throws: SimAPDUError.lengthMismatch(6)) { try SimCommandAPDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x00, 0x00]) }
    }

    @Test("the memberwise initializer picks the extended form when lengths need it")
    func buildsExtended() throws {
        let big = SimCommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0xAB, count: 300))
        #expect(big.isExtended)
        #expect(big.bytes.count == 4 + 3 + 300)
        #expect(try SimCommandAPDU(bytes: big.bytes) == big)
        let short = SimCommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, ne: 256)
        #expect(!short.isExtended)
        #expect(short.bytes == [0x00, 0xB0, 0x00, 0x00, 0x00])
    }

    @Test("status words and responses encode SW1 SW2 last")
    func responses() {
        #expect(SimResponseAPDU(data: [1, 2], status: .success).bytes == [1, 2, 0x90, 0x00])
        #expect(SimStatusWord.bytesRemaining(300).bytes == [0x61, 0x00])
        #expect(SimStatusWord.bytesRemaining(17).bytes == [0x61, 0x11])
        #expect(SimStatusWord.wrongLe(exact: 4).description == "6C04")
        #expect(SimStatusWord.fileNotFound.description == "6A82")
    }
}
