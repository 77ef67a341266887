import NFCTransport

/// The ATR a PC/SC contactless reader presents for a card in its field (PC/SC Part 3 v2.02
/// §3.1.3.2.3, docs/pcsc.md "ATR").
///
/// A contactless card has no ATR of its own; the reader builds one so that PC/SC applications
/// see a card like any other:
///
/// - **Storage tags** (Type 1, Type 2, ISO/IEC 15693, FeliCa):
///   `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK` — T0 `8F` (TD1 follows, 15
///   historical bytes), TD1 `80` (TD2 follows, T=0), TD2 `01` (T=1, nothing follows), then the
///   historical bytes: category indicator `80`, application identifier `4F 0C` holding the PC/SC
///   workgroup RID `A0 00 00 03 06`, the standard `SS`, the card name `NN NN` (PC/SC Part 3
///   supplemental document) and four RFU bytes.
/// - **ISO/IEC 14443-4 cards**: `3B 8n 80 01 <n historical bytes> TCK` — Type A: the historical
///   bytes of the ATS; Type B: the 4 application-data bytes of ATQB, its 3 protocol-info bytes
///   and the MBLI/CID byte of the ATTRIB answer.
///
/// TCK is the exclusive-or of every byte from T0 to the last historical byte (ISO/IEC 7816-3
/// §8.2.5; present because T=1 is indicated).
public enum ContactlessReaderATR {
    /// The standard byte `SS` of a storage card's ATR (PC/SC Part 3 supplemental document).
    public enum Standard: UInt8, Sendable, Hashable, CaseIterable {
        /// ISO/IEC 14443-A part 3.
        case iso14443A3 = 0x03
        /// ISO/IEC 14443-B part 3.
        case iso14443B3 = 0x07
        /// ISO/IEC 15693 part 3.
        case iso15693Part3 = 0x0B
        /// FeliCa (JIS X 6319-4).
        case felica = 0x11
    }

    /// Card names `NN NN` this reader emits (PC/SC Part 3 supplemental document, card names).
    public enum CardName {
        /// MIFARE Ultralight; readers report NTAG21x and Ultralight EV1 so too.
        public static let mifareUltralight: UInt16 = 0x0003
        /// MIFARE Ultralight EV1 (accepted by the driver, not emitted here).
        public static let mifareUltralightEV1: UInt16 = 0x003D
        /// NXP ICODE SLI (the SLIX2 is reported so).
        public static let icodeSLI: UInt16 = 0x0014
        /// Another ISO/IEC 15693 tag (ST25DV).
        public static let otherISO15693: UInt16 = 0x0000
        /// FeliCa.
        public static let felica: UInt16 = 0x003B
        /// Topaz, NFC Forum Type 1 (`002F` names the older Jewel).
        public static let topaz: UInt16 = 0x0030
    }

    /// The PC/SC workgroup's registered application provider identifier.
    public static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// An ATR holds at most 15 historical bytes (T0's low nibble, ISO/IEC 7816-3 §8.2.2).
    public static let maximumHistoricalBytes = 15

    /// The ATR a reader of `profile` presents for `tag`. The ACR122U names FeliCa and Topaz under
    /// standard `03` with ACS's card names `F0 11` (FeliCa at 212 kbit/s; `F0 12` at 424) and
    /// `F0 04` (Topaz), as API-ACR122U v2.04 §7.3 and §7.4 show; the rest as any Part 3 reader.
    public static func atr(for tag: any VirtualTag, profile: EmulatedReaderProfile = .generic) -> [UInt8] {
        if profile == .acr122u {
            switch tag.parameters {
            case .felica(let f):
                return storageCard(standard: .iso14443A3, name: f.maximumBitRate == .kbps424 ? 0xF012 : 0xF011)
            case .iso14443A(let a) where a.isType1Platform:
                return storageCard(standard: .iso14443A3, name: 0xF004)
            default:
                break
            }
        }
        switch tag.parameters {
        case .iso14443A(let a):
            if let ats = a.ats { return isoDEP(historicalBytes: ats.historicalBytes) }
            if a.isType1Platform { return storageCard(standard: .iso14443A3, name: CardName.topaz) }
            return storageCard(standard: .iso14443A3, name: CardName.mifareUltralight)
        case .iso14443B(let b):
            return isoDEP(historicalBytes: typeBHistoricalBytes(b))
        case .iso15693:
            let name = (tag as? ISO15693Tag)?.model == .icodeSLIX2 ? CardName.icodeSLI : CardName.otherISO15693
            return storageCard(standard: .iso15693Part3, name: name)
        case .felica:
            return storageCard(standard: .felica, name: CardName.felica)
        }
    }

    /// A storage card's ATR (PC/SC Part 3 §3.1.3.2.3.2).
    public static func storageCard(standard: Standard, name: UInt16) -> [UInt8] {
        let historical: [UInt8] =
            [0x80, 0x4F, 0x0C] + pcscRID
            + [standard.rawValue, UInt8(truncatingIfNeeded: name >> 8), UInt8(truncatingIfNeeded: name)]
            + [0x00, 0x00, 0x00, 0x00]
        return withCheck([0x3B, 0x80 | UInt8(historical.count), 0x80, 0x01] + historical)
    }

    /// An ISO/IEC 14443-4 card's ATR (PC/SC Part 3 §3.1.3.2.3.1); historical bytes beyond the 15
    /// an ATR can carry are dropped.
    public static func isoDEP(historicalBytes: [UInt8]) -> [UInt8] {
        let historical = Array(historicalBytes.prefix(maximumHistoricalBytes))
        return withCheck([0x3B, 0x80 | UInt8(historical.count), 0x80, 0x01] + historical)
    }

    /// Type B historical bytes: application data (4 bytes) and protocol info (3 bytes) of ATQB,
    /// then MBLI/CID from the answer to ATTRIB (PC/SC Part 3 §3.1.3.2.3.1, Table 3.1.3.2.3.1b).
    ///
    /// ``TargetInfo/ISO14443B`` does not keep the ATTRIB answer's first byte, so MBLI/CID is sent
    /// as `00` (MBLI 0: the card states no limit; CID 0). Fields of another length are padded with
    /// zeros or cut, so the ATR always has 8 historical bytes.
    static func typeBHistoricalBytes(_ b: TargetInfo.ISO14443B) -> [UInt8] {
        fitted(b.applicationData, 4) + fitted(b.protocolInfo, 3) + [0x00]
    }

    /// The XOR of every byte from T0 on (ISO/IEC 7816-3 §8.2.5).
    public static func checkCharacter(_ atrWithoutCheck: [UInt8]) -> UInt8 {
        atrWithoutCheck.dropFirst().reduce(0, ^)
    }

    private static func withCheck(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [checkCharacter(bytes)]
    }

    private static func fitted(_ bytes: [UInt8], _ count: Int) -> [UInt8] {
        Array(bytes.prefix(count)) + [UInt8](repeating: 0, count: max(0, count - bytes.count))
    }
}
