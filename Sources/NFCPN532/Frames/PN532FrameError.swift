/// Why bytes from a serial line are not a PN532 frame, with where in the stream it happened.
public struct PN532FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, as a stable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `lengthChecksum`.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's ``name``.
        public var description: String { name }

        /// LEN + LCS (or LENM + LENL + LCS) is not 0 modulo 256 (UM0701-02 §6.2.1.1, §6.2.1.2).
        public static let lengthChecksum = Code("lengthChecksum")
        /// TFI + data + DCS is not 0 modulo 256.
        public static let dataChecksum = Code("dataChecksum")
        /// The frame is longer than the PN532's 265-byte buffer, or an information frame has no TFI.
        public static let badLength = Code("badLength")
        /// The stream ended inside a frame.
        public static let truncated = Code("truncated")
    }

    /// What was wrong.
    public let code: Code
    /// Where: the offset in the stream of the frame's start code, and what was found.
    public let reason: String

    /// An error with its code and reason.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }
}
