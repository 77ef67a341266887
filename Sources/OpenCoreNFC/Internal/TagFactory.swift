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
    /// order; the winner becomes `initialSelectedAID`); a FeliCa card only when it answers Polling for
    /// one of the app's system codes.
    static func tag(for target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> NFCTag? {
        switch TagFamily(target) {
        case .type2:
            return .miFare(MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true))
        case .type5:
            return .iso15693(ISO15693TagObject(target: target, generation: generation, session: session, requiresConnection: true))
        case .type3:
            guard let (idm, code) = await pollFirstSystemCode(target: target, generation: generation, session: session) else { return nil }
            let tag = FeliCaTagObject(target: target, generation: generation, session: session, requiresConnection: true)
            tag.selection.withLock { $0 = (Data(idm), Data([UInt8(code >> 8), UInt8(code & 0xFF)])) }
            return .feliCa(tag)
        case .type4:
            guard let aid = await selectFirstAID(target: target, generation: generation, session: session) else { return nil }
            return .iso7816(
                ISO7816TagObject(target: target, generation: generation, session: session, requiresConnection: true, selectedAID: aid))
        }
    }

    /// Polls a FeliCa card for the app's system codes in order (JIS X 6319-4 Polling `00 SC SC 00
    /// 00` → `01 IDm PMm`); the first that answers, with the IDm of that system. A card answering
    /// none of them is not delivered, as Core NFC polls only for the listed codes.
    static func pollFirstSystemCode(target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> ([UInt8], UInt16)? {
        let codes = session.feliCaSystemCodes
        guard !codes.isEmpty, let connection = try? await session.connection(for: target, generation: generation) else { return nil }
        for code in codes {
            let frame: [UInt8] = [0x00, UInt8(code >> 8), UInt8(code & 0xFF), 0x00, 0x00]
            guard let answer = try? await connection.transceive(frame, timeout: .milliseconds(20)),
                answer.count >= 17, answer[0] == 0x01
            else { continue }
            return (Array(answer[1..<9]), code)
        }
        return nil
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
