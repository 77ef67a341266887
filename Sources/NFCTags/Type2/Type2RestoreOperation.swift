import NFCTransport

/// What ``Type2Engine/restore(_:parts:authenticated:on:)`` writes besides the user memory and the CC.
public struct Type2RestoreParts: OptionSet, Sendable, Hashable {
    /// The parts as bits.
    public let rawValue: Int
    /// The parts these bits name.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// CFG0 and CFG1 (mirror, AUTH0, ACCESS), and PWD and PACK when the image knows them.
    public static let configuration = Type2RestoreParts(rawValue: 1 << 0)
    /// The static and dynamic lock bits, last, and the CC's read-only marker (write access Fh):
    /// permanent. Without it the copy stays writable.
    public static let locks = Type2RestoreParts(rawValue: 1 << 1)
    /// A copy that could not read some user pages: write the pages it holds and leave those as they
    /// are (without it such a copy is refused: its message may run into pages it lacks).
    public static let partial = Type2RestoreParts(rawValue: 1 << 2)
}

/// Writes a copy (``Type2Capture``) back onto a tag of the same model.
///
/// The user memory goes first in the tearing-safe order of ``Type2MemoryRewrite`` (pages that
/// already hold the image's bytes are skipped, pages the image could not read are left alone),
/// then the CC: one-time programmable (T2TOP §2.1.3), so it is written only when the image's CC
/// sets bits and clears none; with `.locks`, the dynamic then static lock bits (OR-ed in by the
/// chip, §8.5.1–8.5.2); with `.configuration`, PWD and PACK, then CFG1 and CFG0 last: AUTH0 moves
/// last, as setting a password does (§8.8.1), since once it covers the lock page the writes
/// before it would need the password. The tag must be the image's model
/// (GET_VERSION): the pages of another model mean something else.
typealias Type2RestoreOperation = Type2PlannedWriteOperation<Type2RestorePlan>

extension Type2PlannedWriteOperation where Plan == Type2RestorePlan {
    init(image: Type2Capture, parts: Type2RestoreParts, authenticated: Bool = false, limits: ExchangeLimits, maximumReadLength: Int? = nil)
    {
        self.init(
            plan: Type2RestorePlan(image: image, parts: parts, authenticated: authenticated), limits: limits,
            maximumReadLength: maximumReadLength)
    }
}

/// The plan of ``Type2RestoreOperation``.
struct Type2RestorePlan: Type2WritePlan {
    static var operationName: String { "restore" }

    let image: Type2Capture
    let parts: Type2RestoreParts
    /// Whether PWD_AUTH opened the tag first (pages from AUTH0 on are then writable).
    var authenticated = false

    func check() throws(TagEngineError) {
        guard image.pages.count == image.model.pageCount, image.pages.allSatisfy({ $0 == nil || $0?.count == 4 }) else {
            throw TagEngineError(.unsupported, "the image does not hold \(image.model.pageCount) pages of 4 bytes")
        }
        let missing = (Type2MemoryRewrite.firstUserPage...image.model.lastUserPage).filter { image.pages[$0] == nil }
        if let first = missing.first, !parts.contains(.partial) {
            throw TagEngineError(
                .unsupported,
                "the copy lacks \(missing.count) user pages from \(Type2Command.hex(first)) (read-protected when it was made): restoring the rest could join its message to the tag's old bytes; copy it again with the password, or restore it as partial"
            )
        }
    }

    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int]) {
        let model = try Type2MemoryRewrite.model(answer, doing: "restore")
        guard model == image.model else {
            throw TagEngineError(.unsupported, "the tag is an \(model), the image an \(image.model): restore needs a tag of the same model")
        }
        var pages = Type2MemoryRewrite.pagesToRead(model)
        if parts.contains(.configuration) { pages.append(model.configurationPage1) }
        return (model, pages)
    }

    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        var target: [Int: [UInt8]] = [:]
        for page in Type2MemoryRewrite.firstUserPage...model.lastUserPage { target[page] = image.pages[page] }
        var writes = try Type2MemoryRewrite.writes(target: target, model: model, memory: memory, what: "restore")
        let locked = try Type2MemoryRewrite.lockedPages(model: model, memory: memory)
        // The CC's write-access nibble Fh is the read-only marker (T2TOP §2.1.3): it goes with the locks.
        let wantedCC = image.pages[3].flatMap { wanted in
            memory.page(3).map { current in
                parts.contains(.locks) ? wanted : [wanted[0], wanted[1], wanted[2], (wanted[3] & 0xF0) | (current[3] & 0x0F)]
            }
        }
        if let wanted = wantedCC, let current = memory.page(3), wanted != current {
            guard !locked.contains(3) else {
                throw TagEngineError(.readOnly, "cannot restore: the CC (page 03h) differs from the image's and is locked")
            }
            guard zip(current, wanted).allSatisfy({ $0 & ~$1 == 0 }) else {
                throw TagEngineError(
                    .unsupported,
                    "page 03h (the CC, one-time programmable) holds \(Type2CapabilityContainer(bytes: current)); the image's \(Type2CapabilityContainer(bytes: wanted)) would clear bits"
                )
            }
            writes.append(Type2PageWrite(page: 3, bytes: wanted))
        }
        if parts.contains(.locks) {
            if let page = model.dynamicLockPage, let wanted = image.pages[page], let current = memory.page(page) {
                let merged = [current[0] | wanted[0], current[1] | wanted[1], current[2] | wanted[2], current[3]]
                if merged != current { writes.append(Type2PageWrite(page: page, bytes: merged)) }
            }
            if let wanted = image.pages[2], let current = memory.page(2) {
                let merged = [current[0], current[1], current[2] | wanted[2], current[3] | wanted[3]]
                if merged != current { writes.append(Type2PageWrite(page: 2, bytes: merged)) }
            }
        }
        if parts.contains(.configuration) {
            var configuration: [Type2PageWrite] = []
            for page in [model.passwordPage, model.packPage] {
                if let bytes = image.pages[page] { configuration.append(Type2PageWrite(page: page, bytes: bytes)) }
            }
            for page in [model.configurationPage1, model.configurationPage0] {
                if let bytes = image.pages[page], bytes != memory.page(page) {
                    configuration.append(Type2PageWrite(page: page, bytes: bytes))
                }
            }
            // CFGLCK (ACCESS bit 6) makes CFG0 and CFG1 permanent (NTAG213/215/216 §8.8.5).
            if let cfg1 = memory.page(model.configurationPage1), cfg1[0] & 0x40 != 0,
                configuration.contains(where: { $0.page == model.configurationPage0 || $0.page == model.configurationPage1 })
            {
                throw TagEngineError(.readOnly, "cannot restore the configuration: the tag's CFGLCK bit locks CFG0 and CFG1 for good")
            }
            writes += configuration
        }
        try Type2MemoryRewrite.checkPassword(writes, model: model, memory: memory, authenticated: authenticated, what: "restore")
        return writes
    }
}
