/// SL3 reads, writes and value operations (NXP Reader Library `phalMfp_Sw_Read`, `WriteExt`,
/// the value commands; docs/mifare-plus.md). Access: the session's key must be the sector's key A
/// or key B, with the right the trailer's access bits give it; card keys (`9000`–`9007`) are
/// written under the card master key, configuration blocks (`B000`–`B003`) under the card
/// configuration key.
extension MIFAREPlusCard {
    /// The session key's sector and whether it is key B, for a sector key.
    private func sectorKey(_ session: MIFAREPlusSession) -> (sector: Int, keyB: Bool)? {
        guard session.keyBlock >= 0x4000, session.keyBlock < 0x4000 + UInt16(2 * model.sectorCount) else { return nil }
        let offset = Int(session.keyBlock - 0x4000)
        return (offset / 2, offset % 2 == 1)
    }

    /// Whether the session may use `right` on data block `block`.
    private func allows(_ right: MIFAREPlusAccess.Right, block: Int, session: MIFAREPlusSession) -> Bool {
        guard let key = sectorKey(session), MIFAREPlusModel.sector(of: block) == key.sector,
            let access = MIFAREPlusAccess(trailer: blocks[MIFAREPlusModel.trailer(of: key.sector)])
        else { return false }
        let index = block - MIFAREPlusModel.firstBlock(of: key.sector)
        let size = MIFAREPlusModel.blocks(in: key.sector)
        if index == size - 1 {
            switch right {
            case .read: return access.allowsTrailerRead(byKeyB: key.keyB)
            case .write: return access.allowsTrailerWrite(byKeyB: key.keyB)
            case .increment, .decrement: return false
            }
        }
        return access.allows(right, group: MIFAREPlusAccess.group(ofBlockIndex: index, sectorBlocks: size), keyB: key.keyB)
    }

    /// Read (`30`–`37`: bit 0 MAC on the answer, bit 1 plain, bit 2 no MAC on the command): BNr,
    /// Ext [, MAC(cmd ‖ R_Ctr ‖ TI ‖ BNr ‖ Ext)] → `90` data [MAC(`90` ‖ R_Ctr+1 ‖ TI ‖ BNr ‖ Ext ‖
    /// data, with the reads answered without a MAC since the last MACed one)]. Enciphered data uses
    /// the answer IV at R_Ctr + 1. A trailer reads with its key fields zero.
    mutating func read(_ ins: UInt8, _ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard var current = session else { return (.authenticationError, [], false) }
        let macOnAnswer = ins & 0x01 != 0
        let plain = ins & 0x02 != 0
        let macOnCommand = ins & 0x04 == 0
        guard data.count == (macOnCommand ? 11 : 3) else { return (.formatError, [], false) }
        let header = Array(data[0..<3])
        if macOnCommand {
            let input = [ins] + MIFAREPlusSession.bytes(current.readCounter) + current.ti + header
            guard current.mac(input) == Array(data[3..<11]) else { return (.invalidMAC, [], false) }
        }
        let start = Int(header[0]) | Int(header[1]) << 8
        let count = Int(header[2])
        guard count > 0 else { return (.formatError, [], false) }
        guard start + count <= model.blockCount else { return (.extensionError, [], false) }
        var out: [UInt8] = []
        for block in start..<start + count {
            guard allows(.read, block: block, session: current) else { return (.authenticationError, [], false) }
            var bytes = blocks[block]
            if block == MIFAREPlusModel.trailer(of: MIFAREPlusModel.sector(of: block)) {
                for index in Array(0..<6) + Array(10..<16) { bytes[index] = 0 }
            }
            out += bytes
        }
        guard current.readCounter < 0xFFFF else { return (.commandOverflow, [], false) }
        current.readCounter += 1
        if !plain {
            guard let iv = current.iv(response: true, read: current.readCounter, write: current.writeCounter),
                let sealed = NTAG424Cipher.cbc(out, key: current.encryption, iv: iv, decrypt: false)
            else { return (.generalFailure, [], false) }
            out = sealed
        }
        let covered = header + out
        if macOnAnswer {
            let chain = current.unMACedReads
            let input =
                [0x90] + MIFAREPlusSession.bytes(chain?.counter ?? current.readCounter) + current.ti + (chain?.covered ?? []) + covered
            guard let mac = current.mac(input) else { return (.generalFailure, [], false) }
            current.unMACedReads = nil
            session = current
            return (.ok, out + mac, false)
        }
        if let chain = current.unMACedReads {
            current.unMACedReads = (chain.counter, chain.covered + covered)
        } else {
            current.unMACedReads = (current.readCounter, covered)
        }
        session = current
        return (.ok, out, false)
    }

