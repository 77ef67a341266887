import Foundation
import NFCTransport

/// An ISO 7816 tag (ISO 14443-4 card), as Core NFC's `NFCISO7816Tag`.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCISO7816Tag: NFCNDEFTag, __NFCTag {
    /// The AID from the app's list that answered SELECT with 9000, as hex.
    var initialSelectedAID: String { get }
    /// The UID (Type A) or PUPI (Type B).
    var identifier: Data { get }
    /// The ATS historical bytes (Type A).
    var historicalBytes: Data? { get }
    /// The application data from ATQB (Type B).
    var applicationData: Data? { get }
    /// Whether the ATQB's application data is proprietary (Type B).
    var proprietaryApplicationDataCoding: Bool { get }
    /// Whether the card supports PACE (iOS 26.4): here, whether it has an EF.CardAccess under
    /// the MF, where a PACE chip lists its protocols (ICAO Doc 9303 Part 11 §4.4, Part 10 §3.11.3).
    @available(iOS 26.4, *)
    var supportsPACE: Bool { get }

    /// Sends an APDU and returns the response data and status word.
    func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, (any Error)?) -> Void)
    /// Sends an APDU and returns the response data, SW1 and SW2; an answer without a status word fails with
    /// `readerTransceiveErrorTagResponseError`.
    func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8)
}

/// The ISO 7816 tags sessions hand out.
@available(iOS 13.0, *)
final class ISO7816TagObject: NFCTagObject, NFCISO7816Tag, __NFCTag, @unchecked Sendable {
    let initialSelectedAID: String
    let supportsPACE: Bool

    init(
        target: TargetInfo, generation: Int, session: NFCReaderSession, requiresConnection: Bool, selectedAID: String,
        supportsPACE: Bool = false
    ) {
        self.initialSelectedAID = selectedAID
        self.supportsPACE = supportsPACE
        super.init(target: target, generation: generation, session: session, requiresConnection: requiresConnection)
    }

    required init?(coder: NSCoder) { nil }

    var type: NFCTagType { .iso7816Compatible }
    var identifier: Data { Data(target.identifier) }

    var historicalBytes: Data? {
        guard case .iso14443A(let a) = target.parameters, let ats = a.ats else { return nil }
        return Data(ats.historicalBytes)
    }

    var applicationData: Data? {
        guard case .iso14443B(let b) = target.parameters else { return nil }
        return Data(b.applicationData)
    }

    var proprietaryApplicationDataCoding: Bool {
        guard case .iso14443B(let b) = target.parameters, b.protocolInfo.count >= 3 else { return false }
        return b.protocolInfo[2] & 0x01 != 0
    }

    func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await APDURelay.send(apdu, through: self)
    }

    func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, (any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                let (data, sw1, sw2) = try await sendCommand(apdu: apdu)
                deliver { completionHandler(data, sw1, sw2, nil) }
            } catch {
                deliver { completionHandler(Data(), 0, 0, error) }
            }
        }
    }
}
