import NFCBytes

/// An NDEF message: one or more records.
///
/// NFC Forum NDEF 1.0 §2.3.1, §3.
public struct NDEFMessage: Hashable, Sendable {
    /// The records, in order.
    public var records: [NDEFRecord]

    /// Creates a message from its records.
    @inlinable
    public init(records: [NDEFRecord]) {
        self.records = records
    }

    /// Creates a message from its records.
    @inlinable
    public init(_ records: NDEFRecord...) {
        self.records = records
    }

    /// A message of one empty record (`D0 00 00`), what tags hold when "blank but formatted".
    public static let emptyRecordMessage = NDEFMessage(records: [.empty])

    /// Decodes a message (see ``NDEFDecoder``).
    @inlinable
    public init(decoding bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        self.records = try NDEFDecoder(options: options).decodeRecords(bytes[...])
    }

    /// Decodes a message from a slice; offsets in errors are the slice's indices.
    @inlinable
    public init(decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        self.records = try NDEFDecoder(options: options).decodeRecords(bytes)
    }

    /// Encodes the message; records with payloads longer than `chunkSize` are chunked.
    public func encoded(chunkSize: Int? = nil) throws(NDEFError) -> [UInt8] {
        try NDEFEncoder(chunkSize: chunkSize).encode(self)
    }

    /// The length of the encoding without chunking, computed without encoding.
    public var encodedLength: Int {
        records.reduce(0) { $0 + $1.encodedLength(chunkSize: nil) }
    }
}

extension NDEFMessage: CustomStringConvertible {
    /// `NDEFMessage(…)` with each record's description, for debugging.
    public var description: String {
        "NDEFMessage(\(records.map(\.description).joined(separator: ", ")))"
    }
}
