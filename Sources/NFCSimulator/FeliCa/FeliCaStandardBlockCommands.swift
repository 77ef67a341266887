/// Read Without Encryption and Write Without Encryption on a FeliCa Standard card.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §4.4.5–§4.4.6. Number of Service 1–16
/// (`FF A1`), Number of Block 1 to the card's maximum (`FF A2`); then each block list element in
/// turn, Status Flag 1 holding its position from 1: Service Code List order beyond the list
/// (`A3`), a wrong access mode (`A7`; `001` is for purse cashback and decrement only), a service
/// code the system lacks (`A6`), a code whose attribute needs a key or (for a write) is read-only
/// (`A5`), a block number beyond the service's blocks (`A8`), more writes to a cyclic service than
/// it has blocks (`AF`), a purse decrement below zero or an increment past four bytes (`01`), a
/// cashback above the cashback data (`02`). A write is all or nothing.
extension FeliCaStandardTag {
    static let readResponse: UInt8 = 0x07
    static let writeResponse: UInt8 = 0x09

    /// Where an element points: the service's index in its system, and the attribute of the code.
    private struct Target {
        var service: Int
        var attribute: FeliCaServiceAttribute
        var blockNumber: Int
    }

    mutating func readWithoutEncryption(_ parameters: ArraySlice<UInt8>, idm: [UInt8], system: Int) -> TagAnswer {
        let request: FeliCaBlockRequest
        switch FeliCaBlockRequest.parse(parameters, serviceLimit: 16, blockLimit: maximumReadBlocks, carriesData: false) {
        case .malformed: return .mute
        case .status(let status): return answer(Self.readResponse, idm, status)
        case .request(let parsed): request = parsed
        }
        var blocks: [[UInt8]] = []
        for (index, element) in request.elements.enumerated() {
            switch target(of: element, in: request, system: system, writing: false) {
            case .failure(let error):
                return answer(Self.readResponse, idm, FeliCaStatus(UInt8(index + 1), error.code))
            case .success(let target):
                blocks.append(systems[system].services[target.service].blocks[target.blockNumber])
            }
        }
        let response = FeliCaStatus.response(code: Self.readResponse, idm: idm, status: .success, blocks: blocks)
        return .bytes(response, processingTime: Self.readProcessing(blocks: blocks.count))
    }

    mutating func writeWithoutEncryption(_ parameters: ArraySlice<UInt8>, idm: [UInt8], system: Int) -> TagAnswer {
        let request: FeliCaBlockRequest
        switch FeliCaBlockRequest.parse(parameters, serviceLimit: 16, blockLimit: maximumWriteBlocks, carriesData: true) {
        case .malformed: return .mute
        case .status(let status): return answer(Self.writeResponse, idm, status)
        case .request(let parsed): request = parsed
        }
        var services = systems[system].services
        var cyclic: [Int: [(flag: UInt8, number: Int, data: [UInt8])]] = [:]
        for (index, element) in request.elements.enumerated() {
            let flag = UInt8(index + 1)
            let target: Target
            switch self.target(of: element, in: request, system: system, writing: true) {
            case .failure(let error): return answer(Self.writeResponse, idm, FeliCaStatus(flag, error.code))
            case .success(let found): target = found
            }
            let data = request.blockData[index]
            switch target.attribute.kind {
            case .cyclic?:
                cyclic[target.service, default: []].append((flag, target.blockNumber, data))
                if cyclic[target.service, default: []].count > services[target.service].blocks.count {
                    return answer(Self.writeResponse, idm, FeliCaStatus(flag, .tooManyCyclicWrites))
                }
            case .purse?:
                let current = services[target.service].blocks[0]
                switch Self.purse(current, data, access: target.attribute.purseAccess ?? .readOnly) {
                case .failure(let error): return answer(Self.writeResponse, idm, FeliCaStatus(flag, error.code))
                case .success(let updated): services[target.service].blocks[0] = updated
                }
            case .random?, nil:
                services[target.service].blocks[target.blockNumber] = data
            }
        }
        // Cyclic records: the m new ones take block numbers 0…m−1 (each once), the older ones move down.
        for (service, writes) in cyclic.sorted(by: { $0.key < $1.key }) {
            var fresh = [[UInt8]](repeating: [], count: writes.count)
            for write in writes {
                guard write.number < writes.count, fresh[write.number].isEmpty else {
                    return answer(Self.writeResponse, idm, FeliCaStatus(write.flag, .illegalBlockNumber))
                }
                fresh[write.number] = write.data
            }
            let old = services[service].blocks
            services[service].blocks = Array((fresh + old).prefix(old.count))
        }
        systems[system].services = services
        let response = FeliCaStatus.response(code: Self.writeResponse, idm: idm, status: .success)
        return TagAnswer(.bytes(response), processingTime: Self.writeProcessing(blocks: request.elements.count), writesMemory: true)
    }

