/// The version of the Connection Handover specification a handover record follows.
///
/// One byte: the major version in the high nibble, the minor version in the low nibble
/// (NFC Forum Connection Handover 1.4 section “Handover Version”). `0x13` is version 1.3.
/// A receiver should refuse a message whose major version it does not know; this codec keeps
/// any version so that nothing is lost, and leaves that decision to the caller.
public struct HandoverVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The version byte as on the wire.
    public var rawValue: UInt8

    /// Creates a version from its wire byte.
    @inlinable
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Creates a version from its parts; each must fit in a nibble (0...15).
    public init(major: UInt8, minor: UInt8) throws(NDEFError) {
        guard major <= 0x0F, minor <= 0x0F else {
            throw NDEFError(.invalidValue, "handover version parts must be 0...15, got \(major).\(minor)")
        }
        self.rawValue = major << 4 | minor
    }

    /// Parses `"major.minor"` (e.g. `"1.3"`); nil when the text is not of that form or a part exceeds 15.
    public init?(string: String) {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = UInt8(parts[0]), let minor = UInt8(parts[1]),
            major <= 0x0F, minor <= 0x0F
        else { return nil }
        self.rawValue = major << 4 | minor
    }

    /// The major version (high nibble).
    @inlinable
    public var major: UInt8 { rawValue >> 4 }
    /// The minor version (low nibble).
    @inlinable
    public var minor: UInt8 { rawValue & 0x0F }

    /// Version 1.2, the first with collision resolution and error records.
    public static let v1_2 = HandoverVersion(rawValue: 0x12)
    /// Version 1.3.
    public static let v1_3 = HandoverVersion(rawValue: 0x13)
    /// Version 1.4 (the current one).
    public static let v1_4 = HandoverVersion(rawValue: 0x14)

    /// `"major.minor"`, e.g. `"1.3"`.
    public var description: String { "\(major).\(minor)" }

    /// Orders versions by their byte (major version in the high nibble, minor in the low one).
    public static func < (lhs: HandoverVersion, rhs: HandoverVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}
