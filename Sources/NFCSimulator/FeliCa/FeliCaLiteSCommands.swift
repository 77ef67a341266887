/// Read Without Encryption and Write Without Encryption on a FeliCa Lite-S.
///
/// FeliCa Lite-S User's Manual §4.4 and §4.5. Checks in the chip's order: Number of Service must
/// be 1 (`FF A1`); Number of Block 1–4 for a read, 1 for a write or 2 with MAC_A second (`FF A2`);
/// the service must be `000B`/`0009` for a read and `0009` for a write (`01 A6`); then each block
/// list element, Status Flag 1 carrying its bit (`01`, `02`, `04`, `08`): Service Code List
/// order other than 0 (`A3`), access mode other than 000b (`A7`), a block that does not exist or
/// may not be accessed (`A8`), authentication required (`B1`), MAC verification (`B2`).
extension FeliCaLiteSTag {
    static let readResponse: UInt8 = 0x07
    static let writeResponse: UInt8 = 0x09

    mutating func readWithoutEncryption(_ parameters: ArraySlice<UInt8>) -> TagAnswer {
        let request: FeliCaBlockRequest
        switch FeliCaBlockRequest.parse(parameters, serviceLimit: 1, blockLimit: 4, carriesData: false) {
        case .malformed: return .mute
        case .status(let status): return readAnswer(status)
        case .request(let parsed): request = parsed
        }
        let service = request.serviceCodes.first ?? 0
        guard service == Self.readOnlyService || service == Self.readWriteService else {
            return readAnswer(FeliCaStatus(0x01, .illegalServiceCode))
        }
        var blocks: [[UInt8]] = []
        for (index, element) in request.elements.enumerated() {
            let bit = UInt8(1 << index)
            if let code = elementError(element) { return readAnswer(FeliCaStatus(bit, code)) }
            let number = element.blockNumber
            if number <= FeliCaLiteSBlock.register {
                let user = Int(number)
                // A read-only user block is read through the read-only service only.
                if service == Self.readWriteService, !memoryConfiguration.userBlockWritable(user) {
                    return readAnswer(FeliCaStatus(bit, .illegalBlockNumber))
                }
                if memoryConfiguration.readRestricted(user) {
                    return readAnswer(FeliCaStatus(bit, .authenticationRequired))
                }
            }
            if number == FeliCaLiteSBlock.macA {
                return readAnswer(FeliCaStatus(bit, .macVerificationFailed))
            }
            blocks.append(readableBlock(number))
        }
        let response = FeliCaStatus.response(code: Self.readResponse, idm: idm, status: .success, blocks: blocks)
        return .bytes(response, processingTime: Self.readProcessing(blocks: blocks.count))
    }

    mutating func writeWithoutEncryption(_ parameters: ArraySlice<UInt8>) -> TagAnswer {
        let request: FeliCaBlockRequest
        switch FeliCaBlockRequest.parse(parameters, serviceLimit: 1, blockLimit: 2, carriesData: true) {
        case .malformed: return .mute
        case .status(let status): return writeAnswer(status)
        case .request(let parsed): request = parsed
        }
        if request.elements.count == 2, request.elements[1].blockNumber != FeliCaLiteSBlock.macA {
            return writeAnswer(.general(.illegalNumberOfBlock))
        }
        guard request.serviceCodes.first == Self.readWriteService else {
            return writeAnswer(FeliCaStatus(0x01, .illegalServiceCode))
        }
        for (index, element) in request.elements.enumerated() {
            if let code = elementError(element) { return writeAnswer(FeliCaStatus(UInt8(1 << index), code)) }
        }
        guard request.elements.count == 1, let element = request.elements.first, let data = request.blockData.first else {
            // Write with MAC: the MAC_A cannot be verified without the session key.
            return writeAnswer(FeliCaStatus(0x02, .macVerificationFailed))
        }
        if let code = write(data, to: element.blockNumber) {
            return writeAnswer(FeliCaStatus(0x01, code))
        }
        writeCount = min(writeCount + 1, 0xFF_FFFF)
        let response = FeliCaStatus.response(code: Self.writeResponse, idm: idm, status: .success)
        return TagAnswer(.bytes(response), processingTime: Self.writeProcessing(blocks: 1), writesMemory: true)
    }

    // MARK: Helpers

    private func readAnswer(_ status: FeliCaStatus) -> TagAnswer {
        .bytes(FeliCaStatus.response(code: Self.readResponse, idm: idm, status: status), processingTime: Self.baseProcessing)
    }

