import Foundation

/// Write and lock the AFI and the DSFID (ISO/IEC 15693-3 §10.4.8–§10.4.11).
@available(iOS 13.0, *)
extension ISO15693TagObject {
    func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8) async throws {
        _ = try await command(flags, ISO15693Code.writeAFI, [afi], timeout: .seconds(2))
    }

    func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.writeAFI(requestFlags: flags, afi: afi) }
    }

    func lockAFI(requestFlags flags: NFCISO15693RequestFlag) async throws {
        _ = try await command(flags, ISO15693Code.lockAFI, timeout: .seconds(2))
    }

    func lockAFI(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.lockAFI(requestFlags: flags) }
    }

    func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8) async throws {
        _ = try await command(flags, ISO15693Code.writeDSFID, [dsfid], timeout: .seconds(2))
    }

    func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.writeDSFID(requestFlags: flags, dsfid: dsfid) }
    }

    func lockDSFID(requestFlags flags: NFCISO15693RequestFlag) async throws {
        _ = try await command(flags, ISO15693Code.lockDSFID, timeout: .seconds(2))
    }

    func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void) {
        complete(completionHandler) { try await self.lockDSFID(requestFlags: flags) }
    }

    func lockDFSID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void) {
        lockDSFID(requestFlags: flags, completionHandler: completionHandler)
    }
}
