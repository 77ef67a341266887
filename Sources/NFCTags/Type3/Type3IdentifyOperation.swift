import NFCBytes
import NFCTransport

/// Identifies a FeliCa card: the chip from the PMm IC type, then its systems.
///
/// - FeliCa Lite/Lite-S: one read of MC (block `88`) tells whether SYS_OP enables `12FC`; the
///   system code list is `88B4` (and `12FC`). Memory: S_PAD0–13, 14 × 16 B.
/// - Other cards: Request System Code (`0C`, FeliCa Card User's Manual Excerpted Edition v2.0
///   §4.4.10) lists the systems; a card that does not answer it (older ICs) is polled for `12FC`
///   with request code `01` instead, which at least says whether the NDEF system exists.
struct Type3IdentifyOperation: TagOperation {
    typealias Output = TagIdentity

    enum State: Sendable {
        case idle
        case readingMC
        case requestingSystemCodes
        case polling
        case finished
    }

    let link: Type3Link
    private(set) var state = State.idle

    init(link: Type3Link) {
        self.link = link
    }

    mutating func start() throws(TagEngineError) -> TagStep<TagIdentity> {
        if link.ic.isLite {
            state = .readingMC
            let blocks = [FeliCaLiteMemoryConfiguration.blockNumber]
            return .transceive(FeliCaCommand.read(idm: link.idm, blocks: blocks), timeout: link.readTimeout(blocks: 1))
        }
        state = .requestingSystemCodes
        return .transceive(FeliCaCommand.requestSystemCode(idm: link.idm), timeout: FeliCaResponseTime.fixed(pmm: link.pmm))
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<TagIdentity> {
        switch state {
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 identify resumed out of turn")
        case .readingMC:
            let answer = try outcome.answer()
            let block = try FeliCaResponse.read(answer, idm: link.idm, blocks: [FeliCaLiteMemoryConfiguration.blockNumber])
            let mc = block.first.flatMap(FeliCaLiteMemoryConfiguration.init)
            let codes: [UInt16] = mc?.ndefEnabled == true ? [0x88B4, FeliCaCommand.ndefSystemCode] : [0x88B4]
            state = .finished
            return .done(identity(systemCodes: codes, memorySize: FeliCaLiteMemoryConfiguration.userBlockCount * 16))
        case .requestingSystemCodes:
            switch outcome {
            case .success(let answer):
                state = .finished
                return .done(identity(systemCodes: try FeliCaResponse.systemCodes(answer, idm: link.idm), memorySize: nil))
            case .failure(let error) where error.code == .timeout || error.code == .unsupportedCommand:
                state = .polling
                return .transceive(FeliCaCommand.polling(systemCode: FeliCaCommand.ndefSystemCode), timeout: FeliCaResponseTime.polling)
            case .failure(let error):
                throw TagEngineError(transport: error)
            }
        case .polling:
            state = .finished
            switch outcome {
            case .success(let answer):
                _ = try FeliCaResponse.polling(answer)
                return .done(identity(systemCodes: [link.activatedSystemCode, FeliCaCommand.ndefSystemCode], memorySize: nil))
            case .failure(let error) where error.code == .timeout || error.code == .unsupportedCommand:
                return .done(identity(systemCodes: [link.activatedSystemCode], memorySize: nil))
            case .failure(let error):
                throw TagEngineError(transport: error)
            }
        }
    }

    private func identity(systemCodes: [UInt16], memorySize: Int?) -> TagIdentity {
        var details: [(String, String)] = [
            ("IDm", Hex.encode(link.idm, uppercase: true)),
            ("PMm", Hex.encode(link.pmm, uppercase: true)),
            ("IC type", Hex.encode(link.pmm.dropFirst().prefix(1), uppercase: true)),
            ("system codes", systemCodes.map { Hex.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)], uppercase: true) }.joined(separator: " ")),
            ("NDEF", systemCodes.contains(FeliCaCommand.ndefSystemCode) ? "system 12FC" : "no 12FC system"),
        ]
        if link.ic.isLite { details.append(("blocks", "14 × 16 B (S_PAD0–13) + REG")) }
        return TagIdentity(family: .type3, model: link.ic.model, memorySize: memorySize, details: details)
    }
}
