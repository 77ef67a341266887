/// A command's number in an ``NFCAuthenticator``'s queue: numbers grow in submission order,
/// which is the order commands run in.
public struct NFCAuthenticatorCommandID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number: 1 for an authenticator's first command, one more for each later one; 0 for an APDU refused before queueing.
    public let rawValue: UInt64
    /// Makes an ID from its number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Orders by number, which is submission order.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `command#N`, for logs.
    public var description: String { "command#\(rawValue)" }
}
