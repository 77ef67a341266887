import ISO7816
import NFCTransport

/// Writes an NDEF message in the tearing-safe order of the NDEF update procedure of NFC Forum
/// Type 4 Tag 2.0 §5.4: UPDATE BINARY of NLEN `0000` first, then the message, then NLEN last.
///
/// Torn at any command, the tag holds the old message (before NLEN `0000` lands), an empty NDEF
/// (NLEN `0000` while the message is being written, or the last write lost), or the new
/// message. The stored message is read first (as far as it overlaps the new one) and ranges
/// that already hold the wanted bytes are not written again: a message identical to the stored
/// one costs no write at all, and one that is a prefix of it needs only the final NLEN (one 2-
/// or 4-byte write, which tears to old or new). On an empty tag nothing is read first.
public struct Type4WriteProcedure: Type4Procedure {
    /// Nothing: the message is stored when the procedure is done.
    public typealias Output = Void

    enum State: Sendable {
        case detecting(Type4Detection)
        case readingCurrent(Type4NDEFFile, Type4FileReader)
        case writing(Type4FileWriter)
        case done
    }

    /// The encoded NDEF message to store.
    public let message: [UInt8]
    let limits: ExchangeLimits
    let maximumReadLength: Int?
    var state = State.detecting(Type4Detection(depth: .messageLength))

    /// - Parameters:
    ///   - message: the encoded NDEF message.
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on Ne per READ BINARY of the comparison read.
    public init(message: [UInt8], limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.message = message
        self.limits = limits
        self.maximumReadLength = maximumReadLength
    }

    /// SELECT of the NDEF Tag Application, the first step of detection.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> Type4Action<Void> {
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 write started twice")
        }
        let action = try detection.start()
        state = .detecting(detection)
        return try afterDetection(action)
    }

    /// Follows detection, the comparison read and the UPDATE BINARY commands.
    /// - Throws: `.readOnly` when the CC's write access is not `00` or the file refuses updates,
    ///   `.capacityExceeded`, the detection errors; `.invalidNDEFArea` or `.tagError` for another refusal.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Void> {
        switch state {
        case .detecting(var detection):
            let action = try detection.handle(response)
            state = .detecting(detection)
            return try afterDetection(action)
        case .readingCurrent(let file, var reader):
            switch try reader.handle(response) {
            case .send(let command):
                state = .readingCurrent(file, reader)
                return .send(command)
            case .done(let current):
                return try write(file, over: current)
            }
        case .writing(var writer):
            let action = try writer.handle(response)
            state = action.isDone ? .done : .writing(writer)
            return action
        case .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after the write ended")
        }
    }

    private mutating func afterDetection(_ action: Type4Action<Type4NDEFFile>) throws(TagEngineError) -> Type4Action<Void> {
        let file: Type4NDEFFile
        switch action {
        case .send(let command): return .send(command)
        case .done(let detected): file = detected
        }
        let capabilities = file.capabilities
        guard capabilities.isWritable else {
            throw TagEngineError(
                .readOnly, "the CC's write access is \(Type4Capabilities.hex(capabilities.writeAccess)): the NDEF file is read-only")
        }
        guard message.count <= capabilities.capacity else {
            throw TagEngineError(
                .capacityExceeded,
                "a message of \(message.count) bytes does not fit the \(capabilities.capacity) bytes of NDEF file \(Type4Status.hex(capabilities.ndefFileID))"
            )
        }
        // Compare only with the stored message: bytes beyond it are erased or stale and seldom
        // match, and reading them would cost as much air time as writing them.
        let known = file.messageLengthIsValid ? min(file.messageLength ?? 0, message.count) : 0
        guard known > 0 else { return try write(file, over: nil) }
        var reader = Type4FileReader(
            fileID: capabilities.ndefFileID, offset: capabilities.lengthFieldSize, count: known,
            sizes: sizes(for: capabilities), offsetObjects: capabilities.majorVersion >= 3
        )
        let first = try reader.start()
        state = .readingCurrent(file, reader)
        guard case .send(let command) = first else { return try write(file, over: nil) }
        return .send(command)
    }

    /// Plans and starts the writes: NLEN `0000` (when data changes and NLEN is not already 0),
    /// the changed ranges, then the new NLEN (when it differs from what the file holds then).
    private mutating func write(_ file: Type4NDEFFile, over current: [UInt8]?) throws(TagEngineError) -> Type4Action<Void> {
        let capabilities = file.capabilities
        let size = capabilities.lengthFieldSize
        let changes = try sizes(for: capabilities).updates(writing: message, at: size, over: current)
        var stored: Int? = file.messageLengthIsValid ? file.messageLength : nil
        var writes: [(offset: Int, data: [UInt8])] = []
        if !changes.isEmpty && stored != 0 {
            writes.append((0, Self.lengthField(0, size: size)))
            stored = 0
        }
        writes += changes
        if stored != message.count {
            writes.append((0, Self.lengthField(message.count, size: size)))
        }
        var writer = Type4FileWriter(fileID: capabilities.ndefFileID, writes: writes)
        let action = try writer.start()
        state = action.isDone ? .done : .writing(writer)
        return action
    }

    private func sizes(for capabilities: Type4Capabilities) -> Type4TransferSizes {
        Type4TransferSizes(capabilities: capabilities, limits: limits, maximumReadLength: maximumReadLength)
    }

    /// NLEN or ENLEN, big-endian.
    static func lengthField(_ length: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
    }
}

extension Type4Action {
    /// Whether the action ends the procedure.
    var isDone: Bool {
        if case .done = self { return true }
        return false
    }
}
