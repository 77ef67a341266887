import NFCBytes

/// A Handover Error record (`err`): why a Handover Selector could not answer a request.
///
/// Payload (NFC Forum Connection Handover 1.4 section “Error Record”): an error reason byte and error data
/// whose form depends on the reason:
/// - 1, temporary memory constraints: 1 byte, the minimum time in milliseconds before the
///   requester may send a new request;
/// - 2, permanent memory constraints: 4 bytes, big-endian, the largest request message the
///   selector can take, in bytes;
/// - 3, carrier-specific constraints: 1 byte, the minimum time in milliseconds before retrying;
/// - other values are reserved; their data is kept as it is (the rest of the payload).
///
/// Reason 0 is reserved and rejected in strict mode. A data field shorter than its reason
/// needs is ``NDEFError/Code/truncated``; a longer one is ``NDEFError/Code/invalidPayload`` in
/// strict mode and cut to size in lenient mode.
public struct HandoverErrorRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `err`.
    public static let recordType: [UInt8] = Array("err".utf8)

    /// An error reason code.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The reason byte.
        public var rawValue: UInt8
        /// The reason with this byte; reserved values are kept.
        @inlinable
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The selector is temporarily short of memory (1 byte of data: retry delay in ms).
        public static let temporaryMemoryConstraints = Reason(rawValue: 1)
        /// The request is too large for the selector (4 bytes of data: the maximum size).
        public static let permanentMemoryConstraints = Reason(rawValue: 2)
        /// A carrier-specific problem (1 byte of data: retry delay in ms).
        public static let carrierSpecificConstraints = Reason(rawValue: 3)

        /// The size of this reason's error data, or nil for a reserved reason.
        public var dataLength: Int? {
            switch rawValue {
            case 1, 3: return 1
            case 2: return 4
            default: return nil
            }
        }

        /// The reason's name, e.g. `temporaryMemoryConstraints`, or `reserved(N)`.
        public var description: String {
            switch rawValue {
            case 1: return "temporaryMemoryConstraints"
            case 2: return "permanentMemoryConstraints"
            case 3: return "carrierSpecificConstraints"
            default: return "reserved(\(rawValue))"
            }
        }
    }

    /// The error reason.
    public var reason: Reason
    /// The error data as on the wire (its size is fixed by ``reason`` for reasons 1–3).
    public var data: [UInt8]

    /// Creates an error record from a reason and its raw data.
    @inlinable
    public init(reason: Reason, data: [UInt8]) {
        self.reason = reason
        self.data = data
    }

    /// A temporary memory constraint error: retry after `milliseconds`.
    public static func temporaryMemoryConstraints(retryAfterMilliseconds milliseconds: UInt8) -> Self {
        Self(reason: .temporaryMemoryConstraints, data: [milliseconds])
    }

    /// A permanent memory constraint error: requests must not exceed `maximumSize` bytes.
    public static func permanentMemoryConstraints(maximumSize: UInt32) -> Self {
        var writer = ByteWriter(capacity: 4)
        writer.write(maximumSize)
        return Self(reason: .permanentMemoryConstraints, data: writer.bytes)
    }

    /// A carrier-specific constraint error: retry after `milliseconds`.
    public static func carrierSpecificConstraints(retryAfterMilliseconds milliseconds: UInt8) -> Self {
        Self(reason: .carrierSpecificConstraints, data: [milliseconds])
    }

    /// The error data as a number (reasons 1–3: the one-byte delay or the 4-byte size), else nil.
    public var value: UInt32? {
        guard let length = reason.dataLength, data.count == length else { return nil }
        return data.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Interprets a well-known `err` record (see the type's notes on data sizes).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for a missing
    ///   reason byte or short data, ``NDEFError/Code/invalidPayload`` in strict mode for reason 0 or extra data bytes.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Handover Error")
        let strict = options.mode == .strict
        var cursor = PayloadCursor(record.payload[...], context: "Handover Error")
        reason = Reason(rawValue: try cursor.uint8("error reason"))
        if reason.rawValue == 0 && strict {
            throw cursor.invalid("error reason 0 is reserved", at: 0)
        }
        if let length = reason.dataLength {
            data = try cursor.bytes(length, "error data for reason \(reason.rawValue)")
            try cursor.expectEnd(strict: strict, after: "error data")
        } else {
            data = Array(cursor.rest())
        }
    }

    /// The well-known `err` record: the reason byte, then the data.
    /// - Throws: ``NDEFError/Code/invalidValue`` when the data is not the size reasons 1–3 call for.
    public func record() throws(NDEFError) -> NDEFRecord {
        if let length = reason.dataLength, data.count != length {
            throw NDEFError(
                .invalidValue, "error reason \(reason.rawValue) takes \(length) byte(s) of data, got \(data.count)")
        }
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: [reason.rawValue] + data)
    }
}
