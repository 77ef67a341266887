import NFCBytes

/// An Alternative Carrier record (`ac`): one carrier the sender offers, and where its data is.
///
/// Payload (NFC Forum Connection Handover 1.4 section “Alternative Carrier Record”): the carrier power state (low two bits of
/// the first byte, the rest reserved), the carrier data reference (a length byte and the
/// bytes), the auxiliary data reference count, and that many references (length + bytes).
///
/// A reference is the **record identifier** (the NDEF ID field) of another record in the same
/// handover message: the carrier data reference names the carrier configuration record (e.g. an
/// `application/vnd.bluetooth.ep.oob` record whose ID is `"0"`) or a Handover Carrier record
/// (`Hc`), and each auxiliary data reference names a record with extra information for that
/// carrier. Matching is byte for byte (see ``NDEFMessage/record(withIdentifier:)``).
///
/// Strict decoding rejects set reserved bits and bytes after the last reference; lenient
/// decoding ignores both and accepts a payload that ends right after the carrier data
/// reference (no auxiliary count), as Connection Handover 1.0 writers sometimes produce.
public struct AlternativeCarrierRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `ac` (a local type inside a handover message).
    public static let recordType: [UInt8] = Array("ac".utf8)

    /// The carrier's power state.
    public var powerState: CarrierPowerState
    /// The identifier of the record that holds the carrier's configuration.
    public var carrierDataReference: [UInt8]
    /// Identifiers of records with auxiliary data for the carrier (at most 255).
    public var auxiliaryDataReferences: [[UInt8]]

    /// Creates an alternative carrier.
    public init(
        powerState: CarrierPowerState, carrierDataReference: [UInt8],
        auxiliaryDataReferences: [[UInt8]] = []
    ) {
        self.powerState = powerState
        self.carrierDataReference = carrierDataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    /// Creates an alternative carrier whose references are given as text (ASCII identifiers).
    public init(powerState: CarrierPowerState, carrierDataReference: String, auxiliaryDataReferences: [String] = []) {
        self.init(
            powerState: powerState, carrierDataReference: Array(carrierDataReference.utf8),
            auxiliaryDataReferences: auxiliaryDataReferences.map { Array($0.utf8) })
    }

    /// Interprets a well-known `ac` record (see the type's notes on strict and lenient decoding).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` when a field is
    ///   cut short, ``NDEFError/Code/invalidPayload`` in strict mode for set reserved bits or bytes after the last reference.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Alternative Carrier")
        let strict = options.mode == .strict
        var cursor = PayloadCursor(record.payload[...], context: "Alternative Carrier")
        let first = try cursor.uint8("carrier power state")
        if strict && first & 0xFC != 0 {
            throw cursor.invalid("reserved bits set in the carrier power state byte (0x\(Hex.encode([first])))", at: 0)
        }
        powerState = CarrierPowerState(rawValue: first & 0x03) ?? .unknown
        let referenceLength = Int(try cursor.uint8("carrier data reference length"))
        carrierDataReference = try cursor.bytes(referenceLength, "carrier data reference")
        if cursor.isAtEnd && !strict {
            auxiliaryDataReferences = []
            return
        }
        let count = Int(try cursor.uint8("auxiliary data reference count"))
        var references: [[UInt8]] = []
        references.reserveCapacity(min(count, cursor.remaining))
        for i in 0..<count {
            let length = Int(try cursor.uint8("auxiliary data reference \(i) length"))
            references.append(try cursor.bytes(length, "auxiliary data reference \(i)"))
        }
        auxiliaryDataReferences = references
        try cursor.expectEnd(strict: strict, after: "auxiliary data references")
    }

    /// The well-known `ac` record with ``payload()``.
    /// - Throws: ``NDEFError/Code/fieldTooLong`` for more than 255 auxiliary references or a reference over 255 bytes.
    public func record() throws(NDEFError) -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: try payload())
    }

    /// The payload bytes.
    public func payload() throws(NDEFError) -> [UInt8] {
        guard auxiliaryDataReferences.count <= 255 else {
            throw NDEFError(
                .fieldTooLong, "at most 255 auxiliary data references, this carrier has \(auxiliaryDataReferences.count)")
        }
        var writer = ByteWriter()
        writer.write(powerState.rawValue)
        try writeShortLengthPrefixed(carrierDataReference, into: &writer, field: "a carrier data reference")
        writer.write(UInt8(truncatingIfNeeded: auxiliaryDataReferences.count))
        for reference in auxiliaryDataReferences {
            try writeShortLengthPrefixed(reference, into: &writer, field: "an auxiliary data reference")
        }
        return writer.bytes
    }
}
