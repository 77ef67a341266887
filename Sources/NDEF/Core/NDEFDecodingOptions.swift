/// How strictly, and within which limits, NDEF is decoded.
public struct NDEFDecodingOptions: Sendable, Hashable {
    /// Whether spec violations are errors or are repaired where that is safe.
    public enum Mode: Sendable, Hashable {
        /// Every violation of NFC Forum NDEF 1.0 is an error.
        case strict
        /// Repairs what can be repaired without guessing (ndeflib's `relax`):
        /// a missing MB or ME flag, an MB flag on a later record, bytes after the ME record,
        /// a type on a TNF that forbids one (dropped), a missing type, TNF 7 (read as unknown),
        /// an empty input (no records). Chunking errors, truncation and limits stay errors.
        case lenient
    }

    /// Strict or lenient.
    public var mode: Mode
    /// The largest input accepted, in bytes.
    public var maxMessageSize: Int
    /// The most records (counting each chunk) accepted in one message.
    public var maxRecordCount: Int
    /// How deep messages may nest (a Smart Poster or Handover message holds a message).
    public var maxNestingDepth: Int

    /// How many messages deep the decoder already is (0 for a top-level message).
    public internal(set) var depth: Int = 0

    /// Options with a mode and limits; the defaults are strict, 16 MiB, 65,536 records and a nesting depth of 4.
    public init(
        mode: Mode = .strict, maxMessageSize: Int = 16 << 20, maxRecordCount: Int = 65_536,
        maxNestingDepth: Int = 4
    ) {
        self.mode = mode
        self.maxMessageSize = maxMessageSize
        self.maxRecordCount = maxRecordCount
        self.maxNestingDepth = maxNestingDepth
    }

    /// Strict decoding with the default limits (16 MiB, 65,536 records, depth 4).
    public static let strict = NDEFDecodingOptions()
    /// Lenient decoding with the default limits.
    public static let lenient = NDEFDecodingOptions(mode: .lenient)

    @inlinable
    var isStrict: Bool { mode == .strict }

    /// The options for decoding a message nested inside a record's payload, one level deeper.
    public func nested() -> NDEFDecodingOptions {
        var copy = self
        copy.depth += 1
        return copy
    }
}
