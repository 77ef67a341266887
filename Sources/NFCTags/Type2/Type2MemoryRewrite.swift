/// The tearing-safe order of page writes that replaces a Type 2 tag's whole user memory (wipe, restore).
///
/// The principle of T2TOP §6.4.3 (the length of the NDEF TLV goes to zero first and the real
/// content goes last) applied to raw pages: page 04h first becomes `03 00 FE 00` (an empty NDEF
/// TLV and a Terminator, so the tag reads as an empty NDEF tag whatever follows), then every other
/// page that changes, in address order, then page 04h with its final bytes. Every WRITE programs one
/// page atomically (NTAG213/215/216 §10.4), so an interruption leaves the old content (before the
/// first write), an empty NDEF (in between) or the new content (after the last). A single changing
/// page is written alone. Pages locked by a static or dynamic lock bit are refused before anything
/// is written (T2TOP §2.1.2, §2.2.2; NTAG213/215/216 §8.5.2).
enum Type2MemoryRewrite {
    /// The first user page, 04h on every Type 2 tag (T2TOP §2.1).
    static let firstUserPage = 4

    /// The writes that give the user pages in `target` their bytes.
    /// - Parameters:
    ///   - target: the wanted 4 bytes of each user page to set (others are left alone).
    ///   - model: the chip.
    ///   - memory: the tag's pages as read: the target pages, page 02h and the dynamic lock page.
    ///   - what: what the writes do, for errors ("wipe", "restore").
    /// - Throws: `.readOnly` naming the first locked page that would change; `.unexpectedResponse`
    ///   when a page was not read first.
    static func writes(target: [Int: [UInt8]], model: Type2Model, memory: Type2Memory, what: String) throws(TagEngineError)
        -> [Type2PageWrite]
    {
        var changed: [Int] = []
        for page in target.keys.sorted() {
            guard let current = memory.page(page) else {
                throw TagEngineError(.unexpectedResponse, "page \(Type2Command.hex(page)) was not read before the \(what)")
            }
            if current != target[page] { changed.append(page) }
        }
        let locked = try lockedPages(model: model, memory: memory)
        if let page = changed.first(where: locked.contains) {
            throw TagEngineError(
                .readOnly, "cannot \(what): page \(Type2Command.hex(page)) is locked by a lock bit (locks are permanent)")
        }
        let first = Self.firstUserPage
        if changed.count > 1, locked.contains(first) {
            // Page 04h cannot become an empty NDEF TLV first: an interruption could leave a mix.
            throw TagEngineError(
                .readOnly, "cannot \(what) safely: page 04h (where the TLVs begin) is locked, so the pages cannot be replaced tearing-safe")
        }
        guard changed.count > 1, let final = target[first] else {
            return changed.compactMap { page in target[page].map { Type2PageWrite(page: page, bytes: $0) } }
        }
        var writes: [Type2PageWrite] = []
        if memory.page(first) != Type2FormatPlan.emptyTLVs {
            writes.append(Type2PageWrite(page: first, bytes: Type2FormatPlan.emptyTLVs))
        }
        for page in changed where page != first {
            if let bytes = target[page] { writes.append(Type2PageWrite(page: page, bytes: bytes)) }
        }
        if final != (writes.first?.page == first ? Type2FormatPlan.emptyTLVs : memory.page(first)) {
            writes.append(Type2PageWrite(page: first, bytes: final))
        }
        return writes
    }

    /// The user pages a set lock bit locks: static lock bits (page 02h bytes 2–3, bit n locks page n
    /// for n = 3…15) and the model's dynamic lock bits (each locks `pagesPerDynamicLockBit` pages
    /// from page 10h).
    /// - Throws: `.unexpectedResponse` when page 02h or the dynamic lock page was not read.
    static func lockedPages(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> Set<Int> {
        guard let low = memory.byte(at: Type2LockBits.staticLockAddress), let high = memory.byte(at: Type2LockBits.staticLockAddress + 1)
        else {
            throw TagEngineError(.unexpectedResponse, "page 02h (the static lock bytes) was not read")
        }
        let bits = UInt16(low) | UInt16(high) << 8
        var locked = Set((3...15).filter { bits & (1 << UInt16($0)) != 0 })
        guard let lockPage = model.dynamicLockPage else { return locked }
        guard let dynamic = memory.page(lockPage) else {
            throw TagEngineError(.unexpectedResponse, "page \(Type2Command.hex(lockPage)) (the dynamic lock bytes) was not read")
        }
        let dynamicBits = UInt16(dynamic[0]) | UInt16(dynamic[1]) << 8
        for bit in 0..<model.dynamicLockBitCount where dynamicBits & (1 << UInt16(bit)) != 0 {
            let start = 16 + bit * model.pagesPerDynamicLockBit
            locked.formUnion(start..<min(start + model.pagesPerDynamicLockBit, model.lastUserPage + 1))
        }
        return locked
    }

    /// The pages a wipe or restore reads first: 02h (static locks), 03h (CC), the user pages, the
    /// dynamic lock page and CFG0 (AUTH0).
    static func pagesToRead(_ model: Type2Model) -> [Int] {
        [2, 3] + Array(Self.firstUserPage...model.lastUserPage) + (model.dynamicLockPage.map { [$0] } ?? []) + [model.configurationPage0]
    }

    /// Refuses, before anything is written, writes that reach a page AUTH0 protects when the
    /// password was not given (NTAG213/215/216 §8.8.1: from AUTH0 on, WRITE needs PWD_AUTH): the
    /// first pages would be written and the rest refused.
    /// - Throws: `.authenticationFailed` naming the first protected page.
    static func checkPassword(_ writes: [Type2PageWrite], model: Type2Model, memory: Type2Memory, authenticated: Bool, what: String)
        throws(TagEngineError)
    {
        guard !authenticated, let cfg0 = memory.page(model.configurationPage0) else { return }
        let auth0 = Int(cfg0[3])
        if let page = writes.map(\.page).first(where: { $0 >= auth0 }) {
            throw TagEngineError(
                .authenticationFailed,
                "cannot \(what): pages from \(Type2Command.hex(auth0)) on (page \(Type2Command.hex(page)) among them) need the tag's password (AUTH0); nothing was written"
            )
        }
    }

    /// The model a probe found, or `.unsupported` naming why it is unknown.
    static func model(_ answer: Type2VersionAnswer, doing what: String) throws(TagEngineError) -> Type2Model {
        if let model = answer.model { return model }
        let why =
            switch answer {
            case .notAsked(let reader): "\(reader) cannot send GET_VERSION: it carries READ and WRITE only"
            case .refused: "the tag does not answer GET_VERSION"
            case .answered(let version): "GET_VERSION \(version) names no known model"
            }
        throw TagEngineError(.unsupported, "cannot \(what): the memory map is unknown (\(why))")
    }
}
