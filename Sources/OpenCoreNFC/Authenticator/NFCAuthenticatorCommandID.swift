/// A command's number in an ``NFCAuthenticator``'s queue: numbers grow in submission order,
/// which is the order commands run in.
public struct NFCAuthenticatorCommandID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "command#\(rawValue)" }
}
