import NFCTransport

/// InAutoPoll (UM0701-02 §7.3.13): the chip polls the listed target types itself.
extension VirtualPN532 {
    /// What one InAutoPoll type asks for: the modulation (BrTy) and initiator data it activates
    /// with, and which targets it takes. Nil for types no virtual target can be (the DEP types)
    /// — they find nothing.
    static func autoPollType(_ type: UInt8) -> (modulation: UInt8, initiatorData: [UInt8], accept: @Sendable (TargetInfo) -> Bool)? {
        let anyTarget: @Sendable (TargetInfo) -> Bool = { _ in true }
        let felicaPolling: [UInt8] = [0x00, 0xFF, 0xFF, 0x00, 0x00]
        switch type {
        case 0x00: return (0x00, [], anyTarget)  // generic passive 106 kbit/s: ISO/IEC 14443-4A, MIFARE, DEP
        case 0x10: return (0x00, [], anyTarget)  // MIFARE card: any type A card, without RATS
        case 0x20: return (0x00, [], { $0.speaksISODEP })  // passive 106 kbit/s ISO/IEC 14443-4A
        case 0x01, 0x11: return (0x01, felicaPolling, anyTarget)  // generic passive 212 kbit/s, FeliCa 212
        case 0x02, 0x12: return (0x02, felicaPolling, anyTarget)  // generic passive 424 kbit/s, FeliCa 424
        case 0x03, 0x23: return (0x03, [0x00], anyTarget)  // passive 106 kbit/s ISO/IEC 14443-4B
        case 0x04: return (0x04, [], anyTarget)  // Innovision Jewel (Type 1)
        default: return nil  // 40-42 DEP passive, 80-82 DEP active
        }
    }

    /// The type a found target is reported as: the specific type for a generic request (`00` →
    /// `20` for an ISO/IEC 14443-4 card, else `10`; `01` → `11`; `02` → `12`; `03` → `23`), the
    /// requested type otherwise. libnfc maps only specific types to a modulation.
    static func reportedType(_ requested: UInt8, _ info: TargetInfo?) -> UInt8 {
        switch requested {
        case 0x00: info?.speaksISODEP == true ? 0x20 : 0x10
        case 0x01: 0x11
        case 0x02: 0x12
        case 0x03: 0x23
        default: requested
        }
    }

    /// InAutoPoll: PollNr (1 to FE rounds, FF for ever), Period (units of 150 ms between rounds),
    /// then 1 to 15 target types. Each round tries the types in order and stops at the first
    /// that finds targets; the answer is NbTg, then per target its type, the length of its data
    /// and the data as InListPassiveTarget gives it (Tg first). No target after every round is
    /// NbTg 0; with PollNr FF the chip polls until a target comes or the host aborts.
    func autoPoll(_ parameters: [UInt8]) async -> [UInt8]? {
        guard parameters.count >= 3, parameters.count <= 17, parameters[0] != 0x00, (0x01...0x0F).contains(parameters[1]) else {
            return nil
        }
        let rounds = parameters[0]
        let period = Duration.milliseconds(150 * Int(parameters[1]))
        let types = Array(parameters.dropFirst(2))
        let kinds = types.map { ($0, Self.autoPollType($0)) }
        let retries = passiveActivationRetries
        passiveActivationRetries = 0x00
        defer { passiveActivationRetries = retries }
        var round = 0
        while rounds == 0xFF || round < Int(rounds) {
            for (type, kind) in kinds {
                guard let kind else { continue }
                guard let found = await activate(maximum: 2, modulation: kind.modulation, kind.initiatorData, accept: kind.accept) else {
                    return nil
                }
                if !found.isEmpty {
                    let reported = found.map { data in Self.reportedType(type, targets.first { $0.number == data.first }?.info) }
                    return [UInt8(found.count)] + zip(reported, found).flatMap { [$0, UInt8(truncatingIfNeeded: $1.count)] + $1 }
                }
            }
            round += 1
            if Task.isCancelled { return nil }
            try? await Task.sleep(for: period)
            if Task.isCancelled { return nil }
        }
        return [0x00]
    }
}
