import Foundation

/// The `resultHandler:` forms Core NFC's Swift overlay adds in iOS 14: each calls the
/// completion-handler form and wraps its values in a `Result` (the response structures of
/// `Types/NFCFeliCa*.swift`), on the same queue.
@available(iOS 14.0, *)
extension NFCFeliCaTag {
    /// Polling; `requestData` is nil when the card sent none.
    @preconcurrency
    public func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        resultHandler: @escaping (Result<NFCFeliCaPollingResponse, any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) { pmm, requestData, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(NFCFeliCaPollingResponse(manufactureParameter: pmm, requestData: requestData.isEmpty ? nil : requestData)))
        }
    }

    /// Request Service (`02`): each node's key version (2 bytes), `FFFF` for a node the system lacks.
    @preconcurrency
    public func requestService(nodeCodeList: [Data], resultHandler: @escaping (Result<[Data], any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        requestService(nodeCodeList: nodeCodeList) { versions, error in
            resultHandler(error.map { .failure($0) } ?? .success(versions))
        }
    }

    /// Request Response (`04`): the card's mode, 0–3.
    @preconcurrency
    public func requestResponse(resultHandler: @escaping (Result<Int, any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        requestResponse { mode, error in
            resultHandler(error.map { .failure($0) } ?? .success(mode))
        }
    }

    /// Read Without Encryption (`06`): the status flags and, when Status Flag 1 is 0, the 16-byte blocks read.
    @preconcurrency
    public func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data],
        resultHandler: @escaping (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { flag1, flag2, blocks, error in
            resultHandler(error.map { .failure($0) } ?? .success((NFCFeliCaStatusFlag(statusFlag1: flag1, statusFlag2: flag2), blocks)))
        }
    }

    /// Write Without Encryption (`08`): the status flags; Status Flag 1 is 0 when every block was written.
    @preconcurrency
    public func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        resultHandler: @escaping (Result<NFCFeliCaStatusFlag, any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) { flag1, flag2, error in
            resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaStatusFlag(statusFlag1: flag1, statusFlag2: flag2)))
        }
    }

    /// Request System Code (`0C`): the card's system codes, 2 bytes each as the card sends them.
    @preconcurrency
    public func requestSystemCode(resultHandler: @escaping (Result<[Data], any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        requestSystemCode { codes, error in
            resultHandler(error.map { .failure($0) } ?? .success(codes))
        }
    }

    /// Request Service v2; the key version lists are nil when the card sent none.
    @preconcurrency
    public func requestServiceV2(
        nodeCodeList: [Data], resultHandler: @escaping (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        requestServiceV2(nodeCodeList: nodeCodeList) { flag1, flag2, identifier, aes, des, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(
                    NFCFeliCaRequsetServiceV2Response(
                        statusFlag1: flag1, statusFlag2: flag2, encryptionIdentifier: identifier,
                        nodeKeyVersionListAES: aes.isEmpty ? nil : aes, nodeKeyVersionListDES: des.isEmpty ? nil : des)))
        }
    }

    /// Request Specification Version; the versions are nil when the card sent none.
    @preconcurrency
    public func requestSpecificationVersion(
        resultHandler: @escaping (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        requestSpecificationVersion { flag1, flag2, basic, option, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(
                    NFCFeliCaRequestSpecificationVersionResponse(
                        statusFlag1: flag1, statusFlag2: flag2, basicVersion: basic.isEmpty ? nil : basic,
                        optionVersion: option.isEmpty ? nil : option)))
        }
    }

    /// Reset Mode (`3E`): returns the card to mode 0; the status flags.
    @preconcurrency
    public func resetMode(resultHandler: @escaping (Result<NFCFeliCaStatusFlag, any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        resetMode { flag1, flag2, error in
            resultHandler(error.map { .failure($0) } ?? .success(NFCFeliCaStatusFlag(statusFlag1: flag1, statusFlag2: flag2)))
        }
    }

    /// Sends a raw command packet (command code first, without LEN and CRC); the response packet without LEN and CRC.
    @preconcurrency
    public func sendFeliCaCommand(commandPacket: Data, resultHandler: @escaping (Result<Data, any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        sendFeliCaCommand(commandPacket: commandPacket) { answer, error in
            resultHandler(error.map { .failure($0) } ?? .success(answer))
        }
    }
}
