import NFCeMRTD
import Testing

/// MRZ parsing and check digits (ICAO Doc 9303 Part 3 §4.9; the specimens of Parts 4 and 5).
@Suite struct MRZTests {
    /// Part 3 §4.9's worked example: the check digit of 520727 is 3.
    @Test func checkDigitWorkedExample() {
        #expect(MRZCheckDigit.compute("520727") == "3")
        #expect(MRZCheckDigit.compute("L898902C<") == "3")
        #expect(MRZCheckDigit.compute("ab") == nil)
    }

    @Test("the TD3 specimen of Part 4: every field, check digits verified")
    func td3Specimen() throws {
        let zone = try MachineReadableZone(
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10")
        #expect(zone.format == .td3)
        #expect(zone.documentCode == "P" && zone.issuingState == "UTO")
        #expect(zone.primaryIdentifier == "ERIKSSON" && zone.secondaryIdentifier == "ANNA MARIA")
        #expect(zone.documentNumber == "L898902C3" && zone.nationality == "UTO")
        #expect(zone.dateOfBirth == "740812" && zone.sex == "F" && zone.dateOfExpiry == "120415")
        #expect(zone.optionalData == "ZE184226B")
        #expect(try zone.key.information == "L898902C3674081221204159")
    }

    @Test("the TD1 specimen of Part 5")
    func td1Specimen() throws {
        let zone = try MachineReadableZone(
            "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<")
        #expect(zone.format == .td1)
        #expect(zone.documentNumber == "D23145890")
        #expect(zone.primaryIdentifier == "ERIKSSON" && zone.secondaryIdentifier == "ANNA MARIA")
        #expect(zone.dateOfBirth == "740812" && zone.dateOfExpiry == "120415" && zone.nationality == "UTO")
    }

    @Test(
        "a wrong check digit, a wrong length, a character the MRZ does not use",
        arguments: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C37UTO7408122F1204159ZE184226B<<<<<10",
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<11",
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<1",
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nl898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ])
    func invalid(_ text: String) {
        let error = #expect(throws: EMRTDError.self) { try MachineReadableZone(text) }
        #expect(error?.code == .invalidMRZ)
    }

    /// A letter O typed for a zero in a date: its check digit can still hold (O is 24 ≡ 4), so
    /// the date check must refuse it, not a trap later when the key is made.
    @Test("a date holding a letter is refused, whatever its check digit says")
    func letterInDate() {
        // 74O812: 7·7 + 4·3 + 24·1 + 8·7 + 1·3 + 2·1 = 146, check digit 6.
        let text = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO74O8126F1204159ZE184226B<<<<<16"
        let error = #expect(throws: EMRTDError.self) { try MRZKey(mrz: text) }
        #expect(error?.code == .invalidMRZ)
    }

    @Test("--mrz's comma-separated form, padding and case")
    func commaSeparated() throws {
        let key = try MRZKey(commaSeparated: "l898902c, 740812 ,120415")
        #expect(key.documentNumber == "L898902C<")
        #expect(key.information == "L898902C<374081221204159")
        #expect(throws: EMRTDError.self) { try MRZKey(commaSeparated: "L898902C3,740812") }
        #expect(throws: EMRTDError.self) { try MRZKey(commaSeparated: "L898902C3,7408,120415") }
        #expect(throws: EMRTDError.self) { try MRZKey(commaSeparated: "L89-902C3,740812,120415") }
    }
}
