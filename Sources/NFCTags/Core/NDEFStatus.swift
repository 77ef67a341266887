/// A tag's NDEF state as Core NFC reports it (`NFCNDEFStatus` and the capacity).
public struct NDEFStatus: Sendable, Hashable, CustomStringConvertible {
    /// Whether a tag holds NDEF and whether it may be written (Core NFC's `NFCNDEFStatus`).
    public enum State: String, Sendable, Hashable {
        /// No NDEF: not formatted, or not an NDEF technology.
        case notSupported
        /// NDEF readable and writable.
        case readWrite
        /// NDEF readable only.
        case readOnly
    }

    /// Whether the tag supports NDEF and, if so, whether it is writable.
    public var state: State
    /// The largest NDEF message the tag can hold, in bytes (0 when not supported).
    public var capacity: Int
    /// The length of the message the tag holds now (0 for an empty tag).
    public var messageLength: Int

    /// A status; capacity and message length are in bytes, the message length 0 (an empty tag) unless given.
    public init(state: State, capacity: Int, messageLength: Int = 0) {
        self.state = state
        self.capacity = capacity
        self.messageLength = messageLength
    }

    /// The status of a tag without NDEF: `.notSupported`, capacity 0, message length 0.
    public static let notSupported = NDEFStatus(state: .notSupported, capacity: 0)

    /// The state, capacity and message length, as `readWrite, capacity 868 B, message 42 B`.
    public var description: String { "\(state.rawValue), capacity \(capacity) B, message \(messageLength) B" }
}

/// What reading a tag's NDEF gives: the status and the message bytes (empty for an empty tag).
public struct NDEFReadResult: Sendable, Hashable {
    /// The tag's NDEF state, capacity and message length.
    public var status: NDEFStatus
    /// The encoded NDEF message; empty for an empty tag.
    public var message: [UInt8]
    /// A result from a status and the message bytes read with it.
    public init(status: NDEFStatus, message: [UInt8]) {
        self.status = status
        self.message = message
    }
}
