/// Where an emulated card meets outside readers: the contactless front a card-emulation session
/// (Core NFC's `CardSession`) listens on.
///
/// A front reports a reader coming into the field, every command APDU it sends (ISO/IEC 7816-4
/// §5.1; the ISO-DEP framing of ISO/IEC 14443-4 is the front's business), and the reader leaving.
/// Each command is answered exactly once through its ``EmulatedCommand/respond(_:)``.
public protocol CardEmulationFront: Sendable {
    /// A name for messages ("simulated terminal", a PC/SC reader name).
    var name: String { get }
    /// Starts listening; events arrive on the returned stream. A new listener replaces the one
    /// before (whose stream ends). Listening ends when the listener stops iterating (its task is
    /// cancelled): the card is gone for the reader, and commands still unanswered fail there.
    func startListening() async throws(TransportError) -> AsyncStream<CardEmulationEvent>
    /// Whether the card answers a reader: while false, a reader in the field finds no card
    /// (before emulation starts, after it stops).
    func setCardPresent(_ present: Bool) async
}

/// What a ``CardEmulationFront`` reports.
public enum CardEmulationEvent: Sendable {
    /// A reader's field came on and it activated the card (ISO/IEC 14443-4 RATS).
    case readerDetected
    /// The reader sent a command APDU.
    case command(EmulatedCommand)
    /// The reader went away, or deselected the card (S(DESELECT), ISO/IEC 14443-4 §7.3).
    case readerDeselected
}

/// A command APDU from a reader, with the way back to it.
public struct EmulatedCommand: Sendable {
    /// The command APDU as the reader sent it.
    public let bytes: [UInt8]
    private let reply: @Sendable ([UInt8]) async -> Bool

    /// A command and the closure that carries its response back; `reply` returns false when the
    /// reader is no longer there to receive it.
    public init(bytes: [UInt8], reply: @escaping @Sendable ([UInt8]) async -> Bool) {
        self.bytes = bytes
        self.reply = reply
    }

    /// Sends the response APDU (data and status word); false when the reader has gone.
    public func respond(_ response: [UInt8]) async -> Bool { await reply(response) }
}
