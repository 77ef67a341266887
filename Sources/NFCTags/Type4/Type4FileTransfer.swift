import ISO7816
import NFCBytes

/// Reads `count` bytes of the current EF from `offset`, in READ BINARY commands of at most
/// ``Type4TransferSizes/readLength`` (T4T 2.0 command set; T4T 3.0 `B1` beyond offset 7FFF).
///
/// A tag may return fewer bytes than asked (its buffer is smaller than its CC says); the reader
/// goes on from where the answer ended. An empty answer, more bytes than asked, or a status other
/// than `9000` ends it with an error — or, when `lenient` (for dumps), with what was read so far.
public struct Type4FileReader: Type4Procedure {
    /// The bytes read: `count` of them, or fewer when a lenient read stopped early.
    public typealias Output = [UInt8]

    enum State: Sendable {
        case idle
        case reading(CommandAPDU, asked: Int)
        case done
    }

    /// The file being read, for error messages.
    public let fileID: UInt16
    /// The byte offset in the file where reading starts.
    public let offset: Int
    /// How many bytes to read (a negative count reads nothing).
    public let count: Int
    let sizes: Type4TransferSizes
    /// Whether offsets beyond 7FFF may be read with `B1` (mapping 3.0).
    let offsetObjects: Bool
    /// Whether an error status ends the read with the bytes so far instead of an error.
    let lenient: Bool
    var state = State.idle
    /// The bytes read so far.
    public private(set) var data: [UInt8] = []

    /// A reader of the currently selected file.
    /// - Parameters:
    ///   - fileID: the file's identifier, for error messages.
    ///   - offset: where to start, in bytes.
    ///   - count: how many bytes to read (negative counts as 0).
    ///   - sizes: the largest READ BINARY the tag and reader allow.
    ///   - offsetObjects: whether offsets beyond 7FFF may be read with `B1` (mapping 3.0).
    ///   - lenient: whether a refusal or empty answer ends the read with the bytes so far (for dumps)
    ///     instead of an error.
    public init(fileID: UInt16, offset: Int, count: Int, sizes: Type4TransferSizes, offsetObjects: Bool, lenient: Bool = false) {
        self.fileID = fileID
        self.offset = offset
        self.count = max(count, 0)
        self.sizes = sizes
        self.offsetObjects = offsetObjects
        self.lenient = lenient
    }

    /// The first READ BINARY, or done at once when there is nothing to read.
    /// - Throws: `.unsupported` when the offset is beyond 7FFF without `offsetObjects` (unless lenient).
    public mutating func start() throws(TagEngineError) -> Type4Action<[UInt8]> {
        try next()
    }

    /// Appends the answer's data and sends the next READ BINARY; done when `count` bytes are read.
    /// - Throws: unless lenient, for a status other than `9000` `.invalidNDEFArea` (end of file),
    ///   `.authenticationFailed` (access refused) or `.tagError`, and `.unexpectedResponse` for an empty
    ///   answer; `.unexpectedResponse` for more bytes than asked, lenient or not.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<[UInt8]> {
        guard case .reading(let command, let asked) = state else {
            throw TagEngineError(.unexpectedResponse, "READ BINARY answer with no read in flight")
        }
        let position = offset + data.count
        guard response.statusWord == .success else {
            if lenient { return finish() }
            throw Type4Status.readFailure(response.statusWord, file: fileID, offset: position)
        }
        let chunk = try Type4Commands.readData(response, of: command)
        guard !chunk.isEmpty else {
            if lenient { return finish() }
            throw TagEngineError(
                .unexpectedResponse, "READ BINARY of file \(Type4Status.hex(fileID)) at offset \(position) returned no data",
                tagStatus: response.statusWord.bytes
            )
        }
        guard chunk.count <= asked else {
            throw TagEngineError(
                .unexpectedResponse,
                "READ BINARY of file \(Type4Status.hex(fileID)) at offset \(position) asked for \(asked) bytes and got \(chunk.count)")
        }
        data += chunk
        return try next()
    }

    private mutating func next() throws(TagEngineError) -> Type4Action<[UInt8]> {
        let remaining = count - data.count
        guard remaining > 0 else { return finish() }
        let position = offset + data.count
        if position > Type4Commands.largestShortOffset && !offsetObjects {
            if lenient { return finish() }
            throw TagEngineError(
                .unsupported,
                "offset \(position) of file \(Type4Status.hex(fileID)) is beyond 32767, which only READ BINARY B1 of mapping 3.0 reaches")
        }
        let asked = min(remaining, sizes.readCount(at: position))
        guard asked > 0 else {
            throw TagEngineError(.unsupported, "MLe \(sizes.readLength) leaves no room for data in a READ BINARY B1 answer")
        }
        let command = Type4Commands.readBinary(offset: position, count: asked)
        state = .reading(command, asked: asked)
        return .send(command)
    }

    private mutating func finish() -> Type4Action<[UInt8]> {
        state = .done
        return .done(data)
    }
}

/// Writes a list of ranges of the current EF with UPDATE BINARY, in order (T4T 2.0 command set;
/// T4T 3.0 `D7` beyond offset 7FFF). Each must answer `9000`.
public struct Type4FileWriter: Type4Procedure {
    /// Nothing: the writer is done when every write is acknowledged.
    public typealias Output = Void

    /// The file being written, for error messages.
    public let fileID: UInt16
    /// The writes still to send, first first.
    public private(set) var writes: [(offset: Int, data: [UInt8])]
    private var inFlight: Int?

    /// A writer of the currently selected file.
    /// - Parameters:
    ///   - fileID: the file's identifier, for error messages.
    ///   - writes: the byte ranges to write, as (offset, data), sent in this order.
    public init(fileID: UInt16, writes: [(offset: Int, data: [UInt8])]) {
        self.fileID = fileID
        self.writes = writes
    }

    /// The first UPDATE BINARY, or done at once when there is nothing to write.
    public mutating func start() throws(TagEngineError) -> Type4Action<Void> {
        next()
    }

    /// Sends the next UPDATE BINARY; done after the last is acknowledged.
    /// - Throws: for a status other than `9000`, with it in `tagStatus`: `.readOnly` when security
    ///   conditions refuse the write, `.invalidNDEFArea` when the file is too small, `.tagError` otherwise.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Void> {
        guard let offset = inFlight else {
            throw TagEngineError(.unexpectedResponse, "UPDATE BINARY answer with no write in flight")
        }
        guard response.statusWord == .success else {
            throw Type4Status.updateFailure(response.statusWord, file: fileID, offset: offset)
        }
        return next()
    }

    private mutating func next() -> Type4Action<Void> {
        guard !writes.isEmpty else {
            inFlight = nil
            return .done(())
        }
        let write = writes.removeFirst()
        inFlight = write.offset
        return .send(Type4Commands.updateBinary(offset: write.offset, data: write.data))
    }
}
