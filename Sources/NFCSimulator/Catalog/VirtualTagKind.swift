import Crypto
import NFCBytes
import NFCTransport

/// The virtual tags the simulator offers by name: what `nfc tag new` creates and the `type` of a
/// tag image file.
public enum VirtualTagKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NXP NTAG213 (144 bytes of user memory).
    case ntag213
    /// NXP NTAG215 (504 bytes of user memory).
    case ntag215
    /// NXP NTAG216 (888 bytes of user memory).
    case ntag216
    /// MIFARE Ultralight EV1 MF0UL21 (128 bytes of user memory).
    case ultralight
    /// MIFARE Ultralight EV1 MF0UL11 (48 bytes of user memory).
    case ultralightMF0UL11 = "ultralight-mf0ul11"
    /// Broadcom Topaz 512, NFC Forum Type 1 with the dynamic memory layout (64 blocks of 8 bytes).
    case topaz512
    /// Broadcom Topaz 96, NFC Forum Type 1 with the static memory layout (96 data bytes).
    case topaz96
    /// An NFC Forum Type 4 Tag: ISO-DEP card with the NDEF application, a CC file and a 2 KB NDEF
    /// file (NLEN `0000`, the INITIALIZED state tags ship in).
    case type4
    /// The same NFC Forum Type 4 Tag answering as ISO/IEC 14443 Type B (PUPI, ATQB, ATTRIB; saved
    /// as a `type4` image with a `typeB` block).
    case type4b
    /// NXP NTAG 424 DNA: AES keys, EV2 secure messaging and Secure Dynamic Messaging (SUN), as
    /// shipped (all keys zero, an empty NDEF file). The chip ships NDEF-formatted, so `blank` makes
    /// the same tag.
    case ntag424
    /// NXP MIFARE DESFire EV1 (8 KB, a DES PICC master key of zeros, no EV2 authentication): formatted as an NFC Forum
    /// Type 4 Tag (AN11004's NDEF application, an empty message); `blank` as shipped, with no application.
    case desfireEV1 = "desfire-ev1"
    /// NXP MIFARE DESFire EV2, formatted like ``desfireEV1`` unless blank.
    case desfireEV2 = "desfire-ev2"
    /// NXP MIFARE DESFire EV3, formatted like ``desfireEV1`` unless blank.
    case desfireEV3 = "desfire-ev3"
    /// NXP MIFARE Plus EV2 (2 KB): personalised to SL3 with every AES key `FF…FF` and the
    /// transport access conditions; `blank` at SL0, as shipped.
    case mifarePlus = "mifare-plus"
    /// An ISO-DEP card with an ISO 7816 applet host and no applet (what `type4 --blank` makes: a
    /// factory-fresh card without the NDEF application).
    case iso7816
    /// NXP ICODE SLIX2 (80 blocks of 4 bytes).
    case slix2
    /// ST25DV16K (512 blocks of 4 bytes; 16-bit block numbers through the extended commands).
    case iso15693_2k = "iso15693-2k"
    /// Sony FeliCa Lite-S (14 user blocks of 16 bytes; NDEF-formatted unless blank).
    case felicaLiteS = "felica-lite-s"
    /// A FeliCa Standard card with two application systems (and an NDEF system unless blank).
    case felica
    /// A security key: an ISO-DEP card with extended-length APDUs holding the authenticator
    /// applets of `SecurityKeyApplets` (saved as an `iso7816` image).
    case securityKey = "security-key"
    /// A phone holding one Wallet pass, answering Apple's VAS protocol (``WalletApplet``; saved as
    /// an `iso7816` image). The pass's merchant key is made fresh; `nfc tag new wallet-pass`
    /// takes or writes one.
    case walletPass = "wallet-pass"
    /// A passport's chip: the eMRTD application of ICAO Doc 9303 with BAC (``PassportApplet``,
    /// issued for the ICAO specimen holder by ``PassportIssuer``; saved as an `iso7816` image).
    /// `nfc tag new passport` takes the holder's fields.
    case passport
    /// An ID card's chip: the same application with a TD1 MRZ.
    case idCard = "id-card"

    /// The kind's name as written in a tag image's `type` and given to `nfc tag new` (e.g. `ntag213`, `felica-lite-s`).
    public var description: String { rawValue }

    /// Makes a tag of this kind.
    ///
    /// - Parameters:
    ///   - blank: factory-fresh and unformatted; otherwise formatted for NDEF with an empty message.
    ///   - identifier: the UID (7 bytes for Type 1 and Type 2) or IDm (8 bytes for FeliCa); a fixed default when `nil`.
    /// - Throws: ``TagImageError`` `.invalidValue` at `uid` for an identifier of the wrong shape.
    public func make(blank: Bool = false, identifier: [UInt8]? = nil) throws(TagImageError) -> any VirtualTag {
        switch self {
        case .ntag213, .ntag215, .ntag216, .ultralight, .ultralightMF0UL11:
            let model = type2Model!
            if let identifier {
                guard identifier.count == 7, identifier[0] != 0x88 else {
                    throw TagImageError(
                        .invalidValue, field: "uid", "\(model) UIDs have 7 bytes and do not start with 88; got \(Hex.encode(identifier))")
                }
            }
            return Type2Tag(model: model, uid: identifier, blank: blank)
        case .topaz512, .topaz96:
            if let identifier, identifier.count != 7 {
                throw TagImageError(.invalidValue, field: "uid", "Topaz UIDs have 7 bytes; got \(Hex.encode(identifier))")
            }
            return Type1Tag(model: self == .topaz96 ? .topaz96 : .topaz512, uid: identifier, blank: blank)
        case .type4, .iso7816:
            if let identifier, ![4, 7, 10].contains(identifier.count) {
                throw TagImageError(
                    .invalidValue, field: "uid", "ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes; got \(Hex.encode(identifier))")
            }
            let uid = identifier ?? ISO7816Card.defaultUID
            if self == .iso7816 || blank { return ISO7816Card(uid: uid) }
            return try Type4Tag(configuration: Type4Tag.Configuration(uid: uid))
        case .type4b:
            if let identifier, identifier.count != 4 {
                throw TagImageError(.invalidValue, field: "uid", "a Type B PUPI has 4 bytes; got \(Hex.encode(identifier))")
            }
            var card: ISO7816Card
            if blank {
                card = ISO7816Card()
            } else {
                card = try Type4Tag(configuration: Type4Tag.Configuration()).card
            }
            card.typeB = ISO7816Card.TypeB(pupi: identifier ?? ISO7816Card.TypeB.defaultPUPI)
            return blank ? card : Type4Tag(card: card)
        case .ntag424:
            if let identifier, identifier.count != 7 {
                throw TagImageError(.invalidValue, field: "uid", "NTAG 424 DNA UIDs have 7 bytes; got \(Hex.encode(identifier))")
            }
            return NTAG424Tag(uid: identifier ?? NTAG424Tag.defaultUID)
        case .desfireEV1, .desfireEV2, .desfireEV3:
            if let identifier, identifier.count != 7 {
                throw TagImageError(.invalidValue, field: "uid", "DESFire UIDs have 7 bytes; got \(Hex.encode(identifier))")
            }
            let model: DESFireModel = self == .desfireEV1 ? .ev1 : self == .desfireEV2 ? .ev2 : .ev3
            let uid = identifier ?? DESFireCard.defaultUID
            return blank ? DESFireCard(model: model, uid: uid) : DESFireCard.ndefFormatted(model: model, uid: uid)
        case .mifarePlus:
            if let identifier, identifier.count != 7 {
                throw TagImageError(.invalidValue, field: "uid", "MIFARE Plus UIDs have 7 bytes here; got \(Hex.encode(identifier))")
            }
            return MIFAREPlusCard(uid: identifier ?? MIFAREPlusCard.defaultUID, securityLevel: blank ? .sl0 : .sl3)
        case .securityKey:
            if let identifier, ![4, 7, 10].contains(identifier.count) {
                throw TagImageError(
                    .invalidValue, field: "uid", "ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes; got \(Hex.encode(identifier))")
            }
            return ISO7816Card(
                uid: identifier ?? ISO7816Card.defaultUID,
                configuration: ISO7816Card.Configuration(extendedLength: true),
                applets: SecurityKeyApplets.make(blank: blank)
            )
        case .walletPass:
            if let identifier, ![4, 7, 10].contains(identifier.count) {
                throw TagImageError(
                    .invalidValue, field: "uid", "ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes; got \(Hex.encode(identifier))")
            }
            let pass = WalletApplet.Pass(
                passTypeIdentifier: WalletApplet.samplePassTypeIdentifier, message: Array("OpenCoreNFC sample pass".utf8),
                merchantKey: P256.KeyAgreement.PrivateKey().publicKey)
            return ISO7816Card(uid: identifier ?? WalletApplet.phoneUID, applets: blank ? [] : [WalletApplet(passes: [pass])])
        case .passport, .idCard:
            if let identifier, ![4, 7, 10].contains(identifier.count) {
                throw TagImageError(
                    .invalidValue, field: "uid", "ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes; got \(Hex.encode(identifier))")
            }
            let applet = try PassportIssuer.issue(PassportHolder(kind: self == .passport ? .passport : .idCard))
            return PassportApplet.card(applet, uid: identifier)
        case .slix2, .iso15693_2k:
            let model: ISO15693Tag.Model = self == .slix2 ? .icodeSLIX2 : .st25dv16k
            guard let identifier else { return blank ? ISO15693Tag.blank(model) : ISO15693Tag.formatted(model) }
            return try ISO15693Tag(model: model, uid: identifier, formatted: !blank)
        case .felicaLiteS:
            try Self.checkIDm(identifier)
            return FeliCaLiteSTag(idm: identifier ?? FeliCaLiteSTag.defaultIDm, formatting: blank ? .blank : .ndef)
        case .felica:
            try Self.checkIDm(identifier)
            var idm = identifier ?? FeliCaStandardTag.defaultIDm
            idm[0] &= 0x0F  // system 0's IDm has a zero upper nibble
            let systems = blank ? FeliCaStandardTag.defaultSystems : FeliCaStandardTag.defaultSystems + [Self.felicaNDEFSystem]
            return try FeliCaStandardTag(idm: idm, systems: systems)
        }
    }

    /// The kind of a tag, or `nil` for tags that are not in the catalogue.
    public init?(of tag: any VirtualTag) {
        switch tag {
        case let tag as Type2Tag:
            switch tag.model {
            case .ntag213: self = .ntag213
            case .ntag215: self = .ntag215
            case .ntag216: self = .ntag216
            case .ultralightEV1MF0UL21: self = .ultralight
            case .ultralightEV1MF0UL11: self = .ultralightMF0UL11
            }
        case let tag as Type1Tag: self = tag.model == .topaz96 ? .topaz96 : .topaz512
        case let tag as ISO15693Tag:
            switch tag.model {
            case .icodeSLIX2: self = .slix2
            case .st25dv16k: self = .iso15693_2k
            }
        case is NTAG424Tag: self = .ntag424
        case let card as DESFireCard:
            switch card.model {
            case .ev1: self = .desfireEV1
            case .ev2: self = .desfireEV2
            case .ev3: self = .desfireEV3
            }
        case is MIFAREPlusCard: self = .mifarePlus
        case let tag as Type4Tag: self = tag.card.typeB == nil ? .type4 : .type4b
        case let card as ISO7816Card:
            guard let passport = card.applets.first as? PassportApplet else {
                self = .iso7816
                return
            }
            // DG1's MRZ: 90 characters (TD1) on an ID card.
            let dg1 = passport.files.first { $0.identifier == 0x0101 }?.content.count ?? 0
            self = dg1 == 5 + 90 ? .idCard : .passport
        case is FeliCaLiteSTag: self = .felicaLiteS
        case is FeliCaStandardTag: self = .felica
        default: return nil
        }
    }

    var type2Model: Type2Tag.Model? {
        switch self {
        case .ntag213: .ntag213
        case .ntag215: .ntag215
        case .ntag216: .ntag216
        case .ultralight: .ultralightEV1MF0UL21
        case .ultralightMF0UL11: .ultralightEV1MF0UL11
        default: nil
        }
    }

    private static func checkIDm(_ identifier: [UInt8]?) throws(TagImageError) {
        if let identifier, identifier.count != 8 {
            throw TagImageError(.invalidValue, field: "uid", "a FeliCa IDm has 8 bytes, got \(identifier.count)")
        }
    }

    /// An NFC Forum Type 3 system (`12FC`) for a FeliCa Standard card: service 0 readable and
    /// writable without a key, an attribute block (Nbr 12, Nbw 10 — the card's limits — and
    /// Nmaxb 64) and 64 data blocks (1 KB). NFC Forum Type 3 Tag 1.0 §6 (attribute information).
    static let felicaNDEFSystem = FeliCaStandardTag.System(
        code: 0x12FC,
        services: [
            FeliCaStandardTag.Service(
                codes: [0x0009, 0x000B],
                blocks: [FeliCaType3Attributes(blocksPerRead: 12, blocksPerWrite: 10, maximumBlocks: 64).block]
                    + Array(repeating: [UInt8](repeating: 0, count: 16), count: 64)
            )
        ]
    )
}