    /// Write (`A0`–`A3`: bit 0 MAC on the answer, bit 1 plain): BNr, data (16 bytes a block,
    /// enciphered with the command IV unless plain), MAC(cmd ‖ W_Ctr ‖ TI ‖ BNr ‖ data) → `90`
    /// [MAC(`90` ‖ W_Ctr+1 ‖ TI)]. One block for keys and configuration, up to the sector's end for data.
    mutating func write(_ ins: UInt8, _ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard var current = session else { return (.authenticationError, [], false) }
        guard data.count >= 2 + 16 + 8, (data.count - 10) % 16 == 0 else { return (.formatError, [], false) }
        let address = UInt16(data[0]) | UInt16(data[1]) << 8
        let sent = Array(data[2..<data.count - 8])
        let input = [ins] + MIFAREPlusSession.bytes(current.writeCounter) + current.ti + Array(data[0..<2]) + sent
        guard current.mac(input) == Array(data.suffix(8)) else { return (.invalidMAC, [], false) }
        var payload = sent
        if ins & 0x02 == 0 {
            guard let iv = current.iv(response: false, read: current.readCounter, write: current.writeCounter),
                let opened = NTAG424Cipher.cbc(sent, key: current.encryption, iv: iv, decrypt: true)
            else { return (.generalFailure, [], false) }
            payload = opened
        }
        let count = payload.count / 16
        if Int(address) < model.blockCount {
            guard Int(address) + count <= model.blockCount else { return (.extensionError, [], false) }
            for block in Int(address)..<Int(address) + count {
                guard block != 0, allows(.write, block: block, session: current) else { return (.authenticationError, [], false) }
            }
            for index in 0..<count { blocks[Int(address) + index] = Array(payload[16 * index..<16 * index + 16]) }
        } else {
            guard count == 1 else { return (.formatError, [], false) }
            guard keys[address] != nil else { return (.invalidBlock, [], false) }
            guard mayWriteKey(address, session: current) else { return (.authenticationError, [], false) }
            keys[address] = payload
        }
        return finishWrite(ins, &current)
    }

    /// Whether the session may write a key or configuration block.
    private func mayWriteKey(_ address: UInt16, session: MIFAREPlusSession) -> Bool {
        switch address {
        case 0x9000...0x9007: return session.keyBlock == 0x9000
        case 0xB000...0xB003: return session.keyBlock == 0x9001
        default:
            let sector = Int(address - 0x4000) / 2
            guard let key = sectorKey(session), key.sector == sector,
                let access = MIFAREPlusAccess(trailer: blocks[MIFAREPlusModel.trailer(of: sector)])
            else { return false }
            return access.allowsKeyWrite(byKeyB: key.keyB)
        }
    }

