import Foundation
import ISO7816
import NFCTags
import NFCTransport

/// Makes the tag objects sessions hand out, by technology.
enum TagFactory {
    /// The tag an NDEF session hands out: any kind, adopting `NFCNDEFTag`.
    static func ndefTag(for target: TargetInfo, generation: Int, session: NFCReaderSession) -> NFCTagObject {
        switch TagFamily(target) {
        case .type2: MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true)
        case .type4: ISO7816TagObject(target: target, generation: generation, session: session, requiresConnection: true, selectedAID: "")
        case .type5: ISO15693TagObject(target: target, generation: generation, session: session, requiresConnection: true)
        case .type3: FeliCaTagObject(target: target, generation: generation, session: session, requiresConnection: true)
        }
    }

    /// The tag a tag session hands out, or nil when Core NFC would not deliver it: an ISO 7816
    /// card is delivered only after one of the app's AIDs answers SELECT with 9000 (tried in list
    /// order; the winner becomes `initialSelectedAID`).
    static func tag(for target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> NFCTag? {
        switch TagFamily(target) {
        case .type2:
            return .miFare(MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true))
        case .type5:
            return .iso15693(ISO15693TagObject(target: target, generation: generation, session: session, requiresConnection: true))
        case .type3:
            return .feliCa(FeliCaTagObject(target: target, generation: generation, session: session, requiresConnection: true))
        case .type4:
            guard let aid = await selectFirstAID(target: target, generation: generation, session: session) else { return nil }
            return .iso7816(ISO7816TagObject(target: target, generation: generation, session: session, requiresConnection: true, selectedAID: aid))
        }
    }

    /// SELECTs the app's AIDs in order; the first answered with 9000, as upper-case hex.
    static func selectFirstAID(target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> String? {
        let identifiers = session.selectIdentifiers
        guard !identifiers.isEmpty, let connection = try? await session.connection(for: target, generation: generation) else { return nil }
        for aid in identifiers {
            guard let frame = try? CommandAPDU.select(aid: aid).encoded(),
                let answer = try? await connection.transceive(frame, timeout: .seconds(1)),
                let response = try? ResponseAPDU(parsing: answer)
            else { continue }
            if response.statusWord == .success {
                return aid.map { String(format: "%02X", $0) }.joined()
            }
        }
        return nil
    }
}
