import NFCTransport

/// Block writes and locks sent one after the other, in the order given (the order is what makes
/// a write tearing-safe), as a sub-machine over a ``Type5Session``.
///
/// Write Single Block and Lock Block are idempotent, so a damaged or missing answer is asked
/// again (twice). Error 0x12 (locked content) becomes `.readOnly`; Lock Block's 0x11 (already
/// locked) is success.
struct Type5WriteQueue: Sendable {
    enum Item: Sendable, Hashable {
        case write(block: Int, bytes: [UInt8])
        case lock(block: Int)
    }

    private(set) var items: [Item]
    private(set) var index = 0
    private var retries = 0
    /// With `stopWhenLockUnsupported`, set when the tag answered Lock Block with "not supported".
    private(set) var lockUnsupported = false
    /// Stop without error at a Lock Block the tag does not support (error 0x01 or 0x02).
    let stopWhenLockUnsupported: Bool

    init(_ items: [Item], stopWhenLockUnsupported: Bool = false) {
        self.items = items
        self.stopWhenLockUnsupported = stopWhenLockUnsupported
    }

    var isFinished: Bool { index >= items.count || lockUnsupported }

    /// The next command, or `nil` when all are done.
    func next(_ session: Type5Session) -> Type5Exchange? {
        guard !isFinished else { return nil }
        switch items[index] {
        case .write(let block, let bytes): return session.writeRequest(block: block, data: bytes)
        case .lock(let block): return session.lockRequest(block: block)
        }
    }

    /// Takes the answer to the current command.
    /// - Throws: `.readOnly` for a locked block, `.tagError` for other refusals, transport failures.
    mutating func absorb(_ outcome: Result<[UInt8], TransportError>) throws(TagEngineError) {
        guard !isFinished else { throw TagEngineError(.unexpectedResponse, "Type 5 write: an answer arrived with no command pending") }
        let item = items[index]
        let name: String
        switch item {
        case .write(let block, _): name = "Write Single Block \(block)"
        case .lock(let block): name = "Lock Block \(block)"
        }
        let answer: [UInt8]
        switch outcome {
        case .success(let bytes): answer = bytes
        case .failure(let error):
            if error.code == .transmission || error.code == .timeout, retries < 2 {
                retries += 1
                return
            }
            throw TagEngineError(transport: error)
        }
        retries = 0
        do {
            _ = try Type5Frame.payload(of: answer, for: name)
        } catch {
            let code = Type5Frame.errorCode(of: error)
            let isLock = if case .lock = item { true } else { false }
            switch code {
            case Type5Frame.ErrorCode.alreadyLocked? where isLock:
                break
            case Type5Frame.ErrorCode.notSupported? where isLock && stopWhenLockUnsupported,
                Type5Frame.ErrorCode.notRecognized? where isLock && stopWhenLockUnsupported:
                lockUnsupported = true
                return
            case Type5Frame.ErrorCode.lockedContent?:
                throw TagEngineError(.readOnly, "\(name): the block is locked", tagStatus: error.tagStatus)
            default:
                throw error
            }
        }
        index += 1
    }
}
