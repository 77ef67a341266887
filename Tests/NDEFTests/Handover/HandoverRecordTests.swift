import NDEF
import NFCBytes
import Testing

/// A valid handover-related record: its type and payload (hex).
struct HandoverVector: CustomStringConvertible, Sendable {
    let type: String
    let payload: String
    let note: String
    var description: String { "\(type) \(note)" }
    var record: NDEFRecord { wellKnown(type, bytes(payload)) }
}

/// Re-encodes a record through its typed view.
func reencode(_ record: NDEFRecord, options: NDEFDecodingOptions = .strict) throws(NDEFError) -> NDEFRecord {
    switch record.typeString {
    case "Hs": return try HandoverSelectRecord(record, options: options).record()
    case "Hr": return try HandoverRequestRecord(record, options: options).record()
    case "Hm": return try HandoverMediationRecord(record, options: options).record()
    case "Hi": return try HandoverInitiateRecord(record, options: options).record()
    case "Hc": return try HandoverCarrierRecord(record, options: options).record()
    case "ac": return try AlternativeCarrierRecord(record, options: options).record()
    case "cr": return try CollisionResolutionRecord(record, options: options).record()
    case "err": return try HandoverErrorRecord(record, options: options).record()
    default: throw NDEFError(.unexpectedRecordType, "test: no view for \(record.typeString)")
    }
}

// Vectors: ndeflib 0.3.3 encodings (facts) and hand-built ones from Connection Handover 1.4.
let handoverVectors: [HandoverVector] = [
    .init(type: "ac", payload: "01013000", note: "active, ref '0', no aux"),
    .init(type: "ac", payload: "010130010461757831", note: "active, ref '0', aux 'aux1'"),
    .init(type: "ac", payload: "0201620203783130017a", note: "activating, two aux refs"),
    .init(type: "ac", payload: "030000", note: "unknown state, empty ref"),
    .init(type: "cr", payload: "0102", note: "random 0x0102"),
    .init(type: "err", payload: "0105", note: "temporary memory, 5 ms"),
    .init(type: "err", payload: "0201020304", note: "permanent memory, 0x01020304"),
    .init(type: "err", payload: "0300", note: "carrier specific, 0 ms"),
    .init(type: "err", payload: "07aabb", note: "reserved reason, raw data"),
    .init(type: "Hc", payload: "02176170706c69636174696f6e2f766e642e7766612e7773630102", note: "media WSC + data"),
    .init(type: "Hc", payload: "0102487300", note: "well-known Hs type? carrier data 00"),
    .init(type: "Hs", payload: "13d10204616301013000", note: "1.3, one ac (ndeflib)"),
    .init(type: "Hs", payload: "12", note: "1.2, no carrier"),
    .init(type: "Hs", payload: "12d103056572720201020304", note: "1.2, error only (ndeflib)"),
    .init(type: "Hs", payload: "12910204616301013000510302657272010a", note: "1.2, ac + err"),
    .init(type: "Hs", payload: "13910204616301013000510201587801", note: "1.3, ac + unknown local type Xx"),
    .init(type: "Hr", payload: "12910202637201025102096163010130010461757831", note: "1.2, cr + ac (ndeflib)"),
    .init(type: "Hr", payload: "11d10204616301013000", note: "1.1, no cr needed"),
    .init(type: "Hm", payload: "14d10204616301013000", note: "1.4, one ac"),
    .init(type: "Hi", payload: "14d10204616301013000", note: "1.4, one ac"),
]

@Suite("Handover records")
struct HandoverRecordTests {
    @Test("round trip: decode → encode gives identical bytes", arguments: handoverVectors)
    func roundTrip(_ vector: HandoverVector) throws {
        let again = try reencode(vector.record)
        #expect(again == vector.record)
        #expect(again.payload.hexString == vector.payload)
    }

    @Test("every proper prefix of a payload is rejected", arguments: handoverVectors)
    func prefixes(_ vector: HandoverVector) {
        let payload = bytes(vector.payload)
        for n in 0..<payload.count {
            let record = wellKnown(vector.type, Array(payload.prefix(n)))
            let code = errorCode { _ = try reencode(record) }
            switch vector.type {
            case "Hs" where n == 1, "Hm" where n == 1, "Hi" where n == 1:
                // The version byte alone is a valid handover record without a nested message.
                #expect(code == nil, "prefix \(n)")
            case "Hr" where n == 1:
                #expect(code == .invalidPayload, "prefix \(n): no alternative carrier")
            case "Hs", "Hr", "Hm", "Hi":
                #expect(code == .truncated || code == .truncated, "prefix \(n): \(String(describing: code))")
            case "Hc" where n >= 2 + Int(payload[1]):
                #expect(code == nil, "prefix \(n): the carrier data is the rest of the payload")
            case "err" where payload.first == 7 && n >= 1:
                #expect(code == nil, "prefix \(n): a reserved reason's data is the rest of the payload")
            default:
                #expect(code == .truncated, "prefix \(n): \(String(describing: code))")
            }
        }
    }

