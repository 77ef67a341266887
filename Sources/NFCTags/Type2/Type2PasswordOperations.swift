import NFCTransport

/// Sets up password protection on an NTAG21x or Ultralight EV1.
///
/// NTAG213/215/216 §8.8 (configuration pages) and §8.8.1: PWD and PACK are written, then ACCESS in
/// CFG1 (PROT bit 7: reads need the password too), and AUTH0 in CFG0 last: until AUTH0 moves,
/// nothing is protected, so an interruption never leaves pages protected by a password that was not
/// stored. The configuration pages come from the model GET_VERSION names. On a tag already
/// protected, authenticate first on the same connection.
typealias Type2SetPasswordOperation = Type2PlannedWriteOperation<Type2SetPasswordPlan>

extension Type2PlannedWriteOperation where Plan == Type2SetPasswordPlan {
    /// - Parameters:
    ///   - password: PWD, 4 bytes.
    ///   - pack: PACK, the 2 bytes the tag answers a right password with.
    ///   - firstProtectedPage: AUTH0, the first protected page (0–255; past the last page: none).
    ///   - protectReads: whether reading protected pages needs the password too (PROT).
    ///   - limits: the connection's limits.
    init(password: [UInt8], pack: [UInt8], firstProtectedPage: Int, protectReads: Bool, limits: ExchangeLimits) {
        self.init(
            plan: Type2SetPasswordPlan(password: password, pack: pack, firstProtectedPage: firstProtectedPage, protectReads: protectReads),
            limits: limits
        )
    }
}

/// The plan of ``Type2SetPasswordOperation``.
struct Type2SetPasswordPlan: Type2WritePlan {
    static var operationName: String { "set-password" }

    let password: [UInt8]
    let pack: [UInt8]
    let firstProtectedPage: Int
    let protectReads: Bool

    func check() throws(TagEngineError) {
        guard password.count == 4 else { throw TagEngineError(.unsupported, "PWD has 4 bytes, not \(password.count)") }
        guard pack.count == 2 else { throw TagEngineError(.unsupported, "PACK has 2 bytes, not \(pack.count)") }
        guard (0...0xFF).contains(firstProtectedPage) else {
            throw TagEngineError(.unsupported, "AUTH0 is one byte; page \(firstProtectedPage) is out of range")
        }
    }

    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int]) {
        let model = try Type2PasswordSupport.model(answer)
        return (model, [model.configurationPage0, model.configurationPage1])
    }

    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        let (cfg0, cfg1) = try Type2PasswordSupport.configuration(model, memory)
        var newCFG1 = cfg1
        newCFG1[0] = protectReads ? cfg1[0] | 0x80 : cfg1[0] & 0x7F
        var newCFG0 = cfg0
        newCFG0[3] = UInt8(firstProtectedPage)
        var writes = [
            Type2PageWrite(page: model.passwordPage, bytes: password),
            Type2PageWrite(page: model.packPage, bytes: pack + [0x00, 0x00]),
        ]
        if newCFG1 != cfg1 { writes.append(Type2PageWrite(page: model.configurationPage1, bytes: newCFG1)) }
        if newCFG0 != cfg0 { writes.append(Type2PageWrite(page: model.configurationPage0, bytes: newCFG0)) }
        return writes
    }
}

/// Removes password protection: PWD_AUTH with the current password, then AUTH0 = FFh.
///
/// NTAG213/215/216 §8.8.1: AUTH0 past the last page turns protection off; PWD and PACK stay.
public struct Type2RemovePasswordOperation: TagOperation {
    enum State: Sendable {
        case idle
        case probing(Type2VersionProbe)
        case authenticating(Type2AuthenticateOperation, Type2Model, Type2ReadLimits)
        case reading(Type2PageReader, Type2Model)
        case writing(Type2PageWriter)
        case finished
    }

    private let password: [UInt8]
    private let limits: ExchangeLimits
    private var state = State.idle

