import NFCTransport

/// What asking a Type 2 tag for its version gave.
enum Type2VersionAnswer: Sendable, Hashable {
    /// GET_VERSION was not sent: the reader (``ExchangeLimits/readerPhrase``) only carries READ and WRITE.
    case notAsked(reader: String)
    /// The tag NAKed or stayed silent (an older chip: MIFARE Ultralight, Ultralight C, NTAG203).
    case refused
    /// The tag answered.
    case answered(Type2Version)

    /// The version, when the tag gave one.
    var version: Type2Version? {
        if case .answered(let version) = self { return version }
        return nil
    }

    /// The model, when the tag is one the engine knows.
    var model: Type2Model? { version.flatMap(Type2Model.init(version:)) }
}

/// Sends GET_VERSION and, when the tag NAKs or stays silent, reactivates it: a sub-machine the
/// operations embed.
///
/// NTAG213/215/216 §10.1; MF0ULX1 “GET_VERSION”. Older Type 2 chips do not know the command and
/// fall silent or NAK; either way they are mute until reactivated (ISO/IEC 14443-3 §6.3: an
/// unknown command returns the PICC to IDLE). A reader that only carries READ and WRITE is not asked.
struct Type2VersionProbe: Sendable {
    enum State: Sendable { case idle, asking, reactivating, finished }
    private(set) var state = State.idle
    let nativeCommands: ExchangeLimits.NativeCommands
    let reader: String

    init(limits: ExchangeLimits) {
        nativeCommands = limits.nativeCommands
        reader = limits.readerPhrase
    }

    mutating func start() -> TagStep<Type2VersionAnswer> {
        guard case .all = nativeCommands else {
            state = .finished
            return .done(.notAsked(reader: reader))
        }
        state = .asking
        return .transceive(Type2Command.getVersion, timeout: Type2Command.shortTimeout)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type2VersionAnswer> {
        switch state {
        case .asking:
            switch outcome {
            case .success(let answer):
                if let version = Type2Version(answer) {
                    state = .finished
                    return .done(.answered(version))
                }
                // A NAK or a malformed answer: the tag is mute until reactivated.
                state = .reactivating
                return .reactivate
            case .failure(let error):
                switch error.code {
                case .timeout, .transmission, .protocolViolation:
                    state = .reactivating
                    return .reactivate
                case .unsupportedCommand:
                    state = .finished
                    return .done(.notAsked(reader: reader))
                default:
                    throw TagEngineError(transport: error)
                }
            }
        case .reactivating:
            _ = try outcome.answer()
            state = .finished
            return .done(.refused)
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "GET_VERSION probe resumed in state \(state)")
        }
    }
}

/// Relays the exchanges of an embedded sub-machine to the operation that runs it.
enum Type2Step {
    /// The same exchange as a step of another output type; `nil` for `.done`.
    static func forward<A, B>(_ step: TagStep<A>) -> TagStep<B>? {
        switch step {
        case .transceive(let frame, let timeout): .transceive(frame, timeout: timeout)
        case .reactivate: .reactivate
        case .done: nil
        }
    }
}
