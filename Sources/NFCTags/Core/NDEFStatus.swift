/// A tag's NDEF state as Core NFC reports it (`NFCNDEFStatus` and the capacity).
public struct NDEFStatus: Sendable, Hashable, CustomStringConvertible {
    public enum State: String, Sendable, Hashable {
        /// No NDEF: not formatted, or not an NDEF technology.
        case notSupported
        /// NDEF readable and writable.
        case readWrite
        /// NDEF readable only.
        case readOnly
    }

    public var state: State
    /// The largest NDEF message the tag can hold, in bytes (0 when not supported).
    public var capacity: Int
    /// The length of the message the tag holds now (0 for an empty tag).
    public var messageLength: Int

    public init(state: State, capacity: Int, messageLength: Int = 0) {
        self.state = state
        self.capacity = capacity
        self.messageLength = messageLength
    }

    public static let notSupported = NDEFStatus(state: .notSupported, capacity: 0)

    public var description: String { "\(state.rawValue), capacity \(capacity) B, message \(messageLength) B" }
}

/// What reading a tag's NDEF gives: the status and the message bytes (empty for an empty tag).
public struct NDEFReadResult: Sendable, Hashable {
    public var status: NDEFStatus
    public var message: [UInt8]
    public init(status: NDEFStatus, message: [UInt8]) {
        self.status = status
        self.message = message
    }
}
