import NFCBytes

/// A Handover Carrier record (`Hc`): names a carrier, optionally with some data, when no full
/// carrier configuration is given.
///
/// Payload (NFC Forum Connection Handover 1.4 section “Handover Carrier Record”): the carrier type format (CTF, a TNF
/// value in the low three bits, the rest reserved), the carrier type length and type (read
/// like a record's TYPE under that TNF, e.g. media `application/vnd.bluetooth.ep.oob`), then
/// carrier data up to the end of the payload.
///
/// Strict decoding rejects set reserved bits, a CTF that is not well-known, media,
/// absolute-URI or external, an empty carrier type, and a carrier type that breaks its CTF's
/// rules (`NDEFTypeNameRules`); lenient decoding keeps them (reserved bits are dropped).
public struct HandoverCarrierRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `Hc`.
    public static let recordType: [UInt8] = Array("Hc".utf8)

    /// How to read ``carrierType`` (CTF).
    public var carrierTypeFormat: NDEFTypeNameFormat
    /// The carrier type, e.g. `application/vnd.wfa.wsc`.
    public var carrierType: [UInt8]
    /// Optional carrier information.
    public var carrierData: [UInt8]

    /// Creates a handover carrier record.
    public init(carrierTypeFormat: NDEFTypeNameFormat, carrierType: [UInt8], carrierData: [UInt8] = []) {
        self.carrierTypeFormat = carrierTypeFormat
        self.carrierType = carrierType
        self.carrierData = carrierData
    }

    /// Creates a handover carrier record whose type is given as text.
    public init(carrierTypeFormat: NDEFTypeNameFormat, carrierType: String, carrierData: [UInt8] = []) {
        self.init(carrierTypeFormat: carrierTypeFormat, carrierType: Array(carrierType.utf8), carrierData: carrierData)
    }

    /// The carrier type as text.
    public var carrierTypeString: String { String(decoding: carrierType, as: UTF8.self) }

    private static let allowedFormats: Set<NDEFTypeNameFormat> = [.wellKnown, .media, .absoluteURI, .external]

    /// Interprets a well-known `Hc` record (see the type's notes on strict and lenient decoding).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` when the CTF or
    ///   carrier type is cut short, ``NDEFError/Code/invalidPayload`` for what strict decoding rejects.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Handover Carrier")
        let strict = options.mode == .strict
        var cursor = PayloadCursor(record.payload[...], context: "Handover Carrier")
        let ctf = try cursor.uint8("carrier type format")
        let format = NDEFTypeNameFormat(rawValue: ctf & 0x07) ?? .unknown
        if strict {
            if ctf & 0xF8 != 0 {
                throw cursor.invalid("reserved bits set in the carrier type format byte (0x\(Hex.encode([ctf])))", at: 0)
            }
            if !Self.allowedFormats.contains(format) {
                throw cursor.invalid("carrier type format \(format) is not allowed", at: 0)
            }
        }
        carrierTypeFormat = format
        let length = Int(try cursor.uint8("carrier type length"))
        if strict && length == 0 {
            throw cursor.invalid("the carrier type is empty", at: 1)
        }
        carrierType = try cursor.bytes(length, "carrier type")
        if strict { try Self.checkCarrierType(carrierType, format: format, cursor: cursor) }
        carrierData = Array(cursor.rest())
    }

    /// Connection Handover 1.4 §6.3: the carrier type is read as a record TYPE under the CTF, so
    /// it follows that TNF's rules.
    private static func checkCarrierType(_ type: [UInt8], format: NDEFTypeNameFormat, cursor: PayloadCursor) throws(NDEFError) {
        do {
            try NDEFTypeNameRules.check(type, format: format)
        } catch {
            throw cursor.invalid("carrier type: \(error.reason)", at: 2)
        }
    }

    /// The well-known `Hc` record.
    /// - Throws: ``NDEFError/Code/invalidValue`` for a CTF other than well-known, media, absolute-URI or external, or an
    ///   empty carrier type; ``NDEFError/Code/fieldTooLong`` for a carrier type over 255 bytes.
    public func record() throws(NDEFError) -> NDEFRecord {
        guard Self.allowedFormats.contains(carrierTypeFormat) else {
            throw NDEFError(.invalidValue, "carrier type format \(carrierTypeFormat) is not allowed")
        }
        guard !carrierType.isEmpty else {
            throw NDEFError(.invalidValue, "a handover carrier needs a carrier type")
        }
        var writer = ByteWriter(capacity: 2 + carrierType.count + carrierData.count)
        writer.write(carrierTypeFormat.rawValue)
        try writeShortLengthPrefixed(carrierType, into: &writer, field: "a carrier type")
        writer.write(contentsOf: carrierData)
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: writer.bytes)
    }
}
