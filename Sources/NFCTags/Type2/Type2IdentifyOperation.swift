import NFCBytes
import NFCTransport

/// Identifies a Type 2 chip: GET_VERSION names NTAG21x and Ultralight EV1 models; a chip that
/// NAKs or stays silent, or a reader that carries only READ and WRITE, is described from pages 0–3
/// (UID, lock bytes, CC).
///
/// NTAG213/215/216 §10.1 (GET_VERSION); NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1.3 (CC).
public struct Type2IdentifyOperation: TagOperation {
    enum State: Sendable {
        case probing(Type2VersionProbe)
        case reading(Type2PageReader, Type2VersionAnswer)
        case finished
    }

    private let limits: ExchangeLimits
    private let maximumReadLength: Int?
    private let uid: [UInt8]
    private var state: State

    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - identifier: the UID from activation (UID0 04h marks an NXP chip).
    ///   - maximumReadLength: a cap on the bytes one read returns.
    public init(limits: ExchangeLimits, identifier: [UInt8], maximumReadLength: Int? = nil) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
        uid = identifier
        state = .probing(Type2VersionProbe(limits: limits))
    }

    /// Sends GET_VERSION, or reads pages 0–3 when the reader carries only READ and WRITE.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> TagStep<TagIdentity> {
        guard case .probing(var probe) = state else { throw TagEngineError(.unexpectedResponse, "identify started twice") }
        let step = probe.start()
        return try probed(probe, step)
    }

    /// Follows GET_VERSION (reactivating a tag that NAKs or stays silent) and the page reads; done with
    /// the identity.
    /// - Throws: `.unexpectedResponse` after it finished; transport failures.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<TagIdentity> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .reading(var reader, let answer):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<TagIdentity> = Type2Step.forward(step) {
                state = .reading(reader, answer)
                return next
            }
            state = .finished
            return .done(describe(answer, page3: reader.memory.page(3)))
        case .finished:
            throw TagEngineError(.unexpectedResponse, "identify resumed after it finished")
        }
    }

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<
        TagIdentity
    > {
        if let next: TagStep<TagIdentity> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        if let version = answer.version {
            state = .finished
            return .done(Self.identity(version))
        }
        let readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: nil)
        var reader = Type2PageReader(plan: try readLimits.plan([0, 1, 2, 3]), into: Type2Memory())
        let first = reader.start()
        state = .reading(reader, answer)
        return Type2Step.forward(first) ?? .done(describe(answer, page3: nil))
    }

    /// The identity GET_VERSION gives.
    static func identity(_ version: Type2Version) -> TagIdentity {
        var details: [(String, String)] = [("version", version.description)]
        if let model = Type2Model(version: version) {
            details += [
                ("pages", "\(model.pageCount) × 4 B"),
                ("user memory", "\(model.userMemorySize) B"),
            ]
            return TagIdentity(family: .type2, model: model.description, memorySize: model.memorySize, details: details)
        }
        let range = version.userMemoryRange
        details.append(("user memory", range.count == 1 ? "\(range.lowerBound) B" : "\(range.lowerBound)–\(range.upperBound) B"))
        let name: String
        switch (version.vendor, version.productType) {
        case (0x04, 0x04): name = "NTAG (unknown model)"
        case (0x04, 0x03): name = "MIFARE Ultralight (unknown model)"
        default: name = "Type 2 tag (vendor \(Hex.encode([version.vendor], uppercase: true))h)"
        }
        return TagIdentity(family: .type2, model: name, memorySize: nil, details: details)
    }

    /// The identity of a chip without GET_VERSION, from its UID and CC.
    private func describe(_ answer: Type2VersionAnswer, page3: [UInt8]?) -> TagIdentity {
        let nxp = uid.first == 0x04
        let name: String
        var details: [(String, String)] = []
        switch answer {
        case .notAsked(let reader):
            name = nxp ? "NXP Type 2 tag" : "Type 2 tag"
            details.append(("GET_VERSION", "not sent (\(reader) carries READ and WRITE only)"))
        default:
            name = nxp ? "MIFARE Ultralight" : "Type 2 tag"
            details.append(("GET_VERSION", "not supported"))
        }
        if let page3 {
            details.append(("CC", Hex.encode(page3, uppercase: true)))
            if case .valid(let cc) = Type2CapabilityContainer.parse(page3, userMemorySize: nil) {
                details.append(("data area", "\(cc.dataAreaSize) B"))
            }
        }
        return TagIdentity(family: .type2, model: name, memorySize: nil, details: details)
    }
}