    /// W_Ctr steps; the answer carries MAC(`90` ‖ W_Ctr ‖ TI) when the command's bit 0 asks.
    private mutating func finishWrite(_ ins: UInt8, _ current: inout MIFAREPlusSession) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard current.writeCounter < 0xFFFF else { return (.commandOverflow, [], false) }
        current.writeCounter += 1
        var answer: [UInt8] = []
        if ins & 0x01 != 0 {
            guard let mac = current.mac([0x90] + MIFAREPlusSession.bytes(current.writeCounter) + current.ti) else {
                return (.generalFailure, [], false)
            }
            answer = mac
        }
        session = current
        return (.ok, answer, true)
    }

    /// A value block's value: V ‖ ~V ‖ V ‖ A ‖ ~A ‖ A ‖ ~A (least significant byte first), or `nil`.
    static func value(of block: [UInt8]) -> Int32? {
        guard block.count == 16 else { return nil }
        let v = Array(block[0..<4])
        guard Array(block[4..<8]) == v.map({ ~$0 }), Array(block[8..<12]) == v, block[12] == block[14], block[13] == block[15],
            block[12] == ~block[13]
        else { return nil }
        return Int32(bitPattern: UInt32(v[0]) | UInt32(v[1]) << 8 | UInt32(v[2]) << 16 | UInt32(v[3]) << 24)
    }

    /// A value block holding `value` with the address byte `address`.
    static func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        let v = (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
        return v + v.map { ~$0 } + v + [address, ~address, address, ~address]
    }

    /// Increment (`B0`/`B1`), Decrement (`B2`/`B3`), Transfer (`B4`/`B5`), IncrementTransfer
    /// (`B6`/`B7`), DecrementTransfer (`B8`/`B9`), Restore (`C2`/`C3`); odd codes MAC the answer.
    /// The amount travels enciphered as `value ‖ 80 00…` with the command IV; the result waits in
    /// the transfer buffer until a Transfer writes it. MAC(cmd ‖ W_Ctr ‖ TI ‖ BNr(s) ‖ data).
    mutating func value(_ ins: UInt8, _ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard var current = session else { return (.authenticationError, [], false) }
        let base = ins & 0xFE
        let addressLength = base == 0xB6 || base == 0xB8 ? 4 : 2
        let amountLength = base == 0xB4 || base == 0xC2 ? 0 : 16
        guard data.count == addressLength + amountLength + 8 else { return (.formatError, [], false) }
        let fields = Array(data[0..<addressLength + amountLength])
        let input = [ins] + MIFAREPlusSession.bytes(current.writeCounter) + current.ti + fields
        guard current.mac(input) == Array(data.suffix(8)) else { return (.invalidMAC, [], false) }
        let source = Int(data[0]) | Int(data[1]) << 8
        let destination = addressLength == 4 ? Int(data[2]) | Int(data[3]) << 8 : source
        guard source < model.blockCount, destination < model.blockCount else { return (.extensionError, [], false) }
        var amount: Int32 = 0
        if amountLength > 0 {
            guard let iv = current.iv(response: false, read: current.readCounter, write: current.writeCounter),
                let plain = NTAG424Cipher.cbc(Array(fields[addressLength...]), key: current.encryption, iv: iv, decrypt: true),
                plain[4] == 0x80, plain[5...].allSatisfy({ $0 == 0 })
            else { return (.formatError, [], false) }
            amount = Int32(bitPattern: UInt32(plain[0]) | UInt32(plain[1]) << 8 | UInt32(plain[2]) << 16 | UInt32(plain[3]) << 24)
            guard amount >= 0 else { return (.formatError, [], false) }
        }
        switch base {
        case 0xB0, 0xB6, 0xB2, 0xB8, 0xC2:
            let right: MIFAREPlusAccess.Right = base == 0xB0 || base == 0xB6 ? .increment : .decrement
            guard allows(right, block: source, session: current), let stored = Self.value(of: blocks[source]) else {
                return (.authenticationError, [], false)
            }
            let (result, overflow) =
                base == 0xC2
                ? (stored, false)
                : right == .increment ? stored.addingReportingOverflow(amount) : stored.subtractingReportingOverflow(amount)
            guard !overflow else { return (.generalFailure, [], false) }
            transferBuffer = result
            if base == 0xB6 || base == 0xB8 { return transfer(ins, to: destination, &current) }
            guard current.writeCounter < 0xFFFF else { return (.commandOverflow, [], false) }
            return finishWrite(ins, &current)
        default:
            return transfer(ins, to: destination, &current)
        }
    }

    /// Writes the transfer buffer into a value block (keeping its address byte).
    private mutating func transfer(_ ins: UInt8, to block: Int, _ current: inout MIFAREPlusSession) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard let buffer = transferBuffer else { return (.commandInvalid, [], false) }
        guard allows(.decrement, block: block, session: current), block != 0 else { return (.authenticationError, [], false) }
        let address = Self.value(of: blocks[block]) != nil ? blocks[block][12] : UInt8(truncatingIfNeeded: block)
        blocks[block] = Self.valueBlock(buffer, address: address)
        return finishWrite(ins, &current)
    }
}