    /// - Parameters:
    ///   - currentPassword: the 4-byte password in force.
    ///   - limits: the connection's limits.
    public init(currentPassword: [UInt8], limits: ExchangeLimits) {
        password = currentPassword
        self.limits = limits
    }

    /// Sends GET_VERSION to learn the configuration pages.
    /// - Throws: `.unsupported` when the reader cannot send GET_VERSION or PWD_AUTH.
    public mutating func start() throws(TagEngineError) -> TagStep<Void> {
        var probe = Type2VersionProbe(limits: limits)
        let step = probe.start()
        return try probed(probe, step)
    }

    /// Authenticates, reads CFG0 and, unless AUTH0 is already FFh, writes it with AUTH0 = FFh.
    /// - Throws: `.unsupported` for a chip whose configuration pages are unknown; the errors of
    ///   ``Type2AuthenticateOperation``; `.unexpectedResponse` after it finished.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .authenticating(var authentication, let model, let readLimits):
            let step = try authentication.resume(with: outcome)
            if let next: TagStep<Void> = Type2Step.forward(step) {
                state = .authenticating(authentication, model, readLimits)
                return next
            }
            var reader = Type2PageReader(plan: try readLimits.plan([model.configurationPage0]), into: Type2Memory())
            let first = reader.start()
            state = .reading(reader, model)
            return Type2Step.forward(first) ?? .done(())
        case .reading(var reader, let model):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Void> = Type2Step.forward(step) {
                state = .reading(reader, model)
                return next
            }
            guard let cfg0 = reader.memory.page(model.configurationPage0) else {
                throw TagEngineError(.unexpectedResponse, "CFG0 missing after reading it")
            }
            var writes: [Type2PageWrite] = []
            if cfg0[3] != 0xFF { writes.append(Type2PageWrite(page: model.configurationPage0, bytes: [cfg0[0], cfg0[1], cfg0[2], 0xFF])) }
            var writer = Type2PageWriter(writes)
            let first = writer.start()
            state = .writing(writer)
            if case .done = first { state = .finished }
            return first
        case .writing(var writer):
            let step = try writer.resume(with: outcome)
            state = .writing(writer)
            if case .done = step { state = .finished }
            return step
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "remove-password resumed in state \(state)")
        }
    }

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<Void> {
        if let next: TagStep<Void> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        let model = try Type2PasswordSupport.model(answer)
        var authentication = Type2AuthenticateOperation(password: password, limits: limits)
        let first = try authentication.start()
        state = .authenticating(authentication, model, Type2ReadLimits(limits: limits, cap: nil, version: answer.version))
        return Type2Step.forward(first) ?? .done(())
    }
}

/// What the password operations share.
enum Type2PasswordSupport {
    /// The model, which gives the configuration pages.
    static func model(_ answer: Type2VersionAnswer) throws(TagEngineError) -> Type2Model {
        if let model = answer.model { return model }
        switch answer {
        case .notAsked(let reader):
            throw TagEngineError(
                .unsupported,
                "\(reader) cannot send GET_VERSION or PWD_AUTH (it carries READ and WRITE only), so the configuration pages are unknown")
        case .refused: throw TagEngineError(.unsupported, "the tag does not answer GET_VERSION: it has no PWD_AUTH protection")
        case .answered(let version):
            throw TagEngineError(.unsupported, "GET_VERSION \(version) names no chip whose configuration pages are known")
        }
    }

    /// CFG0 and CFG1 as read.
    static func configuration(_ model: Type2Model, _ memory: Type2Memory) throws(TagEngineError) -> ([UInt8], [UInt8]) {
        guard let cfg0 = memory.page(model.configurationPage0), let cfg1 = memory.page(model.configurationPage1) else {
            throw TagEngineError(.unexpectedResponse, "configuration pages missing after reading them")
        }
        return (cfg0, cfg1)
    }
}
