import ISO7816
import NFCTransport

/// Formats a Type 4 Tag for NDEF — as far as standard commands allow.
///
/// NFC Forum Type 4 Tag 2.0 defines no command that creates the NDEF Tag Application, the CC
/// file or the NDEF file: a card without them (a factory-fresh DESFire, a Java Card) needs the
/// chip's proprietary commands, so this procedure reports `.unsupported` with the reason. A tag
/// whose application and CC are in place is already formatted (T4T 2.0 §5.3.1: INITIALIZED with
/// NLEN `0000`, or READ/WRITE) and gets `.alreadyFormatted`. The one case standard commands can
/// mend is a valid CC over an NDEF file whose NLEN is out of range: NLEN `0000` is written, which
/// puts the tag in the INITIALIZED state.
public struct Type4FormatProcedure: Type4Procedure {
    /// Nothing: the tag is formatted when the procedure is done.
    public typealias Output = Void

    enum State: Sendable {
        case detecting(Type4Detection)
        case resetting(Type4FileWriter)
        case done
    }

    var state = State.detecting(Type4Detection(depth: .messageLength))

    /// A format procedure, starting with NDEF detection.
    public init() {}

    /// SELECT of the NDEF Tag Application, the first step of detection.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> Type4Action<Void> {
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 format started twice")
        }
        let action = try Self.explained { () throws(TagEngineError) in try detection.start() }
        state = .detecting(detection)
        return try afterDetection(action)
    }

    /// Follows detection, then writes NLEN `0000` when it is out of range.
    /// - Throws: `.alreadyFormatted` for a valid NDEF file; `.unsupported` when the application or the CC
    ///   is missing or invalid; `.readOnly` when the CC's write access forbids the reset.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Void> {
        switch state {
        case .detecting(var detection):
            let action = try Self.explained { () throws(TagEngineError) in try detection.handle(response) }
            state = .detecting(detection)
            return try afterDetection(action)
        case .resetting(var writer):
            let action = try writer.handle(response)
            state = action.isDone ? .done : .resetting(writer)
            return action
        case .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after formatting ended")
        }
    }

    private mutating func afterDetection(_ action: Type4Action<Type4NDEFFile>) throws(TagEngineError) -> Type4Action<Void> {
        let file: Type4NDEFFile
        switch action {
        case .send(let command): return .send(command)
        case .done(let detected): file = detected
        }
        let capabilities = file.capabilities
        guard !file.messageLengthIsValid else {
            throw TagEngineError(
                .alreadyFormatted,
                "the tag holds the NDEF Tag Application with a valid CC and NDEF file \(Type4Status.hex(capabilities.ndefFileID))")
        }
        guard capabilities.isWritable else {
            throw TagEngineError(
                .readOnly,
                "the NDEF file's length is out of range but the CC's write access \(Type4Capabilities.hex(capabilities.writeAccess)) forbids resetting it"
            )
        }
        var writer = Type4FileWriter(
            fileID: capabilities.ndefFileID,
            writes: [(0, Type4WriteProcedure.lengthField(0, size: capabilities.lengthFieldSize))]
        )
        let next = try writer.start()
        state = .resetting(writer)
        return next
    }

    /// Runs a detection step, turning "no NDEF application" and "invalid CC" into `.unsupported`
    /// with the reason: standard commands cannot create either.
    private static func explained<T>(_ body: () throws(TagEngineError) -> T) throws(TagEngineError) -> T {
        do {
            return try body()
        } catch  where error.code == .notFormatted {
            throw TagEngineError(
                .unsupported,
                "\(error.reason); NFC Forum Type 4 has no command to create the NDEF application and its files — that needs the card's proprietary commands (e.g. DESFire CreateApplication and CreateStdDataFile)",
                tagStatus: error.tagStatus
            )
        } catch  where error.code == .invalidCapabilityContainer {
            throw TagEngineError(
                .unsupported,
                "\(error.reason); the CC file is not writable with standard commands, so the tag cannot be formatted here",
                tagStatus: error.tagStatus
            )
        }
    }
}
