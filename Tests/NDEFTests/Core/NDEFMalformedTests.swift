import NDEF
import NFCTestSupport
import Testing

/// Malformed messages: each violation of NDEF 1.0 §3.2 with the error code a strict decoder gives,
/// and what a lenient decoder makes of it.
@Suite struct NDEFMalformedTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let hex: String
        let strict: NDEFError.Code
        /// nil: lenient decoding fails with the same code; else the records it yields.
        let lenientRecordCount: Int?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "MB missing on the first record", hex: "51 01 01 55 00", strict: .missingMessageBegin, lenientRecordCount: 1),
        Case(name: "MB on the second record", hex: "91 01 01 55 00 d1 01 01 55 00", strict: .unexpectedMessageBegin, lenientRecordCount: 2),
        Case(name: "ME missing", hex: "91 01 01 55 00", strict: .truncated, lenientRecordCount: 1),
        Case(name: "bytes after ME", hex: "d1 01 01 55 00 00 00", strict: .trailingBytes, lenientRecordCount: 1),
        Case(name: "TNF 7", hex: "d7 00 01 aa", strict: .reservedTypeNameFormat, lenientRecordCount: 1),
        Case(name: "empty record with a payload", hex: "d0 00 01 aa", strict: .fieldNotAllowed, lenientRecordCount: nil),
        Case(name: "empty record with a type", hex: "d0 01 00 55", strict: .fieldNotAllowed, lenientRecordCount: nil),
        Case(name: "empty record with an ID", hex: "d8 00 00 01 41", strict: .fieldNotAllowed, lenientRecordCount: nil),
        Case(name: "unknown record with a type", hex: "d5 01 00 55", strict: .fieldNotAllowed, lenientRecordCount: 1),
        Case(name: "well-known record without a type", hex: "d1 00 01 00", strict: .missingType, lenientRecordCount: 1),
        Case(name: "payload length beyond the input", hex: "d1 01 ff 55 00", strict: .truncated, lenientRecordCount: nil),
        Case(name: "4-byte payload length 0xFFFFFFFF", hex: "c1 01 ff ff ff ff 55 00", strict: .truncated, lenientRecordCount: nil),
        Case(name: "type length beyond the input", hex: "d1 09 00 55", strict: .truncated, lenientRecordCount: nil),
        Case(name: "ID length beyond the input", hex: "d9 01 00 05 55 41", strict: .truncated, lenientRecordCount: nil),
        Case(name: "header cut inside the long payload length", hex: "c1 01 00 00", strict: .truncated, lenientRecordCount: nil),
        Case(name: "TNF 6 outside a chunk", hex: "d6 00 00", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "later chunk without TNF 6", hex: "b2 01 01 61 41 52 01 01 61 42", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "later chunk with a type", hex: "b2 01 01 61 41 56 01 01 61 42", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "later chunk with an ID", hex: "b2 01 01 61 41 5e 00 01 01 69 42", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "ME on the first chunk", hex: "f2 01 01 61 41", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "ME on a middle chunk", hex: "b2 01 01 61 41 76 00 01 42", strict: .invalidChunk, lenientRecordCount: nil),
        Case(name: "input ends inside a chunked record", hex: "b2 01 01 61 41 36 00 01 42", strict: .truncated, lenientRecordCount: nil),
        Case(name: "empty record chunked", hex: "b0 00 00 56 00 00", strict: .invalidChunk, lenientRecordCount: nil),
    ]

    @Test(arguments: cases)
    func strictDecodingRejects(_ c: Case) {
        let error = ndefError { try NDEFMessage(decoding: hexBytes(c.hex)) }
        #expect(error?.code == c.strict, "\(c.name): \(String(describing: error))")
        #expect(error?.recordIndex != nil, "\(c.name): the error names its record")
        #expect(error?.offset != nil, "\(c.name): the error names its offset")
    }

    @Test(arguments: cases)
    func lenientDecodingRepairsOnlyWhatIsSafe(_ c: Case) throws {
        if let count = c.lenientRecordCount {
            let message = try NDEFMessage(decoding: hexBytes(c.hex), options: .lenient)
            #expect(message.records.count == count, "\(c.name)")
        } else {
            let error = ndefError { try NDEFMessage(decoding: hexBytes(c.hex), options: .lenient) }
            #expect(error != nil, "\(c.name): lenient decoding must still fail")
        }
    }

    @Test func lenientRepairsAreTheDocumentedOnes() throws {
        // TNF 7 is read as unknown; a type on an unknown record is dropped.
        #expect(
            try NDEFMessage(decoding: hexBytes("d7 00 01 aa"), options: .lenient).records == [
                NDEFRecord(typeNameFormat: .unknown, payload: [0xAA])
            ])
        #expect(try NDEFMessage(decoding: hexBytes("d5 01 00 55"), options: .lenient).records == [NDEFRecord(typeNameFormat: .unknown)])
        #expect(try NDEFMessage(decoding: [], options: .lenient).records.isEmpty)
    }

    @Test func limitsStopHostileInput() throws {
        let tenRecords = hexBytes("91 01 00 55" + String(repeating: " 11 01 00 55", count: 8) + " 51 01 00 55")
        #expect(throws: Never.self) { try NDEFMessage(decoding: tenRecords) }
        let fewRecords = NDEFDecodingOptions(maxRecordCount: 9)
        #expect(ndefError { try NDEFMessage(decoding: tenRecords, options: fewRecords) }?.code == .limitExceeded)
        let small = NDEFDecodingOptions(maxMessageSize: 39)
        #expect(ndefError { try NDEFMessage(decoding: tenRecords, options: small) }?.code == .limitExceeded)
        // Chunks count towards the record limit too.
        let chunks = hexBytes("b2 01 01 61 41" + String(repeating: " 36 00 01 42", count: 20) + " 56 00 01 43")
        #expect(ndefError { try NDEFMessage(decoding: chunks, options: NDEFDecodingOptions(maxRecordCount: 10)) }?.code == .limitExceeded)
        #expect(try NDEFMessage(decoding: chunks).records.first?.payload.count == 22)
    }

    @Test func everySingleByteInputIsAnErrorNotACrash() {
        for b in 0...255 {
            #expect(ndefError { try NDEFMessage(decoding: [UInt8(b)]) } != nil)
        }
    }
}
