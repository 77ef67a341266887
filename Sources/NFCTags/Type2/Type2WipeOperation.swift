import NFCTransport

/// Wipes an NTAG21x or Ultralight EV1 back to an empty formatted tag, whatever its TLVs hold.
///
/// Page 04h gets `03 00 FE 00` (an empty NDEF TLV and a Terminator, as ``Type2FormatOperation``
/// writes) and every other user page zeros, in the tearing-safe order of ``Type2MemoryRewrite``;
/// a blank CC is then written as formatting does (T2TOP §6.3.1), last. A valid CC stays (it is
/// one-time programmable, T2TOP §2.1.3); one that forbids writing, a damaged one, and a set lock
/// bit over a page that must change are refused before anything is written. Passwords and the
/// configuration pages are left alone (`nfc unprotect` removes a password).
typealias Type2WipeOperation = Type2PlannedWriteOperation<Type2WipePlan>

extension Type2PlannedWriteOperation where Plan == Type2WipePlan {
    init(authenticated: Bool = false, limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.init(plan: Type2WipePlan(authenticated: authenticated), limits: limits, maximumReadLength: maximumReadLength)
    }
}

/// The plan of ``Type2WipeOperation``.
struct Type2WipePlan: Type2WritePlan {
    static var operationName: String { "wipe" }

    /// Whether PWD_AUTH opened the tag first (pages from AUTH0 on are then writable).
    var authenticated = false

    func check() throws(TagEngineError) {}

    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int]) {
        let model = try Type2MemoryRewrite.model(answer, doing: "wipe")
        return (model, Type2MemoryRewrite.pagesToRead(model))
    }

    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        guard let page3 = memory.page(3) else { throw TagEngineError(.unexpectedResponse, "page 03h missing after reading it") }
        var capabilityContainer: [UInt8]?
        switch Type2CapabilityContainer.parse(page3, userMemorySize: model.userMemorySize) {
        case .blank:
            capabilityContainer = Type2CapabilityContainer.formatted(size: model.capabilityContainerSize)
        case .valid(let cc):
            guard cc.grantsWrite else {
                throw TagEngineError(.readOnly, "cannot wipe: the capability container \(cc) grants no write access (a locked tag)")
            }
        case .noMagic, .invalid:
            throw TagEngineError(
                .unsupported,
                "cannot wipe: page 03h holds \(Type2CapabilityContainer(bytes: page3)), not a usable CC, and it is one-time programmable"
            )
        }
        var target: [Int: [UInt8]] = [Type2MemoryRewrite.firstUserPage: Type2FormatPlan.emptyTLVs]
        for page in Type2MemoryRewrite.firstUserPage + 1...model.lastUserPage { target[page] = [0, 0, 0, 0] }
        var writes = try Type2MemoryRewrite.writes(target: target, model: model, memory: memory, what: "wipe")
        if let capabilityContainer {
            guard try !Type2MemoryRewrite.lockedPages(model: model, memory: memory).contains(3) else {
                throw TagEngineError(.readOnly, "cannot wipe: the blank CC (page 03h) is locked and cannot be formatted")
            }
            writes.append(Type2PageWrite(page: 3, bytes: capabilityContainer))
        }
        try Type2MemoryRewrite.checkPassword(writes, model: model, memory: memory, authenticated: authenticated, what: "wipe")
        return writes
    }
}
