/// Strict UTF-8 decoding that stays fast on the common case.
///
/// `String(validating:as:)` is generic over the encoding and, called from another module, runs
/// unspecialized: each call looks up generic metadata at run time (about a sixth of the time of
/// decoding a message of small Text records, measured with perf on the NDEFCodec benchmark).
/// Text that is all ASCII is valid UTF-8 by definition (RFC 3629 §3), so it is checked with a
/// plain byte loop and decoded with `String(decoding:as:)`; anything else goes through the
/// standard validation unchanged.
public enum UTF8Text {
    /// The text `bytes` encode, or nil when they are not well-formed UTF-8 (RFC 3629).
    @inlinable
    public static func validated(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for byte in bytes where byte >= 0x80 {
            return String(validating: bytes, as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text `bytes` encode, or nil when they are not well-formed UTF-8 (RFC 3629).
    @inlinable
    public static func validated<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if let result = bytes.withContiguousStorageIfAvailable({ validated($0) }) {
            return result
        }
        return validated(Array(bytes))
    }

    /// ``validated(_:)-(UnsafeBufferPointer<UInt8>)`` for an array.
    @inlinable
    public static func validated(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { validated($0) }
    }
}
