import NFCBytes

/// A Collision Resolution record (`cr`): the random number a Handover Requester draws.
///
/// When both devices send a Handover Request at once, the one with the larger number (after
/// the bit comparison of NFC Forum Connection Handover 1.4 section “Handover Request Collision”) becomes the Selector.
/// Payload: a 16-bit big-endian random number (section “Collision Resolution Record”). Strict decoding rejects extra bytes;
/// lenient decoding ignores them.
public struct CollisionResolutionRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `cr`.
    public static let recordType: [UInt8] = Array("cr".utf8)

    /// The random number.
    public var randomNumber: UInt16

    /// Creates a collision resolution record.
    @inlinable
    public init(randomNumber: UInt16) {
        self.randomNumber = randomNumber
    }

    /// Interprets a well-known `cr` record.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for fewer than
    ///   2 payload bytes, ``NDEFError/Code/invalidPayload`` in strict mode for more.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Collision Resolution")
        var cursor = PayloadCursor(record.payload[...], context: "Collision Resolution")
        randomNumber = try cursor.uint16("random number")
        try cursor.expectEnd(strict: options.mode == .strict, after: "random number")
    }

    /// The well-known `cr` record: the random number, 2 bytes big-endian; never throws.
    public func record() throws(NDEFError) -> NDEFRecord {
        var writer = ByteWriter(capacity: 2)
        writer.write(randomNumber)
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: writer.bytes)
    }
}