    private func writeAnswer(_ status: FeliCaStatus) -> TagAnswer {
        .bytes(FeliCaStatus.response(code: Self.writeResponse, idm: idm, status: status), processingTime: Self.baseProcessing)
    }

    /// The errors of an element's format, common to reads and writes.
    private func elementError(_ element: FeliCaBlockListElement) -> FeliCaStatus.Code? {
        if element.serviceOrder != 0 { return .illegalServiceOrder }
        if element.accessMode != 0 { return .illegalAccessMode }
        if !FeliCaLiteSBlock.exists(element.blockNumber) { return .illegalBlockNumber }
        return nil
    }

    /// What a read of an existing block returns (RC, MAC and CK read as zeros).
    private func readableBlock(_ number: UInt16) -> [UInt8] {
        let zeros = [UInt8](repeating: 0, count: 16)
        switch number {
        case 0...FeliCaLiteSBlock.register: return userBlocks[Int(number)]
        case FeliCaLiteSBlock.id: return idBlock
        case FeliCaLiteSBlock.deviceID: return idm + pmm
        case FeliCaLiteSBlock.serviceCode: return [0x0B, 0x00] + zeros.prefix(14)
        case FeliCaLiteSBlock.systemCode: return [0x88, 0xB4] + zeros.prefix(14)
        case FeliCaLiteSBlock.cardKeyVersion: return cardKeyVersionBlock
        case FeliCaLiteSBlock.memoryConfiguration: return memoryConfiguration.bytes
        case FeliCaLiteSBlock.writeCount:
            return [UInt8(writeCount & 0xFF), UInt8((writeCount >> 8) & 0xFF), UInt8((writeCount >> 16) & 0xFF)] + zeros.prefix(13)
        default: return zeros  // RC, MAC, CK, STATE (EXT_AUTH 00), CRC_CHECK (system area intact)
        }
    }

    /// Writes one block, or returns why the chip refuses it.
    private mutating func write(_ data: [UInt8], to number: UInt16) -> FeliCaStatus.Code? {
        switch number {
        case 0...FeliCaLiteSBlock.register:
            let user = Int(number)
            guard memoryConfiguration.userBlockWritable(user) else { return .illegalBlockNumber }
            if memoryConfiguration.writeRestricted(user) { return .authenticationRequired }
            if memoryConfiguration.macRequired(user) { return .illegalBlockNumber }
            userBlocks[user] = number == FeliCaLiteSBlock.register ? subtracting(data) : data
        case FeliCaLiteSBlock.randomChallenge:
            randomChallenge = data
        case FeliCaLiteSBlock.id:
            guard memoryConfiguration.systemBlocksWritable else { return .illegalBlockNumber }
            idBlock = Array(idBlock.prefix(8)) + data.suffix(8)
        case FeliCaLiteSBlock.cardKeyVersion:
            guard memoryConfiguration.systemBlocksWritable else { return .illegalBlockNumber }
            cardKeyVersionBlock = Array(data.prefix(2)) + [UInt8](repeating: 0, count: 14)
        case FeliCaLiteSBlock.cardKey:
            guard memoryConfiguration.systemBlocksWritable else { return .illegalBlockNumber }
            cardKey = data
        case FeliCaLiteSBlock.memoryConfiguration:
            memoryConfiguration = memoryConfiguration.applyingWrite(data)
        default:
            // MAC, D_ID, SER_C, SYS_C, WCNT, MAC_A alone, STATE without MAC, CRC_CHECK.
            return .illegalBlockNumber
        }
        return nil
    }

    /// REG: REGA (4 B) and REGB (4 B), little endian, only ever decrease; REGC (8 B) changes when
    /// both accept the new value (FeliCa Lite-S User's Manual §3.3.2).
    private func subtracting(_ data: [UInt8]) -> [UInt8] {
        let old = userBlocks[Int(FeliCaLiteSBlock.register)]
        func value(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        var result = old
        let aAccepted = value(data, 0) <= value(old, 0)
        let bAccepted = value(data, 4) <= value(old, 4)
        if aAccepted { result.replaceSubrange(0..<4, with: data[0..<4]) }
        if bAccepted { result.replaceSubrange(4..<8, with: data[4..<8]) }
        if aAccepted, bAccepted { result.replaceSubrange(8..<16, with: data[8..<16]) }
        return result
    }
}
