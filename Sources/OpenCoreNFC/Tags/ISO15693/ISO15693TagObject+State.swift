import Foundation

/// Stay Quiet, Select and Reset to Ready (ISO/IEC 15693-3 §10.3.2, §10.4.6, §10.4.7).
@available(iOS 13.0, *)
extension ISO15693TagObject {
    /// Stay Quiet is always addressed and never answered; silence is success.
    func stayQuiet() async throws {
        try await silentCommand(frame([.highDataRate, .address], ISO15693Code.stayQuiet))
    }

    func stayQuiet(completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.stayQuiet() }
    }

    /// Select must name the tag: the address flag is forced and the select flag dropped.
    func select(requestFlags flags: NFCISO15693RequestFlag) async throws {
        _ = try await command(flags.subtracting(.select), ISO15693Code.select)
    }

    func select(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.select(requestFlags: flags) }
    }

    func resetToReady(requestFlags flags: NFCISO15693RequestFlag) async throws {
        _ = try await command(flags, ISO15693Code.resetToReady)
    }

    func resetToReady(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.resetToReady(requestFlags: flags) }
    }
}
