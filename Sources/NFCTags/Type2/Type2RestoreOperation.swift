import NFCTransport

/// What ``Type2Engine/restore(_:parts:on:)`` writes besides the user memory and the CC.
public struct Type2RestoreParts: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// CFG0 and CFG1 (mirror, AUTH0, ACCESS), and PWD and PACK when the image knows them.
    public static let configuration = Type2RestoreParts(rawValue: 1 << 0)
    /// The static and dynamic lock bits, last (permanent).
    public static let locks = Type2RestoreParts(rawValue: 1 << 1)
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
    init(image: Type2Capture, parts: Type2RestoreParts, limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.init(plan: Type2RestorePlan(image: image, parts: parts), limits: limits, maximumReadLength: maximumReadLength)
    }
}

/// The plan of ``Type2RestoreOperation``.
struct Type2RestorePlan: Type2WritePlan {
    static var operationName: String { "restore" }

    let image: Type2Capture
    let parts: Type2RestoreParts

    func check() throws(TagEngineError) {
        guard image.pages.count == image.model.pageCount, image.pages.allSatisfy({ $0 == nil || $0?.count == 4 }) else {
            throw TagEngineError(.unsupported, "the image does not hold \(image.model.pageCount) pages of 4 bytes")
        }
    }

    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int]) {
        let model = try Type2MemoryRewrite.model(answer, doing: "restore")
        guard model == image.model else {
            throw TagEngineError(.unsupported, "the tag is an \(model), the image an \(image.model): restore needs a tag of the same model")
        }
        var pages = Type2MemoryRewrite.pagesToRead(model)
        if parts.contains(.configuration) { pages += [model.configurationPage0, model.configurationPage1] }
        return (model, pages)
    }

    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        var target: [Int: [UInt8]] = [:]
        for page in Type2MemoryRewrite.firstUserPage...model.lastUserPage { target[page] = image.pages[page] }
        var writes = try Type2MemoryRewrite.writes(target: target, model: model, memory: memory, what: "restore")
        if let wanted = image.pages[3], let current = memory.page(3), wanted != current {
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
            for page in [model.passwordPage, model.packPage] {
                if let bytes = image.pages[page] { writes.append(Type2PageWrite(page: page, bytes: bytes)) }
            }
            for page in [model.configurationPage1, model.configurationPage0] {
                if let bytes = image.pages[page], bytes != memory.page(page) { writes.append(Type2PageWrite(page: page, bytes: bytes)) }
            }
        }
        return writes
    }
}
