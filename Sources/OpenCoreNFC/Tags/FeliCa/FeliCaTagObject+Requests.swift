import Foundation

/// The commands that ask a system about itself (FeliCa Card User's Manual Excerpted Edition
/// §4.4.3, §4.4.4, §4.4.10; Request Service v2 from the FeliCa Standard/AES command references):
///
/// - Request Service `02 IDm n nodes(2n)` → `03 IDm n keyVersions(2n)`
/// - Request Response `04 IDm` → `05 IDm mode`
/// - Request System Code `0C IDm` → `0D IDm n systemCodes(2n)`
/// - Request Service v2 `32 IDm n nodes(2n)` → `33 IDm SF1 SF2 [EncID AES(2n) [DES(2n)]]`
@available(iOS 13.0, *)
extension FeliCaTagObject {
    func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        let nodes = try FeliCaParameters.codes(nodeCodeList, range: FeliCaParameters.nodeCodes, name: "node code")
        let count = nodeCodeList.count
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.requestService, idm: idm, [UInt8(count)] + nodes)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .requestService, units: count))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.requestService, idm: idm, minimum: 1)
        let reported = Int(body[body.startIndex])
        guard body.count >= 1 + 2 * reported else {
            throw FeliCaFrame.truncated(FeliCaFrame.requestService, answer.count, expected: 10 + 2 * reported)
        }
        return FeliCaFrame.pairs(body.dropFirst(), count: reported)
    }

    func requestService(nodeCodeList: [Data], completionHandler: @escaping ([Data], (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.requestService(nodeCodeList: nodeCodeList) }) { result in
            switch result {
            case .success(let versions): completionHandler(versions, nil)
            case .failure(let error): completionHandler([], error)
            }
        }
    }

    func requestResponse() async throws -> Int {
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.requestResponse, idm: idm)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .fixed, units: 0))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.requestResponse, idm: idm, minimum: 1)
        return Int(body[body.startIndex])
    }

    func requestResponse(completionHandler: @escaping (Int, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.requestResponse() }) { result in
            switch result {
            case .success(let mode): completionHandler(mode, nil)
            case .failure(let error): completionHandler(0, error)
            }
        }
    }

    func requestSystemCode() async throws -> [Data] {
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.requestSystemCode, idm: idm)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .fixed, units: 0))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.requestSystemCode, idm: idm, minimum: 1)
        let count = Int(body[body.startIndex])
        guard body.count >= 1 + 2 * count else {
            throw FeliCaFrame.truncated(FeliCaFrame.requestSystemCode, answer.count, expected: 10 + 2 * count)
        }
        return FeliCaFrame.pairs(body.dropFirst(), count: count)
    }

    func requestSystemCode(completionHandler: @escaping ([Data], (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.requestSystemCode() }) { result in
            switch result {
            case .success(let codes): completionHandler(codes, nil)
            case .failure(let error): completionHandler([], error)
            }
        }
    }

    /// On a non-zero Status Flag 1 the card sends nothing after the flags: the identifier is
    /// then `.AES` and both lists are empty (Core NFC says to ignore them).
    func requestServiceV2(nodeCodeList: [Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) {
        let nodes = try FeliCaParameters.codes(nodeCodeList, range: FeliCaParameters.nodeCodes, name: "node code")
        let count = nodeCodeList.count
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.requestServiceV2, idm: idm, [UInt8(count)] + nodes)
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .requestService, units: count))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.requestServiceV2, idm: idm, minimum: 2)
        let (flag1, flag2) = FeliCaFrame.statusFlags(body)
        guard flag1 == 0 else { return (flag1, flag2, .AES, [], []) }
        let rest = body.dropFirst(2)
        guard let identifierByte = rest.first else {
            throw FeliCaFrame.truncated(FeliCaFrame.requestServiceV2, answer.count, expected: 12)
        }
        guard let identifier = NFCFeliCaEncryptionId(rawValue: Int(identifierByte)) else {
            throw NFCReaderError(
                .readerTransceiveErrorTagResponseError, reason: String(format: "unknown encryption identifier %02X", identifierByte))
        }
        let lists = identifier == .AES_DES ? 2 : 1
        guard rest.count >= 1 + 2 * count * lists else {
            throw FeliCaFrame.truncated(FeliCaFrame.requestServiceV2, answer.count, expected: 12 + 2 * count * lists)
        }
        let aes = FeliCaFrame.pairs(rest.dropFirst(), count: count)
        let des = lists == 2 ? FeliCaFrame.pairs(rest.dropFirst(1 + 2 * count), count: count) : []
        return (flag1, flag2, identifier, aes, des)
    }

    func requestServiceV2(
        nodeCodeList: [Data],
        completionHandler: @escaping (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.requestServiceV2(nodeCodeList: nodeCodeList) }) { result in
            switch result {
            case .success(let (flag1, flag2, identifier, aes, des)): completionHandler(flag1, flag2, identifier, aes, des, nil)
            case .failure(let error): completionHandler(0, 0, .AES, [], [], error)
            }
        }
    }
}
