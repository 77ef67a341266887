import NFCBytes

/// Reads the NDEF message (T1TOP §6.3 NDEF detection, §6.4.1 read): the CC and TLVs from RALL,
/// then whatever blocks of the message lie beyond it.
///
/// NMN `00` with an otherwise valid CC means a write was interrupted (the write procedure clears
/// NMN first and sets it last): the read fails with `.invalidNDEFArea` ("write in progress")
/// rather than return bytes that may mix two messages.
struct Type1ReadProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        switch try snapshot.area() {
        case .needsBlock(let block): return [block]
        case .complete(_, .writeInProgress, _): return []
        case .complete(_, .ndef, let layout):
            guard let ndef = layout.ndef else { return [] }
            return snapshot.unknownBlocks(layout.messageAddresses(ndef))
        }
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: NDEFReadResult) {
        guard case .complete(let cc, let state, let layout) = try snapshot.area() else {
            throw TagEngineError(.unexpectedResponse, "the TLV area was not read")
        }
        guard state == .ndef else {
            throw TagEngineError(
                .invalidNDEFArea,
                "write in progress: the NDEF magic number is 00h with a valid CC, the data may be inconsistent (an interrupted write, T1TOP §6.4.2)"
            )
        }
        let status = Type1StatusProcedure.status(cc, state, layout)
        guard let ndef = layout.ndef else { return ([], NDEFReadResult(status: status, message: [])) }
        var message: [UInt8] = []
        message.reserveCapacity(ndef.length)
        for address in layout.messageAddresses(ndef) {
            guard let byte = snapshot.memory.byte(at: address) else {
                throw TagEngineError(.unexpectedResponse, "byte \(address) of the NDEF message was not read")
            }
            message.append(byte)
        }
        return ([], NDEFReadResult(status: status, message: message))
    }
}

/// The NDEF status as Core NFC's `queryNDEFStatus` reports it: from RALL alone on almost every tag.
struct Type1StatusProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        guard let area = try Self.area(snapshot), case .needsBlock(let block) = area else { return [] }
        return [block]
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: NDEFStatus) {
        guard let area = try Self.area(snapshot) else { return ([], .notSupported) }
        guard case .complete(let cc, let state, let layout) = area else {
            throw TagEngineError(.unexpectedResponse, "the TLV area was not read")
        }
        return ([], Self.status(cc, state, layout))
    }

    /// The area, or `nil` for a tag without NDEF.
    private static func area(_ snapshot: Type1Snapshot) throws(TagEngineError) -> Type1Snapshot.Area? {
        do {
            return try snapshot.area()
        } catch {
            if error.code == .notFormatted { return nil }
            throw error
        }
    }

    /// Read-only when RWA is not `00`; the message length 0 while a write is in progress.
    static func status(_ cc: Type1CapabilityContainer, _ state: Type1CapabilityContainer.State, _ layout: TLVAreaLayout) -> NDEFStatus {
        NDEFStatus(
            state: cc.isWritable ? .readWrite : .readOnly, capacity: layout.capacity,
            messageLength: state == .ndef ? layout.ndef?.length ?? 0 : 0)
    }
}

/// The chip from HR0, the 7-byte UID from block 00h, and the memory.
struct Type1IdentifyProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] { [] }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: TagIdentity) {
        let memory = snapshot.memory
        let model =
            switch memory.headerROM[0] {
            case 0x11: "Topaz 96 (BCM20203T96)"
            case 0x12: "Topaz 512 (BCM20203T512)"
            default: "NFC Forum Type 1 tag (HR0 \(Hex.encode([memory.headerROM[0]], uppercase: true))h)"
            }
        let uid = memory.block(0).map { Hex.encode($0.prefix(7), uppercase: true) } ?? "?"
        let details: [(String, String)] = [
            ("full UID", uid),
            ("header ROM", Hex.encode(memory.headerROM, uppercase: true)),
            ("layout", memory.isStatic ? "static" : "dynamic"),
            ("blocks", "\(memory.blockCount) × 8"),
        ]
        return ([], TagIdentity(family: .type1, model: model, memorySize: memory.size, details: details))
    }
}

/// Every block, as `block NNh` rows: RALL, then RSEG or READ8 for the rest of a dynamic memory.
struct Type1DumpProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        (0..<snapshot.memory.blockCount).filter { !snapshot.memory.knows(block: $0) }
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: [(String, [UInt8])]) {
        var rows: [(String, [UInt8])] = [("header ROM", snapshot.memory.headerROM)]
        for block in 0..<snapshot.memory.blockCount {
            rows.append(("block \(Hex.encode([UInt8(truncatingIfNeeded: block)], uppercase: true))h", snapshot.memory.block(block) ?? []))
        }
        return ([], rows)
    }
}
