import NFCTransport

/// One page to program.
struct Type2PageWrite: Sendable, Hashable {
    var page: Int
    var bytes: [UInt8]
}

/// Sends WRITE (A2h) for each page in order and expects the 4-bit ACK: an embedded sub-machine.
///
/// T2TOP §5.2 (WRITE); NTAG213/215/216 §10.4. A NAK (locked or password-protected page) leaves the tag
/// mute: the writer reactivates it, then reports `tagError` with the NAK code and the page.
struct Type2PageWriter: Sendable {
    enum State: Sendable {
        case writing(index: Int)
        case reactivatingAfter(TagEngineError)
        case finished
    }

    let writes: [Type2PageWrite]
    private var state: State = .writing(index: 0)

    init(_ writes: [Type2PageWrite]) { self.writes = writes }

    mutating func start() -> TagStep<Void> { step(at: 0) }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .writing(let index):
            let page = writes[index].page
            let answer = try outcome.answer()
            guard answer == [Type2Command.ack] else {
                if Type2Command.isNAK(answer) {
                    state = .reactivatingAfter(
                        TagEngineError(
                            .tagError, "WRITE \(Type2Command.hex(page)) refused with \(Type2Command.describeNAK(answer[0]))",
                            tagStatus: answer))
                    return .reactivate
                }
                throw TagEngineError(
                    .unexpectedResponse, "WRITE \(Type2Command.hex(page)) answered \(answer.count) bytes, expected the 4-bit ACK")
            }
            return step(at: index + 1)
        case .reactivatingAfter(let error):
            state = .finished
            throw error
        case .finished:
            throw TagEngineError(.unexpectedResponse, "page writer resumed after it finished")
        }
    }

    private mutating func step(at index: Int) -> TagStep<Void> {
        guard index < writes.count else {
            state = .finished
            return .done(())
        }
        state = .writing(index: index)
        let write = writes[index]
        return .transceive(Type2Command.write(write.page, write.bytes), timeout: Type2Command.writeTimeout)
    }
}
