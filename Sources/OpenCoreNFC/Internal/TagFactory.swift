import Foundation
import ISO7816
import NFCTags
import NFCTransport

/// Makes the tag objects sessions hand out, by technology.
enum TagFactory {
    /// The tag an NDEF session hands out: any kind, adopting `NFCNDEFTag`.
    static func ndefTag(for target: TargetInfo, generation: Int, session: NFCReaderSession) -> NFCTagObject {
        switch TagFamily(target) {
        case .type1: NFCTagObject(target: target, generation: generation, session: session, requiresConnection: true)
        case .type2: MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true)
        case .type4: ISO7816TagObject(target: target, generation: generation, session: session, requiresConnection: true, selectedAID: "")
        case .type5: ISO15693TagObject(target: target, generation: generation, session: session, requiresConnection: true)
        case .type3: FeliCaTagObject(target: target, generation: generation, session: session, requiresConnection: true)
        }
    }

    /// What discovery makes of a target in a tag session.
    enum Discovery {
        /// Hand this tag to the app.
        case deliver(NFCTag)
        /// Core NFC would not deliver it (no listed AID or system code answered).
        case skip
        /// The session ends with this error (an ISO 7816 card and no AID to select).
        case refuse(NFCReaderError)
    }

    /// The tag a tag session hands out, as Core NFC decides:
    /// - an ISO 7816 card is delivered after one of the app's AIDs answers SELECT with normal or
    ///   warning processing (tried in list order; the winner becomes `initialSelectedAID`);
    /// - when none answers, an NXP ISO 14443-4 MIFARE (DESFire, Plus) is delivered as
    ///   `NFCMiFareTag`, so native and wrapped commands reach it (Apple's `NFCMiFareTag`
    ///   reference: `mifareFamily` `.desfire`, `.plus`); any other card is skipped;
    /// - with no AID in the Info.plist to select, a card that is not such a MIFARE ends the session with
    ///   "Missing required entitlement" (`readerErrorSecurityViolation`), as iOS does
    ///   (capawesome-team/capacitor-nfc-demo#12);
    /// - a PACE session delivers only ISO 7816 cards with an EF.CardAccess (ICAO 9303-11 §4.4:
    ///   a chip that supports PACE stores its parameters there), and nothing else; every ISO 7816
    ///   card is asked for EF.CardAccess (under the MF, before any AID is selected) and its tag
    ///   says whether it has one (`supportsPACE`, iOS 26.4);
    /// - a FeliCa card is delivered only when it answers Polling for one of the app's system codes.
    static func discover(_ target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> Discovery {
        let pace = session.pollsPACE
        switch TagFamily(target) {
        case .type1:
            // Core NFC has no tag type for a Type 1 tag (NFCTagType: FeliCa, ISO 7816, ISO 15693,
            // MIFARE): only NDEF sessions deliver it (docs/corenfc-differences.md).
            return .skip
        case .type2:
            if pace || session.deliversOnlyISO7816 || speaksCrypto1(target) { return .skip }
            return .deliver(.miFare(MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true)))
        case .type5:
            if pace || session.deliversOnlyISO7816 { return .skip }
            return .deliver(
                .iso15693(ISO15693TagObject(target: target, generation: generation, session: session, requiresConnection: true)))
        case .type3:
            if pace || session.deliversOnlyISO7816 { return .skip }
            guard let (idm, code) = await pollFirstSystemCode(target: target, generation: generation, session: session) else {
                return .skip
            }
            let tag = FeliCaTagObject(target: target, generation: generation, session: session, requiresConnection: true)
            tag.selection.withLock { $0 = (Data(idm), Data([UInt8(code >> 8), UInt8(code & 0xFF)])) }
            return .deliver(.feliCa(tag))
        case .type4:
            let offersPACE = await hasCardAccess(target: target, generation: generation, session: session)
            if pace, !offersPACE { return .skip }
            if let aid = await selectFirstAID(target: target, generation: generation, session: session) {
                return .deliver(
                    .iso7816(
                        ISO7816TagObject(
                            target: target, generation: generation, session: session, requiresConnection: true, selectedAID: aid,
                            supportsPACE: offersPACE)))
            }
            if !pace, !session.deliversOnlyISO7816, isNXPMiFare(target) {
                return .deliver(
                    .miFare(MiFareTagObject(target: target, generation: generation, session: session, requiresConnection: true)))
            }
            // The entitlement problem is the Info.plist's: a session configuration that narrows
            // its AIDs to none just finds no card.
            if AppRules.selectableAIDs(allowingPayment: session.selectsPaymentAIDs).isEmpty {
                let violation = NFCSessionEnvironment.shared.appConfiguration?.checkCanDetectISO7816Tag()
                return .refuse(
                    NFCReaderError(
                        .readerErrorSecurityViolation,
                        reason: violation?.message ?? "Missing required entitlement: no ISO 7816 AID to select"))
            }
            return .skip
        }
    }

    /// Whether a Type A card without ISO-DEP answers as MIFARE Classic (SAK bit 3 or 4: Classic
    /// 1K `08`, 4K `18`, Mini `09`, a MIFARE Plus at SL1 or SL2 `10`/`11`): Core NFC has no tag type for it
    /// ("Crypto1 protocol is not supported", Apple's `NFCMiFareTag`), and an iPhone's tag session
    /// does not deliver a MIFARE Plus at SL1 (Apple developer forums thread 121524).
    static func speaksCrypto1(_ target: TargetInfo) -> Bool {
        guard case .iso14443A(let a) = target.parameters, a.ats == nil else { return false }
        return a.sak & 0x08 != 0 || a.sak & 0x10 != 0
    }

    /// Whether an ISO 14443-4 card is an NXP MIFARE Core NFC reports as `NFCMiFareTag`:
    /// type A, NXP's IC manufacturer code (`04`, ISO/IEC 7816-6) as the UID's first byte, and an
    /// ATS (NXP AN10833, "MIFARE type identification procedure": SAK bit 6 means ISO 14443-4).
    static func isNXPMiFare(_ target: TargetInfo) -> Bool {
        guard case .iso14443A(let a) = target.parameters, a.ats != nil else { return false }
        return target.identifier.first == 0x04
    }

    /// Whether an ISO 7816 card has an EF.CardAccess (file `011C` under the MF), read with
    /// SELECT by file identifier (ICAO 9303-10 §3.11.2, 9303-11 §4.4).
    static func hasCardAccess(target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> Bool {
        guard let connection = try? await session.connection(for: target, generation: generation) else { return false }
        let select: [UInt8] = [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1C]
        guard let answer = try? await connection.transceive(select, timeout: .seconds(1)),
            let response = try? ResponseAPDU(parsing: answer)
        else { return false }
        return response.statusWord == .success
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

    /// Whether a SELECT answer means the application was selected: normal processing (`9000`,
    /// `61xx`) or warning processing (`62xx`, `63xx`), where ISO/IEC 7816-4 §5.6 says the
    /// command was processed — `6283`, "selected file deactivated", still selects it. Errors
    /// (`64xx`–`6Fxx`) do not.
    static func selected(_ status: StatusWord) -> Bool {
        status == .success || (0x61...0x63).contains(status.sw1)
    }

    /// SELECTs the app's AIDs in order; the first that ``selected(_:)`` accepts, as upper-case hex.
    static func selectFirstAID(target: TargetInfo, generation: Int, session: NFCTagReaderSession) async -> String? {
        let identifiers = session.selectIdentifiers
        guard !identifiers.isEmpty, let connection = try? await session.connection(for: target, generation: generation) else { return nil }
        for aid in identifiers {
            guard let frame = try? CommandAPDU.select(aid: aid).encoded(),
                let answer = try? await connection.transceive(frame, timeout: .seconds(1)),
                let response = try? ResponseAPDU(parsing: answer)
            else { continue }
            if selected(response.statusWord) {
                return aid.map { String(format: "%02X", $0) }.joined()
            }
        }
        return nil
    }
}
