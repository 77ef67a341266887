import ISO7816
import NFCTransport

/// Reads the NDEF message: detection, then the NLEN (or ENLEN) bytes after the length field in
/// READ BINARY commands as large as MLe and the reader allow (the NDEF read procedure of NFC
/// Forum Type 4 Tag 2.0 §5.4; T4T 3.0 for ENLEN and offsets beyond 7FFF).
///
/// With extended APDUs and an MLe above 256 an 8 KB message comes back from a single READ
/// BINARY — the physical minimum of AIRTIME.md — instead of the 33 or more commands of the
/// common pattern.
public struct Type4ReadProcedure: Type4Procedure {
    /// The status and the message bytes.
    public typealias Output = NDEFReadResult

    enum State: Sendable {
        case detecting(Type4Detection)
        case reading(Type4NDEFFile, Type4FileReader)
        case done
    }

    let limits: ExchangeLimits
    let maximumReadLength: Int?
    var state = State.detecting(Type4Detection(depth: .messageLength))

    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on Ne per READ BINARY (`nil`: what the CC and reader allow).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
    }

    /// SELECT of the NDEF Tag Application, the first step of detection.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> Type4Action<NDEFReadResult> {
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 read started twice")
        }
        let action = try detection.start()
        state = .detecting(detection)
        return try follow(action)
    }

    /// Follows detection, then the READ BINARY commands of the message; done with the status and the
    /// message (empty when NLEN is 0).
    /// - Throws: `.invalidNDEFArea` when NLEN or ENLEN is outside 3…capacity; the detection and file
    ///   read errors.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<NDEFReadResult> {
        switch state {
        case .detecting(var detection):
            let action = try detection.handle(response)
            state = .detecting(detection)
            return try follow(action)
        case .reading(let file, var reader):
            switch try reader.handle(response) {
            case .send(let command):
                state = .reading(file, reader)
                return .send(command)
            case .done(let message):
                state = .done
                return .done(NDEFReadResult(status: file.status, message: message))
            }
        case .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after the read ended")
        }
    }

    private mutating func follow(_ action: Type4Action<Type4NDEFFile>) throws(TagEngineError) -> Type4Action<NDEFReadResult> {
        switch action {
        case .send(let command):
            return .send(command)
        case .done(let file):
            let length = file.messageLength ?? 0
            guard file.messageLengthIsValid else {
                let name = file.capabilities.isExtended ? "ENLEN" : "NLEN"
                throw TagEngineError(
                    .invalidNDEFArea,
                    "\(name) \(length) of file \(Type4Status.hex(file.capabilities.ndefFileID)) is outside 3–\(file.capabilities.capacity) (the file's capacity)"
                )
            }
            guard length > 0 else {
                state = .done
                return .done(NDEFReadResult(status: file.status, message: []))
            }
            let capabilities = file.capabilities
            var reader = Type4FileReader(
                fileID: capabilities.ndefFileID, offset: capabilities.lengthFieldSize, count: length,
                sizes: Type4TransferSizes(capabilities: capabilities, limits: limits, maximumReadLength: maximumReadLength),
                offsetObjects: capabilities.majorVersion >= 3
            )
            let action = try reader.start()
            state = .reading(file, reader)
            guard case .send(let command) = action else {
                throw TagEngineError(.unexpectedResponse, "nothing to read for a message of \(length) bytes")
            }
            return .send(command)
        }
    }
}
