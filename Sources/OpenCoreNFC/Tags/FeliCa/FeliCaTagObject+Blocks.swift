import Foundation

/// Read and Write Without Encryption (FeliCa Card User's Manual Excerpted Edition §4.4.5,
/// §4.4.6):
///
/// - `06 IDm m services(2m) n elements` → `07 IDm SF1 SF2 [n blocks(16n)]`
/// - `08 IDm m services(2m) n elements data(16n)` → `09 IDm SF1 SF2`
///
/// The status flags go back to the caller as the card sent them; a non-zero Status Flag 1 (the
/// card refused a service or a block) is not an error of the call and comes with no blocks.
@available(iOS 13.0, *)
extension FeliCaTagObject {
    func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (Int, Int, [Data]) {
        let services = try FeliCaParameters.codes(serviceCodeList, range: FeliCaParameters.serviceCodes, name: "service code")
        let elements = try FeliCaParameters.blockList(blockList)
        let idm = currentIDm
        let parameters = [UInt8(serviceCodeList.count)] + services + [UInt8(blockList.count)] + elements
        let frame = try FeliCaFrame.addressed(FeliCaFrame.readWithoutEncryption, idm: idm, parameters)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .read, units: blockList.count))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.readWithoutEncryption, idm: idm, minimum: 2)
        let (flag1, flag2) = FeliCaFrame.statusFlags(body)
        guard flag1 == 0 else { return (flag1, flag2, []) }
        guard body.count >= 3 else { throw FeliCaFrame.truncated(FeliCaFrame.readWithoutEncryption, answer.count, expected: 12) }
        let count = Int(body[body.startIndex + 2])
        guard body.count >= 3 + 16 * count else {
            throw FeliCaFrame.truncated(FeliCaFrame.readWithoutEncryption, answer.count, expected: 12 + 16 * count)
        }
        let blocks = (0..<count).map { index in
            let start = body.startIndex + 3 + 16 * index
            return Data(body[start..<start + 16])
        }
        return (flag1, flag2, blocks)
    }

    func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], completionHandler: @escaping (Int, Int, [Data], (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) }) { result in
            switch result {
            case .success(let (flag1, flag2, blocks)): completionHandler(flag1, flag2, blocks, nil)
            case .failure(let error): completionHandler(0, 0, [], error)
            }
        }
    }

    func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (Int, Int) {
        let services = try FeliCaParameters.codes(serviceCodeList, range: FeliCaParameters.serviceCodes, name: "service code")
        let elements = try FeliCaParameters.blockList(blockList)
        let data = try FeliCaParameters.blockData(blockData, elements: blockList.count)
        let idm = currentIDm
        let parameters = [UInt8(serviceCodeList.count)] + services + [UInt8(blockList.count)] + elements + data
        let frame = try FeliCaFrame.addressed(FeliCaFrame.writeWithoutEncryption, idm: idm, parameters)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .write, units: blockList.count))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.writeWithoutEncryption, idm: idm, minimum: 2)
        return FeliCaFrame.statusFlags(body)
    }

    func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        completionHandler: @escaping (Int, Int, (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) }) {
            result in
            switch result {
            case .success(let (flag1, flag2)): completionHandler(flag1, flag2, nil)
            case .failure(let error): completionHandler(0, 0, error)
            }
        }
    }
}
