import Foundation
import NFCTestSupport
import Testing

@testable import OpenCoreNFC

/// One APDU vector: its bytes and the fields Core NFC reports for it.
struct APDUVector: CustomTestStringConvertible, Sendable {
    let name: String
    let hex: String
    let dataCount: Int?
    let expectedResponseLength: Int
    var testDescription: String { name }
}

@Suite struct TypesAPDUTests {
    static let vectors: [APDUVector] = [
        APDUVector(name: "case 1", hex: "00A40400", dataCount: nil, expectedResponseLength: -1),
        APDUVector(name: "case 2S", hex: "00B0000010", dataCount: nil, expectedResponseLength: 16),
        APDUVector(name: "case 2S Le 00", hex: "00B0000000", dataCount: nil, expectedResponseLength: 256),
        APDUVector(name: "case 3S", hex: "00A4040C023F00", dataCount: 2, expectedResponseLength: -1),
        APDUVector(name: "case 4S", hex: "00A4040007A000000247100100", dataCount: 7, expectedResponseLength: 256),
        APDUVector(name: "case 4S Le 1", hex: "8010000001AA01", dataCount: 1, expectedResponseLength: 1),
        APDUVector(name: "case 2E", hex: "00B00000000101", dataCount: nil, expectedResponseLength: 257),
        APDUVector(name: "case 2E Le 0000", hex: "00B00000000000", dataCount: nil, expectedResponseLength: 65_536),
        APDUVector(name: "case 3E", hex: "00D60000000003010203", dataCount: 3, expectedResponseLength: -1),
        APDUVector(name: "case 4E", hex: "002A9E9A000002CAFE0100", dataCount: 2, expectedResponseLength: 256),
        APDUVector(name: "case 4E Le 0304", hex: "00A4040000000201020304", dataCount: 2, expectedResponseLength: 0x0304),
        APDUVector(name: "case 4E Le 0000", hex: "002A9E9A000001AB0000", dataCount: 1, expectedResponseLength: 65_536),
    ]

    @Test(arguments: vectors) func parsesAndSendsTheSameBytes(_ vector: APDUVector) throws {
        let bytes = Data(hexBytes(vector.hex))
        let apdu = try #require(NFCISO7816APDU(data: bytes))
        #expect(apdu.instructionClass == bytes[0])
        #expect(apdu.instructionCode == bytes[1])
        #expect(apdu.p1Parameter == bytes[2])
        #expect(apdu.p2Parameter == bytes[3])
        #expect(apdu.data?.count == vector.dataCount)
        #expect(apdu.expectedResponseLength == vector.expectedResponseLength)
        #expect(apdu.encodedBytes == bytes)
    }

    @Test(arguments: vectors) func fieldsOfAParsedAPDUEncodeToAnEquivalentCommand(_ vector: APDUVector) throws {
        let parsed = try #require(NFCISO7816APDU(data: Data(hexBytes(vector.hex))))
        let rebuilt = NFCISO7816APDU(
            instructionClass: parsed.instructionClass, instructionCode: parsed.instructionCode,
            p1Parameter: parsed.p1Parameter, p2Parameter: parsed.p2Parameter, data: parsed.data ?? Data(),
            expectedResponseLength: parsed.expectedResponseLength)
        let bytes = try #require(rebuilt.encodedBytes)
        let reparsed = try #require(NFCISO7816APDU(data: bytes))
        #expect(reparsed.data == parsed.data)
        #expect(reparsed.expectedResponseLength == parsed.expectedResponseLength)
    }

    @Test func extendedDataIsParsed() throws {
        let body = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = Data([0x00, 0xD6, 0x00, 0x00, 0x00, 0x01, 0x2C] + body + [0x00, 0x00])
        let apdu = try #require(NFCISO7816APDU(data: bytes))
        #expect(apdu.data == Data(body))
        #expect(apdu.expectedResponseLength == 65_536)
        #expect(apdu.encodedBytes == bytes)
    }

    @Test(arguments: [
        "", "00", "00A404",  // shorter than the header
        "00A4040003AABB", "00A40400023F", "00A4040002AABBCCDD",  // Lc disagrees with the bytes present
        "00A404000000",  // extended marker without a full length
        "00A40400000002AA", "00A4040000000201020304FF",  // extended Lc disagrees
        "00A40400000000AA",  // extended Lc of zero with data
    ])
    func rejectsMalformedBytes(_ hex: String) {
        #expect(NFCISO7816APDU(data: Data(hexBytes(hex))) == nil)
    }

