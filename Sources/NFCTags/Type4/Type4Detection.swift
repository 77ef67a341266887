import ISO7816
import NFCTransport

/// What NDEF detection found: the CC and, when read, the NDEF file's length field.
public struct Type4NDEFFile: Sendable, Hashable {
    /// The parsed capability container.
    public var capabilities: Type4Capabilities
    /// Whether the tag answered only the mapping 1.0 AID (file SELECT then uses P2 `00`).
    public var usesVersion1Commands: Bool
    /// NLEN or ENLEN as read from the NDEF file; `nil` when detection stopped at the CC.
    public var messageLength: Int?

    /// Whether the length field is valid: `0` (INITIALIZED) or 3 up to the capacity (the NLEN and
    /// ENLEN coding of T4T 2.0 §5.2 and T4T 3.0: the smallest NDEF message has 3 bytes).
    public var messageLengthIsValid: Bool {
        guard let messageLength else { return false }
        return messageLength == 0 || (3...capabilities.capacity).contains(messageLength)
    }

    /// The status Core NFC reports: read-write or read-only, the capacity, the message length.
    public var status: NDEFStatus {
        NDEFStatus(
            state: capabilities.isWritable ? .readWrite : .readOnly, capacity: capabilities.capacity,
            messageLength: messageLengthIsValid ? messageLength ?? 0 : 0
        )
    }
}

/// The NDEF detection procedure of NFC Forum Type 4 Tag 2.0 §5.4 (and T4T 3.0 for ENLEN):
/// SELECT the NDEF Tag Application (`D2760000850101`; on `6A82` the mapping 1.0 AID), SELECT the
/// CC file `E103`, READ BINARY its first 15 bytes (17 for the Extended NDEF File Control TLV),
/// check them, SELECT the NDEF file, READ BINARY NLEN (2 bytes) or ENLEN (4 bytes).
///
/// Errors: no NDEF application `.notFormatted`; a CC file missing, unreadable or out of range,
/// or an NDEF file the CC names but the tag lacks `.invalidCapabilityContainer`; read access
/// other than `00` `.authenticationFailed`. An NLEN beyond the file is not an error here
/// (``Type4NDEFFile/messageLengthIsValid``): writing or formatting repairs it, reading refuses it.
public struct Type4Detection: Type4Procedure {
    /// Detection gives the CC and, at ``Depth/messageLength``, the NLEN or ENLEN value.
    public typealias Output = Type4NDEFFile

    /// How far to go.
    public enum Depth: Sendable, Hashable {
        /// Stop after the CC (the CC file stays selected).
        case capabilities
        /// Read NLEN/ENLEN too (the NDEF file stays selected).
        case messageLength
    }

    enum State: Sendable {
        case idle
        case selectingApplication(version1: Bool)
        case selectingCapabilityContainer(version1: Bool)
        case readingCapabilityContainer(version1: Bool, prefix: [UInt8])
        case selectingNDEFFile(Type4NDEFFile)
        case readingLength(Type4NDEFFile)
        case done
    }

    /// Whether detection stops after the CC or goes on to read NLEN/ENLEN.
    public let depth: Depth
    var state = State.idle

    /// A detection going as far as `depth` (by default through NLEN/ENLEN).
    public init(depth: Depth = .messageLength) {
        self.depth = depth
    }

    /// SELECT of the NDEF Tag Application `D2760000850101`.
    public mutating func start() throws(TagEngineError) -> Type4Action<Type4NDEFFile> {
        state = .selectingApplication(version1: false)
        return .send(Type4Commands.selectApplication(version1: false))
    }

    /// The next SELECT or READ BINARY of the procedure, or the NDEF file when done.
    /// - Throws: `.notFormatted`, `.invalidCapabilityContainer` or `.authenticationFailed` as the type
    ///   describes; `.unexpectedResponse` for a length field of the wrong size or an answer after the end.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Type4NDEFFile> {
        let sw = response.statusWord
        switch state {
        case .selectingApplication(let version1):
            if sw == .fileNotFound && !version1 {
                state = .selectingApplication(version1: true)
                return .send(Type4Commands.selectApplication(version1: true))
            }
            guard sw == .success else {
                throw Type4Status.failure(
                    .notFormatted,
                    "the tag has no NDEF Tag Application: SELECT D2760000850101\(version1 ? " and D2760000850100" : "") refused", sw)
            }
            state = .selectingCapabilityContainer(version1: version1)
            return .send(Type4Commands.selectFile(Type4Commands.capabilityContainerID, version1: version1))

        case .selectingCapabilityContainer(let version1):
            guard sw == .success else {
                throw Type4Status.failure(.invalidCapabilityContainer, "the NDEF application has no CC file E103: SELECT refused", sw)
            }
            state = .readingCapabilityContainer(version1: version1, prefix: [])
            return .send(.readBinary(offset: 0, length: 15))

        case .readingCapabilityContainer(let version1, let prefix):
            guard sw == .success else {
                throw Type4Status.failure(
                    .invalidCapabilityContainer, "READ BINARY of the CC file E103 at offset \(prefix.count) refused", sw)
            }
            let bytes = prefix + response.data
            let needed = Type4Capabilities.length(toParse: bytes)
            if bytes.count < needed && !response.data.isEmpty && bytes.count >= 15 {
                state = .readingCapabilityContainer(version1: version1, prefix: bytes)
                return .send(.readBinary(offset: bytes.count, length: needed - bytes.count))
            }
            let file = Type4NDEFFile(capabilities: try Type4Capabilities(parsing: bytes), usesVersion1Commands: version1)
            guard depth == .messageLength else {
                state = .done
                return .done(file)
            }
            guard file.capabilities.isReadable else {
                throw TagEngineError(
                    .authenticationFailed,
                    "the CC's read access \(Type4Capabilities.hex(file.capabilities.readAccess)) is a proprietary condition; reading needs the chip's own commands"
                )
            }
            state = .selectingNDEFFile(file)
            return .send(Type4Commands.selectFile(file.capabilities.ndefFileID, version1: version1))

        case .selectingNDEFFile(let file):
            guard sw == .success else {
                let id = Type4Status.hex(file.capabilities.ndefFileID)
                throw Type4Status.failure(.invalidCapabilityContainer, "the CC names NDEF file \(id) but SELECT of it was refused", sw)
            }
            state = .readingLength(file)
            return .send(.readBinary(offset: 0, length: file.capabilities.lengthFieldSize))

        case .readingLength(var file):
            let size = file.capabilities.lengthFieldSize
            guard sw == .success else {
                throw Type4Status.readFailure(sw, file: file.capabilities.ndefFileID, offset: 0)
            }
            guard response.data.count == size else {
                throw TagEngineError(
                    .unexpectedResponse,
                    "READ BINARY of \(size == 2 ? "NLEN" : "ENLEN") in file \(Type4Status.hex(file.capabilities.ndefFileID)) returned \(response.data.count) bytes, not \(size)"
                )
            }
            file.messageLength = response.data.reduce(0) { $0 << 8 | Int($1) }
            state = .done
            return .done(file)

        case .idle, .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after NDEF detection ended")
        }
    }
}