    @Test func alternativeCarrierFields() throws {
        let ac = try AlternativeCarrierRecord(wellKnown("ac", bytes("0201620203783130017a")))
        #expect(ac.powerState == .activating)
        #expect(ac.carrierDataReference == Array("b".utf8))
        #expect(ac.auxiliaryDataReferences == [Array("x10".utf8), Array("z".utf8)])
        let built = AlternativeCarrierRecord(powerState: .activating, carrierDataReference: "b", auxiliaryDataReferences: ["x10", "z"])
        #expect(try built.record().payload == bytes("0201620203783130017a"))
    }

    @Test func alternativeCarrierStrictAndLenient() throws {
        // Reserved bits in the power state byte.
        let reserved = wellKnown("ac", bytes("81013000"))
        #expect(errorCode { _ = try AlternativeCarrierRecord(reserved) } == .invalidPayload)
        #expect(try AlternativeCarrierRecord(reserved, options: lenient).powerState == .active)
        // Bytes after the last reference.
        let trailing = wellKnown("ac", bytes("0101300000"))
        #expect(errorCode { _ = try AlternativeCarrierRecord(trailing) } == .invalidPayload)
        #expect(try AlternativeCarrierRecord(trailing, options: lenient).carrierDataReference == [0x30])
        // No auxiliary count (Connection Handover 1.0 style): truncated when strict.
        let noCount = wellKnown("ac", bytes("010130"))
        #expect(errorCode { _ = try AlternativeCarrierRecord(noCount) } == .truncated)
        #expect(try AlternativeCarrierRecord(noCount, options: lenient).auxiliaryDataReferences.isEmpty)
        // An auxiliary reference longer than the payload.
        #expect(errorCode { _ = try AlternativeCarrierRecord(wellKnown("ac", bytes("0101300105"))) } == .truncated)
        // Wrong record type.
        #expect(errorCode { _ = try AlternativeCarrierRecord(wellKnown("cr", bytes("01013000"))) } == .unexpectedRecordType)
        // Encoding limits.
        let long = AlternativeCarrierRecord(powerState: .active, carrierDataReference: [UInt8](repeating: 0x41, count: 256))
        #expect(errorCode { _ = try long.record() } == .fieldTooLong)
    }

    @Test func collisionResolution() throws {
        #expect(try CollisionResolutionRecord(wellKnown("cr", bytes("abcd"))).randomNumber == 0xABCD)
        #expect(errorCode { _ = try CollisionResolutionRecord(wellKnown("cr", bytes("abcdef"))) } == .invalidPayload)
        #expect(try CollisionResolutionRecord(wellKnown("cr", bytes("abcdef")), options: lenient).randomNumber == 0xABCD)
        #expect(try CollisionResolutionRecord(randomNumber: 0x1234).record().payload == [0x12, 0x34])
    }

    @Test func errorRecord() throws {
        let permanent = try HandoverErrorRecord(wellKnown("err", bytes("0201020304")))
        #expect(permanent.reason == .permanentMemoryConstraints)
        #expect(permanent.value == 0x0102_0304)
        #expect(permanent == .permanentMemoryConstraints(maximumSize: 0x0102_0304))
        #expect(try HandoverErrorRecord(wellKnown("err", bytes("0105"))).value == 5)
        let reserved = try HandoverErrorRecord(wellKnown("err", bytes("07aabb")))
        #expect(reserved.reason.rawValue == 7 && reserved.data == [0xAA, 0xBB] && reserved.value == nil)

        #expect(errorCode { _ = try HandoverErrorRecord(wellKnown("err", bytes("0005"))) } == .invalidPayload)
        #expect(errorCode { _ = try HandoverErrorRecord(wellKnown("err", bytes("020102"))) } == .truncated)
        #expect(errorCode { _ = try HandoverErrorRecord(wellKnown("err", bytes("010203"))) } == .invalidPayload)
        let cut = try HandoverErrorRecord(wellKnown("err", bytes("010203")), options: lenient)
        #expect(cut.data == [0x02])
        #expect(errorCode { _ = try HandoverErrorRecord(reason: .permanentMemoryConstraints, data: [1]).record() } == .invalidValue)
    }

