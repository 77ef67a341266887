import ISO7816
import NFCBytes
import NFCTransport

/// Reads the CC file and the NDEF file whole, for `nfc dump`: rows of 16 bytes labelled
/// `E103:0000`, `E104:0010`… (file identifier and offset).
///
/// The CC is read up to CCLEN and shown even when its values are out of range; the NDEF file is
/// read up to the size the CC gives (at most 16 MiB), with the largest READ BINARY commands the
/// CC and reader allow. A read refused part-way (a file smaller than its CC says, a protected
/// file) ends that file's rows without an error: a dump shows what can be read.
public struct Type4DumpProcedure: Type4Procedure {
    /// Rows of (`file:offset` label, up to ``rowLength`` bytes).
    public typealias Output = [(String, [UInt8])]

    enum State: Sendable {
        case selectingApplication(version1: Bool)
        case selectingCapabilityContainer(version1: Bool)
        case readingCapabilityContainer(version1: Bool, Type4FileReader, prefix: [UInt8])
        case selectingNDEFFile(version1: Bool, Type4Capabilities)
        case readingNDEFFile(Type4FileReader)
        case done
    }

    /// The most NDEF file bytes dumped.
    public static let largestDump = 1 << 24
    /// Bytes per row.
    public static let rowLength = 16

    let limits: ExchangeLimits
    let maximumReadLength: Int?
    var state = State.selectingApplication(version1: false)
    var rows: [(String, [UInt8])] = []

    /// A dump over a connection.
    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on Ne per READ BINARY of the NDEF file (`nil`: what the CC and reader allow).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
    }

    /// SELECT of the NDEF Tag Application `D2760000850101`.
    public mutating func start() throws(TagEngineError) -> Type4Action<Output> {
        state = .selectingApplication(version1: false)
        return .send(Type4Commands.selectApplication(version1: false))
    }

    /// The next SELECT or READ BINARY, or the rows read when a file ends or a command is refused.
    /// - Throws: `.notFormatted` when the card has no NDEF Tag Application; `.unexpectedResponse` for an
    ///   answer after the end or more bytes than asked.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Output> {
        let sw = response.statusWord
        switch state {
        case .selectingApplication(let version1):
            if sw == .fileNotFound && !version1 {
                state = .selectingApplication(version1: true)
                return .send(Type4Commands.selectApplication(version1: true))
            }
            guard sw == .success else {
                throw Type4Status.failure(.notFormatted, "the card has no NDEF Tag Application to dump", sw)
            }
            state = .selectingCapabilityContainer(version1: version1)
            return .send(Type4Commands.selectFile(Type4Commands.capabilityContainerID, version1: version1))

        case .selectingCapabilityContainer(let version1):
            guard sw == .success else { return finish() }
            let sizes = Type4TransferSizes(readLength: min(15, limits.maxResponseLength - 2), updateLength: 1)
            return read(
                .readingCapabilityContainer(
                    version1: version1,
                    Type4FileReader(
                        fileID: Type4Commands.capabilityContainerID, offset: 0, count: 15, sizes: sizes, offsetObjects: false, lenient: true
                    ), prefix: []))

        case .readingCapabilityContainer(let version1, var reader, let prefix):
            switch try reader.handle(response) {
            case .send(let command):
                state = .readingCapabilityContainer(version1: version1, reader, prefix: prefix)
                return .send(command)
            case .done(let bytes):
                return try afterCapabilityContainer(version1: version1, bytes: prefix + bytes, firstPart: prefix.isEmpty)
            }

        case .selectingNDEFFile(_, let capabilities):
            guard sw == .success else { return finish() }
            let sizes = Type4TransferSizes(capabilities: capabilities, limits: limits, maximumReadLength: maximumReadLength)
            return read(
                .readingNDEFFile(
                    Type4FileReader(
                        fileID: capabilities.ndefFileID, offset: 0, count: min(capabilities.maxNDEFFileSize, Self.largestDump),
                        sizes: sizes, offsetObjects: capabilities.majorVersion >= 3, lenient: true
                    )))

        case .readingNDEFFile(var reader):
            switch try reader.handle(response) {
            case .send(let command):
                state = .readingNDEFFile(reader)
                return .send(command)
            case .done(let bytes):
                append(bytes, file: reader.fileID)
                return finish()
            }

        case .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after the dump ended")
        }
    }

    /// After the first 15 bytes, the rest up to CCLEN; after the whole CC, the NDEF file it names.
    private mutating func afterCapabilityContainer(version1: Bool, bytes: [UInt8], firstPart: Bool) throws(TagEngineError) -> Type4Action<
        Output
    > {
        let ccLength = bytes.count >= 2 ? min(Int(bytes[0]) << 8 | Int(bytes[1]), 0xFFFE) : 0
        if firstPart && bytes.count == 15 && ccLength > 15 {
            let mle = bytes.count >= 5 ? Int(bytes[3]) << 8 | Int(bytes[4]) : 15
            let sizes = Type4TransferSizes(readLength: max(15, min(mle, 256, limits.maxResponseLength - 2)), updateLength: 1)
            return read(
                .readingCapabilityContainer(
                    version1: version1,
                    Type4FileReader(
                        fileID: Type4Commands.capabilityContainerID, offset: 15, count: ccLength - 15, sizes: sizes, offsetObjects: false,
                        lenient: true
                    ), prefix: bytes))
        }
        append(bytes, file: Type4Commands.capabilityContainerID)
        guard let capabilities = try? Type4Capabilities(parsing: Array(bytes.prefix(Type4Capabilities.length(toParse: bytes)))) else {
            return finish()
        }
        state = .selectingNDEFFile(version1: version1, capabilities)
        return .send(Type4Commands.selectFile(capabilities.ndefFileID, version1: version1))
    }

    /// Starts a file read (an empty read finishes the dump).
    private mutating func read(_ next: State) -> Type4Action<Output> {
        var next = next
        let action: Type4Action<[UInt8]>?
        switch next {
        case .readingCapabilityContainer(let version1, var reader, let prefix):
            action = try? reader.start()
            next = .readingCapabilityContainer(version1: version1, reader, prefix: prefix)
        case .readingNDEFFile(var reader):
            action = try? reader.start()
            next = .readingNDEFFile(reader)
        default:
            action = nil
        }
        guard case .send(let command) = action else { return finish() }
        state = next
        return .send(command)
    }

    private mutating func append(_ bytes: [UInt8], file: UInt16) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.rowLength, bytes.count)
            let label =
                "\(Type4Status.hex(file)):\(Hex.encode([UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset)], uppercase: true))"
            rows.append((offset > 0xFFFF ? "\(Type4Status.hex(file)):\(Self.longOffset(offset))" : label, Array(bytes[offset..<end])))
            offset = end
        }
    }

    private static func longOffset(_ offset: Int) -> String {
        Hex.encode(
            [UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset)],
            uppercase: true)
    }

    private mutating func finish() -> Type4Action<Output> {
        state = .done
        return .done(rows)
    }
}