    @Test func encodesLeAsApplesDocumentationDescribes() throws {
        func encode(_ data: [UInt8], _ le: Int) -> String? {
            NFCISO7816APDU(
                instructionClass: 0x00, instructionCode: 0xB0, p1Parameter: 0x01, p2Parameter: 0x02, data: Data(data),
                expectedResponseLength: le
            ).encodedBytes.map { $0.map { String(format: "%02X", $0) }.joined() }
        }
        #expect(encode([], -1) == "00B00102")  // case 1
        #expect(encode([], 1) == "00B0010201")
        #expect(encode([], 255) == "00B00102FF")
        #expect(encode([], 256) == "00B0010200", "256 is the short Le 00")
        #expect(encode([], 257) == "00B00102000101", "over 256 needs case 2E")
        #expect(encode([], 65_536) == "00B00102000000", "65 536 is the extended Le 0000")
        #expect(encode([0xAA], -1) == "00B0010201AA")  // case 3S
        #expect(encode([0xAA], 256) == "00B0010201AA00")  // case 4S
        #expect(encode([0xAA], 257) == "00B00102000001AA0101", "case 4E when Le needs it")
        #expect(encode([0xAA], 65_536) == "00B00102000001AA0000")
        #expect(encode([], 0) == "00B00102", "a length below 1 sends no Le")
        #expect(encode([], 65_537) == nil)
    }

    @Test func switchesToExtendedLengthForLongData() throws {
        let short = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xD6, p1Parameter: 0, p2Parameter: 0, data: Data(count: 255),
            expectedResponseLength: -1)
        #expect(short.encodedBytes?.prefix(5) == Data([0, 0xD6, 0, 0, 0xFF]))
        #expect(short.encodedBytes?.count == 5 + 255)
        let long = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xD6, p1Parameter: 0, p2Parameter: 0, data: Data(count: 256),
            expectedResponseLength: 256)
        let bytes = try #require(long.encodedBytes)
        #expect(bytes.prefix(7) == Data([0, 0xD6, 0, 0, 0x00, 0x01, 0x00]))
        #expect(bytes.suffix(2) == Data([0x01, 0x00]), "Le 256 in extended form is 0100")
        #expect(bytes.count == 7 + 256 + 2)
        let maximum = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xD6, p1Parameter: 0, p2Parameter: 0, data: Data(count: 65_535),
            expectedResponseLength: -1)
        #expect(maximum.encodedBytes?.count == 7 + 65_535)
        let tooLong = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xD6, p1Parameter: 0, p2Parameter: 0, data: Data(count: 65_536),
            expectedResponseLength: -1)
        #expect(tooLong.encodedBytes == nil)
    }

    @Test func emptyDataReadsAsNil() {
        let apdu = NFCISO7816APDU(
            instructionClass: 0x90, instructionCode: 0x60, p1Parameter: 0, p2Parameter: 0, data: Data(),
            expectedResponseLength: 256)
        #expect(apdu.data == nil)
        #expect(apdu.expectedResponseLength == 256)
        #expect(NFCISO7816APDU(data: Data([0x90, 0x60, 0x00, 0x00]))?.data == nil)
    }

    @Test func copiesKeepFieldsAndBytes() throws {
        let parsed = try #require(NFCISO7816APDU(data: Data(hexBytes("00B00000000010"))))
        let copy = try #require(parsed.copy() as? NFCISO7816APDU)
        #expect(copy !== parsed)
        #expect(copy.encodedBytes == parsed.encodedBytes, "a parsed APDU keeps its extended form when copied")
        let made = NFCISO7816APDU(
            instructionClass: 0x80, instructionCode: 0xCA, p1Parameter: 0x9F, p2Parameter: 0x7F, data: Data([1]),
            expectedResponseLength: 5)
        let madeCopy = try #require(made.copy() as? NFCISO7816APDU)
        #expect(madeCopy.encodedBytes == made.encodedBytes)
        #expect(made.description == "NFCISO7816APDU(80CA9F7F010105)")
    }

    @Test func responseSplitsStatusBytes() throws {
        let response = try #require(NFCISO7816ResponseAPDU(responseBytes: Data([0xDE, 0xAD, 0x90, 0x00])))
        #expect(response.payload == Data([0xDE, 0xAD]))
        #expect(response.statusWord1 == 0x90 && response.statusWord2 == 0x00)
        let bare = try #require(NFCISO7816ResponseAPDU(responseBytes: Data([0x6A, 0x82])))
        #expect(bare.payload == Data())
        #expect(bare.statusWord1 == 0x6A && bare.statusWord2 == 0x82)
        #expect(NFCISO7816ResponseAPDU(responseBytes: Data([0x90])) == nil)
        #expect(NFCISO7816ResponseAPDU(responseBytes: Data()) == nil)
        let sliced = Data([0xFF, 0x01, 0x63, 0xC2]).dropFirst()
        let fromSlice = try #require(NFCISO7816ResponseAPDU(responseBytes: sliced))
        #expect(fromSlice.payload == Data([0x01]) && fromSlice.statusWord1 == 0x63 && fromSlice.statusWord2 == 0xC2)
        var made = NFCISO7816ResponseAPDU(statusWord1: 0x90, statusWord2: 0x00, payload: nil)
        made.payload = Data([1])
        #expect(made.payload == Data([1]))
    }
}
