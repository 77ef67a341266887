import NFCBytes
import Testing

@Suite struct HexTests {
    @Test func encodes() {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(Hex.encode([0x00, 0xAB, 0xFF], uppercase: true, separator: " ") == "00 AB FF")
        #expect(Hex.encode([UInt8]()) == "")
        #expect([UInt8]([0xD1, 0x01]).hexString == "d101")
    }

    @Test(arguments: ["D101", "d1 01", "d1:01", "0xD101", "D1-01", " d1\n01\t"])
    func decodesWithSeparators(_ text: String) throws {
        #expect(try Hex.decode(text) == [0xD1, 0x01])
    }

    @Test func rejectsBadDigitsWithTheirOffset() {
        #expect(throws: HexError.invalidCharacter("g", at: 2)) { try Hex.decode("d1g1") }
        #expect(throws: HexError.invalidCharacter("é", at: 1)) { try Hex.decode("dé") }
        #expect(throws: HexError.oddDigitCount(3)) { try Hex.decode("d10") }
    }

    /// The error is a struct with a stable code (the one error shape): callers branch on the
    /// code and read the details as properties.
    @Test func errorsCarryACodeAndTheirDetails() {
        do {
            _ = try Hex.decode("d1g1")
            Issue.record("decoded a non-hex character")
        } catch {
            #expect(error.code == .invalidCharacter)
            #expect(error.code.name == "invalidCharacter")
            #expect(error.character == "g")
            #expect(error.offset == 2)
            #expect(error != HexError.invalidCharacter("g", at: 3))
        }
    }

    @Test func roundTripsEveryByte() throws {
        let all = (0...255).map(UInt8.init)
        #expect(try Hex.decode(Hex.encode(all)) == all)
        #expect(try [UInt8](hex: Hex.encode(all, uppercase: true)) == all)
    }
}
