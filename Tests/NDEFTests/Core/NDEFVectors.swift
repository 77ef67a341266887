import NDEF
import NFCTestSupport

/// Valid NDEF encodings with what they decode to: from the NFC Forum RTD examples and built by
/// hand from NDEF 1.0 §3.2 (each comment says how).
enum NDEFVectors {
    struct Vector: Sendable, CustomStringConvertible {
        let name: String
        let hex: String
        let records: [NDEFRecord]
        var chunkSize: Int? = nil
        var bytes: [UInt8] { hexBytes(hex) }
        var description: String { name }
    }

    static let valid: [Vector] = [
        // URI RTD 1.0 §3.3 example: "http://www.nfc.com", prefix 0x01.
        Vector(
            name: "uri-rtd-example", hex: "d1 01 08 55 01 6e 66 63 2e 63 6f 6d",
            records: [NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: hexBytes("01 6e 66 63 2e 63 6f 6d"))]),
        // Text RTD 1.0: "Hello, world!" in English, UTF-8.
        Vector(
            name: "text-en", hex: "d1 01 10 54 02 65 6e 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21",
            records: [
                NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes("02 65 6e") + Array("Hello, world!".utf8))
            ]),
        // The empty record: TNF 0, all lengths zero.
        Vector(name: "empty-record", hex: "d0 00 00", records: [.empty]),
        // Media type with an ID (IL set, ID_LENGTH 1).
        Vector(
            name: "mime-with-id", hex: "da 0a 02 01 74 65 78 74 2f 70 6c 61 69 6e 69 68 69",
            records: [
                NDEFRecord(
                    typeNameFormat: .media, type: "text/plain", identifier: [0x69], payload: Array("hi".utf8))
            ]),
        // Absolute URI TNF 3, unknown TNF 5, external TNF 4 in one message.
        Vector(
            name: "three-tnfs",
            hex: "93 14 00 68 74 74 70 3a 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d 2f 74"
                + " 15 00 02 ab cd"
                + " 54 0f 01 65 78 61 6d 70 6c 65 2e 63 6f 6d 3a 66 6f 6f 2a",
            records: [
                NDEFRecord(typeNameFormat: .absoluteURI, type: "http://example.com/t"),
                NDEFRecord(typeNameFormat: .unknown, payload: [0xAB, 0xCD]),
                NDEFRecord(typeNameFormat: .external, type: "example.com:foo", payload: [0x2A]),
            ]),
        // A long record (SR clear): 300-byte payload with a 4-byte PAYLOAD_LENGTH.
        Vector(
            name: "long-record",
            hex: "c2 18 00 00 01 2c" + " 61 70 70 6c 69 63 61 74 69 6f 6e 2f 6f 63 74 65 74 2d 73 74 72 65 61 6d"
                + String(repeating: " 5a", count: 300),
            records: [
                NDEFRecord(
                    typeNameFormat: .media, type: "application/octet-stream", payload: [UInt8](repeating: 0x5A, count: 300))
            ]),
        // Smart Poster RTD 1.0 §3-style: a URI "http://nfc-forum.org" and an English title in the
        // nested message (inner URI record 91 01 0e 55 03…, title 51 01 0c 54 02 65 6e…).
        Vector(
            name: "smart-poster",
            hex: "d1 02 22 53 70"
                + " 91 01 0e 55 03 6e 66 63 2d 66 6f 72 75 6d 2e 6f 72 67"
                + " 51 01 0c 54 02 65 6e 48 65 6c 6c 6f 20 4e 46 43",
            records: [
                NDEFRecord(
                    typeNameFormat: .wellKnown, type: "Sp",
                    payload: hexBytes(
                        "91 01 0e 55 03 6e 66 63 2d 66 6f 72 75 6d 2e 6f 72 67 51 01 0c 54 02 65 6e 48 65 6c 6c 6f 20 4e 46 43"))
            ]),
        // A chunked record (§2.3.3): text/plain "abcdef" in chunks of 2, 2 and 2 bytes.
        Vector(
            name: "chunked",
            hex: "b2 0a 02 74 65 78 74 2f 70 6c 61 69 6e 61 62"
                + " 36 00 02 63 64"
                + " 56 00 02 65 66",
            records: [NDEFRecord(typeNameFormat: .media, type: "text/plain", payload: Array("abcdef".utf8))],
            chunkSize: 2),
    ]
}