    @Test func handoverCarrier() throws {
        let hc = try HandoverCarrierRecord(wellKnown("Hc", bytes("02176170706c69636174696f6e2f766e642e7766612e7773630102")))
        #expect(hc.carrierTypeFormat == .media)
        #expect(hc.carrierTypeString == "application/vnd.wfa.wsc")
        #expect(hc.carrierData == [1, 2])
        // CTF not allowed, reserved CTF bits, empty carrier type.
        #expect(errorCode { _ = try HandoverCarrierRecord(wellKnown("Hc", bytes("050141"))) } == .invalidPayload)
        #expect(errorCode { _ = try HandoverCarrierRecord(wellKnown("Hc", bytes("0a0141"))) } == .invalidPayload)
        #expect(try HandoverCarrierRecord(wellKnown("Hc", bytes("0a0141")), options: lenient).carrierTypeFormat == .media)
        #expect(errorCode { _ = try HandoverCarrierRecord(wellKnown("Hc", bytes("0200"))) } == .invalidPayload)
        #expect(errorCode { _ = try HandoverCarrierRecord(wellKnown("Hc", bytes("020541"))) } == .truncated)
        #expect(errorCode { _ = try HandoverCarrierRecord(carrierTypeFormat: .empty, carrierType: "x").record() } == .invalidValue)
    }

    /// Connection Handover 1.4 §6.3: the carrier type follows the rules of the TNF its CTF names.
    @Test(
        "a carrier type breaking its CTF's rules: strict refuses, lenient keeps",
        arguments: [
            "0206696d6180652f78",  // media "ima\u{80}e/x": not a media type
            "020474657874",  // media "text": no subtype
            "01026120",  // well-known "a ": a space
            "030b6578616d706c652e636f6d",  // absolute URI "example.com": no scheme
            "040665786d706c65",  // external "exmple": no domain:type colon
        ])
    func carrierTypeFollowsItsFormat(payload: String) throws {
        #expect(errorCode { _ = try HandoverCarrierRecord(wellKnown("Hc", bytes(payload))) } == .invalidPayload)
        #expect(try HandoverCarrierRecord(wellKnown("Hc", bytes(payload)), options: lenient).carrierType.count > 0)
    }

    @Test func carrierTypesThatFollowTheirFormatAreRead() throws {
        let media = try HandoverCarrierRecord(wellKnown("Hc", bytes("0217" + "6170706c69636174696f6e2f766e642e7766612e777363")))
        #expect(media.carrierTypeFormat == .media)
        #expect(try HandoverCarrierRecord(wellKnown("Hc", bytes("01024869"))).carrierTypeString == "Hi")
        #expect(try HandoverCarrierRecord(wellKnown("Hc", bytes("030a75726e3a6e66633a7878"))).carrierTypeString == "urn:nfc:xx")
        #expect(try HandoverCarrierRecord(wellKnown("Hc", bytes("040d6578616d706c652e636f6d3a78"))).carrierTypeString == "example.com:x")
    }

    /// A nested record of another type in a handover message: strict decoding holds it to its
    /// own type's rules (as at the top level); lenient keeps it.
    @Test func nestedOtherRecordsFollowTheirTypesRules() throws {
        // Hs 1.5, then a message of one well-known record whose type "\u{FF}c" RTD names do not allow.
        let payload = bytes("15" + "d10201ff63" + "00")
        #expect(errorCode { _ = try HandoverSelectRecord(wellKnown("Hs", payload)) } == .invalidValue)
        #expect(try HandoverSelectRecord(wellKnown("Hs", payload), options: lenient).otherRecords.count == 1)
    }

    @Test func versions() throws {
        let v = HandoverVersion(rawValue: 0x13)
        #expect(v.major == 1 && v.minor == 3 && v.description == "1.3")
        #expect(HandoverVersion(string: "1.4") == .v1_4)
        #expect(HandoverVersion(string: "16.0") == nil)
        #expect(HandoverVersion(string: "1") == nil)
        #expect(try HandoverVersion(major: 2, minor: 15).rawValue == 0x2F)
        #expect(errorCode { _ = try HandoverVersion(major: 16, minor: 0) } == .invalidValue)
    }
}
