import Foundation

/// Request Specification Version, Reset Mode and raw command packets (FeliCa Card User's Manual
/// Excerpted Edition §4.4.11, §4.4.12):
///
/// - Request Specification Version `3C IDm 00 00` → `3D IDm SF1 SF2 [format(1) basic(2) n options(2n)]`
///   (response format `00`; versions are BCD, low byte first)
/// - Reset Mode `3E IDm 00 00` → `3F IDm SF1 SF2`
@available(iOS 13.0, *)
extension FeliCaTagObject {
    /// Basic version and the option version list, both empty when Status Flag 1 is non-zero.
    func requestSpecificationVersion() async throws -> (Int, Int, Data, Data) {
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.requestSpecificationVersion, idm: idm, [0x00, 0x00])
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .other, units: 0))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.requestSpecificationVersion, idm: idm, minimum: 2)
        let (flag1, flag2) = FeliCaFrame.statusFlags(body)
        guard flag1 == 0 else { return (flag1, flag2, Data(), Data()) }
        // Format version (1), basic version (2), number of options (1).
        guard body.count >= 6 else { throw FeliCaFrame.truncated(FeliCaFrame.requestSpecificationVersion, answer.count, expected: 15) }
        let start = body.startIndex
        let basic = Data(body[start + 3..<start + 5])
        let options = Int(body[start + 5])
        guard body.count >= 6 + 2 * options else {
            throw FeliCaFrame.truncated(FeliCaFrame.requestSpecificationVersion, answer.count, expected: 15 + 2 * options)
        }
        return (flag1, flag2, basic, Data(body[start + 6..<start + 6 + 2 * options]))
    }

    func requestSpecificationVersion(completionHandler: @escaping (Int, Int, Data, Data, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.requestSpecificationVersion() }) { result in
            switch result {
            case .success(let (flag1, flag2, basic, option)): completionHandler(flag1, flag2, basic, option, nil)
            case .failure(let error): completionHandler(0, 0, Data(), Data(), error)
            }
        }
    }

    func resetMode() async throws -> (Int, Int) {
        let idm = currentIDm
        let frame = try FeliCaFrame.addressed(FeliCaFrame.resetMode, idm: idm, [0x00, 0x00])
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.timeout(pmm: pmm, .other, units: 0))
        let body = try FeliCaFrame.body(of: answer, command: FeliCaFrame.resetMode, idm: idm, minimum: 2)
        return FeliCaFrame.statusFlags(body)
    }

    func resetMode(completionHandler: @escaping (Int, Int, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.resetMode() }) { result in
            switch result {
            case .success(let (flag1, flag2)): completionHandler(flag1, flag2, nil)
            case .failure(let error): completionHandler(0, 0, error)
            }
        }
    }

    /// The packet goes out as given (1–254 bytes); the answer comes back whole. The wait is the
    /// PMm's for the command's kind on 16 units.
    func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        guard let code = commandPacket.first else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "an empty command packet")
        }
        guard commandPacket.count <= FeliCaFrame.maximumLength else {
            throw NFCReaderError(
                .readerTransceiveErrorPacketTooLong,
                reason: "the packet has \(commandPacket.count) bytes, more than the \(FeliCaFrame.maximumLength) a FeliCa frame holds")
        }
        return Data(try await transceive([UInt8](commandPacket), timeout: FeliCaResponseTime.raw(pmm: pmm, code: code)))
    }

    func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping (Data, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.sendFeliCaCommand(commandPacket: commandPacket) }) { result in
            switch result {
            case .success(let answer): completionHandler(answer, nil)
            case .failure(let error): completionHandler(Data(), error)
            }
        }
    }
}
