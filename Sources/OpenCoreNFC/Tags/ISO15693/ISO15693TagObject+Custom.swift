import Foundation

/// Custom commands (ISO/IEC 15693-3 §10.5), the cryptographic commands that carry ISO/IEC 29167
/// messages (ISO/IEC 15693-3:2019 §10.4.21–§10.4.24) and raw requests.
@available(iOS 13.0, *)
extension ISO15693TagObject {
    /// The code must be a custom one (0xA0…0xDF); the tag's IC manufacturer code follows it.
    func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data) async throws
        -> Data
    {
        let code = try Self.customCode(customCommandCode)
        let manufacturer = try Self.byte(icManufacturerCode, "IC manufacturer code")
        return Data(try await command(flags, code, manufacturer: manufacturer, [UInt8](customRequestParameters)))
    }

    func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        complete(Data(), completionHandler) {
            try await self.customCommand(
                requestFlags: flags, customCommandCode: customCommandCode, customRequestParameters: customRequestParameters)
        }
    }

    /// Sends the configuration's command with its manufacturer code (high data rate, addressed),
    /// retried as it says while the tag does not answer.
    func sendCustomCommand(commandConfiguration: NFCISO15693CustomCommandConfiguration) async throws -> Data {
        try refuseLegacyCall("sendCustomCommand(commandConfiguration:)")
        let code = try Self.customCode(commandConfiguration.customCommandCode)
        let manufacturer = try Self.byte(commandConfiguration.manufacturerCode, "manufacturer code")
        let parameters = [UInt8](commandConfiguration.requestParameters)
        return try await retrying(max(0, commandConfiguration.maximumRetries), commandConfiguration.retryInterval) {
            Data(try await self.command([.highDataRate], code, manufacturer: manufacturer, parameters))
        }
    }

    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration, completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        // A copy, so the caller may change its configuration while the command runs.
        nonisolated(unsafe) let configuration =
            commandConfiguration.copy() as? NFCISO15693CustomCommandConfiguration ?? commandConfiguration
        complete(Data(), completionHandler) { try await self.sendCustomCommand(commandConfiguration: configuration) }
    }

    static func customCode(_ code: Int) throws(NFCReaderError) -> UInt8 {
        guard ISO15693Code.custom.contains(code) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, reason: "custom command codes run from 0xA0 to 0xDF, not \(code)")
        }
        return UInt8(code)
    }

    // MARK: ISO/IEC 29167 crypto suites

    /// Authenticate: crypto suite identifier, then the suite's message.
    func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws -> (
        NFCISO15693ResponseFlag, Data
    ) {
        let suite = try Self.byte(cryptoSuiteIdentifier, "crypto suite identifier")
        return try await cryptoCommand(flags, ISO15693Code.authenticate, [suite] + message)
    }

    /// Key Update: key identifier, then the suite's message.
    func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data) async throws -> (
        NFCISO15693ResponseFlag, Data
    ) {
        let key = try Self.byte(keyIdentifier, "key identifier")
        return try await cryptoCommand(flags, ISO15693Code.keyUpdate, [key] + message)
    }

    func readBuffer(requestFlags flags: NFCISO15693RequestFlag) async throws -> (NFCISO15693ResponseFlag, Data) {
        try await cryptoCommand(flags, ISO15693Code.readBuffer, [])
    }

    /// Challenge: tags compute into their buffer without answering; an error answer still fails.
    func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws {
        let suite = try Self.byte(cryptoSuiteIdentifier, "crypto suite identifier")
        try await silentCommand(frame(addressing(flags), ISO15693Code.challenge, [suite] + message))
    }

    func challenge(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) {
            try await self.challenge(requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message)
        }
    }

    func cryptoCommand(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ parameters: [UInt8]) async throws(NFCReaderError) -> (
        NFCISO15693ResponseFlag, Data
    ) {
        let answer = try await exchange(frame(addressing(flags), code, parameters), timeout: .seconds(2))
        return (answer.flags, Data(answer.payload))
    }

    /// Sends flags, command code and data exactly as given (no address added); an error answer
    /// fails as every command's does.
    func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?) async throws -> (NFCISO15693ResponseFlag, Data?) {
        let flagsByte = try Self.byte(flags, "request flags")
        let code = try Self.byte(commandCode, "command code")
        let answer = try await exchange([flagsByte, code] + (data.map { [UInt8]($0) } ?? []), timeout: .seconds(2))
        return (answer.flags, answer.payload.isEmpty ? nil : Data(answer.payload))
    }
}
