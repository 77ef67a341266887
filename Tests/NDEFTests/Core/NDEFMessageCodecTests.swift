import NDEF
import NFCBytes
import NFCTestSupport
import Testing

@Suite struct NDEFMessageCodecTests {
    @Test(arguments: NDEFVectors.valid)
    func decodesVector(_ v: NDEFVectors.Vector) throws {
        let message = try NDEFMessage(decoding: v.bytes)
        #expect(message.records == v.records)
    }

    /// NFC Forum NDEF 1.0 §3.2.4 and §3.2.5: the SR flag marks a one-byte PAYLOAD_LENGTH, so a
    /// record is short exactly when its payload has at most 255 bytes; from 256 bytes on the
    /// length takes four bytes, big-endian.
    @Test(
        "the short-record boundary: 255 bytes with SR and a 1-byte length, 256 with a 4-byte one",
        arguments: [0, 1, 254, 255, 256, 257, 65_536])
    func shortRecordBoundary(size: Int) throws {
        let payload = [UInt8](repeating: 0xA5, count: size)
        let bytes = try NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: payload)]).encoded()
        let short = size <= 255
        // MB | ME | (SR) | TNF 2, TYPE_LENGTH 3, then the length field.
        #expect(bytes[0] == (short ? 0xD2 : 0xC2))
        #expect(bytes[1] == 3)
        let length: [UInt8] =
            short ? [UInt8(size)] : [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        #expect(Array(bytes[2..<(2 + length.count)]) == length)
        #expect(bytes.count == 2 + length.count + 3 + size)
        #expect(try NDEFMessage(decoding: bytes).records[0].payload == payload)
    }

    @Test(arguments: NDEFVectors.valid)
    func encodesVectorBackToTheSameBytes(_ v: NDEFVectors.Vector) throws {
        let message = NDEFMessage(records: v.records)
        #expect(try message.encoded(chunkSize: v.chunkSize) == v.bytes)
        if v.chunkSize == nil { #expect(message.encodedLength == v.bytes.count) }
        #expect(v.records.reduce(0) { $0 + $1.encodedLength(chunkSize: v.chunkSize) } == v.bytes.count)
    }

    @Test(arguments: NDEFVectors.valid)
    func rejectsEveryProperPrefixAsTruncated(_ v: NDEFVectors.Vector) {
        let bytes = v.bytes
        #expect(ndefError { try NDEFMessage(decoding: [UInt8]()) }?.code == .emptyMessage)
        for n in 1..<bytes.count {
            let error = ndefError { try NDEFMessage(decoding: Array(bytes.prefix(n))) }
            #expect(error?.code == .truncated, "prefix of \(n) bytes of \(v.name)")
            #expect(error?.offset != nil)
        }
    }

    @Test(arguments: NDEFVectors.valid)
    func lenientDecodingAgreesOnValidInput(_ v: NDEFVectors.Vector) throws {
        #expect(try NDEFMessage(decoding: v.bytes, options: .lenient).records == v.records)
    }

    @Test func decodesFromASliceReportingEnclosingOffsets() {
        let buffer: [UInt8] = [0xFF, 0xFF] + hexBytes("d1 01 08 55 01 6e 66")
        let error = ndefError { try NDEFMessage(decoding: buffer[2...]) }
        #expect(error?.code == .truncated)
        #expect(error?.offset == 5)  // where the fields that do not fit begin
        #expect(error?.recordIndex == 0)
    }

    @Test func chunkedEncodingHasTheRightFlagsAndReassembles() throws {
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let record = NDEFRecord(typeNameFormat: .media, type: "application/x-test", identifier: [0x31], payload: payload)
        let message = NDEFMessage(records: [NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [0x00, 0x61]), record])
        let bytes = try message.encoded(chunkSize: 300)
        #expect(bytes.count == record.encodedLength(chunkSize: 300) + 6)
        // Record 0 (6 bytes) has MB; the first chunk of record 1 has CF and IL, the last chunk ME and TNF 6.
        #expect(bytes[0] == 0x91)
        #expect(bytes[6] & 0x20 != 0 && bytes[6] & 0x08 != 0 && bytes[6] & 0x07 == 0x02 && bytes[6] & 0x10 == 0)
        #expect(try NDEFMessage(decoding: bytes).records == message.records)
        // Chunk sizes that divide the payload exactly, and a chunk size of 1.
        for size in [1, 250, 999, 1000, 1001] {
            #expect(try NDEFMessage(decoding: NDEFMessage(records: [record]).encoded(chunkSize: size)).records == [record])
        }
        #expect(ndefError { try NDEFMessage(records: [record]).encoded(chunkSize: 0) }?.code == .invalidValue)
    }

    @Test func encoderRejectsRecordsThatBreakTheTNFRules() {
        let cases: [(NDEFRecord, NDEFError.Code)] = [
            (NDEFRecord(typeNameFormat: .empty, payload: [1]), .fieldNotAllowed),
            (NDEFRecord(typeNameFormat: .empty, identifier: [1]), .fieldNotAllowed),
            (NDEFRecord(typeNameFormat: .unknown, type: "x"), .fieldNotAllowed),
            (NDEFRecord(typeNameFormat: .unchanged), .invalidChunk),
            (NDEFRecord(typeNameFormat: .reserved), .reservedTypeNameFormat),
            (NDEFRecord(typeNameFormat: .wellKnown), .missingType),
            (NDEFRecord(typeNameFormat: .media, type: [UInt8](repeating: 0x61, count: 256)), .fieldTooLong),
            (NDEFRecord(typeNameFormat: .media, type: "a/b", identifier: [UInt8](repeating: 0x61, count: 256)), .fieldTooLong),
        ]
        for (record, code) in cases {
            let error = ndefError { try NDEFMessage(records: [NDEFRecord(typeNameFormat: .unknown), record]).encoded() }
            #expect(error?.code == code, "\(record)")
            #expect(error?.recordIndex == 1)
        }
        #expect(ndefError { try NDEFMessage(records: []).encoded() }?.code == .emptyMessage)
    }

    @Test func generatedMessagesRoundTrip() throws {
        var rng = SeededGenerator(seed: 2026)
        let formats: [NDEFTypeNameFormat] = [.empty, .wellKnown, .media, .absoluteURI, .external, .unknown]
        for _ in 0..<500 {
            let count = Int.random(in: 1...6, using: &rng)
            var records: [NDEFRecord] = []
            for _ in 0..<count {
                let tnf = formats.randomElement(using: &rng) ?? .unknown
                if tnf == .empty {
                    records.append(.empty)
                    continue
                }
                let type: [UInt8] =
                    tnf == .unknown ? [] : (0..<Int.random(in: 1...20, using: &rng)).map { _ in UInt8.random(in: 0x21...0x7E, using: &rng) }
                let id: [UInt8] =
                    Bool.random(using: &rng)
                    ? (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) } : []
                let size = [0, 1, 255, 256, 700].randomElement(using: &rng) ?? 0
                let payload = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
                records.append(NDEFRecord(typeNameFormat: tnf, type: type, identifier: id, payload: payload))
            }
            let message = NDEFMessage(records: records)
            let chunk: Int? = Bool.random(using: &rng) ? Int.random(in: 1...300, using: &rng) : nil
            let bytes = try message.encoded(chunkSize: chunk)
            #expect(try NDEFMessage(decoding: bytes) == message)
        }
    }
}
