import NFCTransport

/// Carries out a ``Type2ReadPlan``, storing each answer in a ``Type2Memory``: a sub-machine the
/// operations embed.
///
/// A READ answer must have 16 bytes and a FAST_READ answer 4 bytes per page; a NAK (the page is
/// absent, or read-protected by PWD_AUTH) leaves the tag mute, so the reader reactivates it before
/// reporting `tagError` (NTAG213/215/216 §9.3).
struct Type2PageReader: Sendable {
    enum State: Sendable {
        case reading(index: Int)
        case reactivatingAfter(TagEngineError)
        case finished
    }

    private(set) var memory: Type2Memory
    let plan: Type2ReadPlan
    private var state: State

    init(plan: Type2ReadPlan, into memory: Type2Memory) {
        self.plan = plan
        self.memory = memory
        self.state = .reading(index: 0)
    }

    mutating func start() -> TagStep<Type2Memory> { step(at: 0) }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type2Memory> {
        switch state {
        case .reading(let index):
            let command = plan.commands[index]
            let answer = try outcome.answer()
            if Type2Command.isNAK(answer) {
                state = .reactivatingAfter(
                    TagEngineError(
                        .tagError, "\(command.description) refused with \(Type2Command.describeNAK(answer[0]))", tagStatus: answer))
                return .reactivate
            }
            guard answer.count == command.expectedLength else {
                throw TagEngineError(
                    .unexpectedResponse, "\(command.description) answered \(answer.count) bytes, expected \(command.expectedLength)")
            }
            switch command {
            case .read(let page, let keep): memory.store(Array(answer.prefix(keep * 4)), from: page)
            case .fastRead(let start, _): memory.store(answer, from: start)
            }
            return step(at: index + 1)
        case .reactivatingAfter(let error):
            state = .finished
            throw error
        case .finished:
            throw TagEngineError(.unexpectedResponse, "page reader resumed after it finished")
        }
    }

    private mutating func step(at index: Int) -> TagStep<Type2Memory> {
        guard index < plan.commands.count else {
            state = .finished
            return .done(memory)
        }
        state = .reading(index: index)
        let command = plan.commands[index]
        return .transceive(command.frame, timeout: Type2Command.readTimeout(bytes: command.expectedLength))
    }
}
