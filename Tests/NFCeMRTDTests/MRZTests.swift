import NFCeMRTD
import Testing

@Suite struct MRZTests {
    /// ICAO Doc 9303 Part 3 §4.9, worked example: the check digit of 520727 is 3.
    @Test func checkDigitWorkedExample() {
        #expect(MRZCheckDigit.compute("520727") == "3")
    }
}