    // MARK: Helpers

    private func answer(_ code: UInt8, _ idm: [UInt8], _ status: FeliCaStatus) -> TagAnswer {
        .bytes(FeliCaStatus.response(code: code, idm: idm, status: status), processingTime: Self.errorProcessing)
    }

    private func target(
        of element: FeliCaBlockListElement, in request: FeliCaBlockRequest, system: Int, writing: Bool
    ) -> Result<Target, FeliCaLookupError> {
        guard element.serviceOrder < request.serviceCodes.count else { return .failure(.init(.illegalServiceOrder)) }
        let code = request.serviceCodes[element.serviceOrder]
        let attribute = FeliCaServiceAttribute(code: code)
        let purseIncrement = attribute.purseAccess == .cashback || attribute.purseAccess == .decrement
        switch element.accessMode {
        case 0: break
        case 1 where writing && purseIncrement: break
        default: return .failure(.init(.illegalAccessMode))
        }
        guard let service = systems[system].services.firstIndex(where: { $0.codes.contains(code) }) else {
            return .failure(.init(.illegalServiceCode))
        }
        guard writing ? attribute.writableWithoutKey : !attribute.needsKey else {
            return .failure(.init(.accessNotAllowed))
        }
        guard Int(element.blockNumber) < systems[system].services[service].blocks.count else {
            return .failure(.init(.illegalBlockNumber))
        }
        return .success(Target(service: service, attribute: attribute, blockNumber: Int(element.blockNumber)))
    }

    /// A purse write: direct replaces the block; decrement subtracts D0–D3 from the balance;
    /// cashback adds D0–D3 up to the cashback data (D4–D7); both store the execution ID (D14–D15)
    /// (§3.4.4, Figures 3-15 to 3-17).
    private static func purse(
        _ block: [UInt8], _ data: [UInt8], access: FeliCaServiceAttribute.PurseAccess
    ) -> Result<[UInt8], FeliCaLookupError> {
        func value(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
            (0..<4).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        var updated = block
        let balance = value(block, 0)
        let amount = value(data, 0)
        let next: UInt64
        switch access {
        case .direct:
            return .success(data)
        case .decrement:
            guard amount <= balance else { return .failure(.init(.purseOutOfRange)) }
            next = balance - amount
        case .cashback:
            guard amount <= value(block, 4) else { return .failure(.init(.cashbackExceeded)) }
            next = balance + amount
            guard next <= 0xFFFF_FFFF else { return .failure(.init(.purseOutOfRange)) }
        case .readOnly:
            return .failure(.init(.accessNotAllowed))
        }
        for byte in 0..<4 { updated[byte] = UInt8((next >> (8 * UInt64(byte))) & 0xFF) }
        updated[14] = data[14]
        updated[15] = data[15]
        return .success(updated)
    }
}

/// A Status Flag 2 code as an `Error`, for `Result`.
struct FeliCaLookupError: Error, Sendable, Hashable {
    var code: FeliCaStatus.Code
    init(_ code: FeliCaStatus.Code) { self.code = code }
}
