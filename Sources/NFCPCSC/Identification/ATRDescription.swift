import NFCBytes

/// An ATR in words, as `nfc readers --watch` and `pcsc_scan` show it: for a contactless
/// reader's storage-card ATR the standard and the card's name (PC/SC Part 3 v2.02
/// §3.1.3.2.3.2 and its supplemental document's tables of standards and card names), for an
/// ISO/IEC 14443-4 card its historical bytes (§3.1.3.2.3.1), with any text they hold.
public struct ATRDescription: Sendable, Hashable, CustomStringConvertible {
    /// What kind of card the ATR describes.
    public enum Kind: String, Sendable, Hashable {
        /// A storage card (Type 2, ISO/IEC 15693, FeliCa, MIFARE Classic…) behind a contactless reader.
        case storage
        /// An ISO/IEC 14443-4 card behind a contactless reader.
        case isoDEP
        /// Not a contactless reader's ATR: a contact card, or a virtual one.
        case contact
        /// Not a well-formed ATR (ISO/IEC 7816-3 §8.2).
        case malformed
    }

    /// The kind.
    public let kind: Kind
    /// A storage card's standard (`SS`), in words.
    public let standard: String?
    /// A storage card's name (`NN NN`), in words, when the supplemental document lists it.
    public let cardName: String?
    /// The historical bytes, for the other kinds.
    public let historicalBytes: [UInt8]
    /// Why the ATR is malformed.
    public let problem: String?

    /// Describes `atr`; never throws: a malformed ATR says what is wrong with it.
    public init(atr: [UInt8]) {
        do {
            switch try ContactlessATR(atr: atr) {
            case .storage(let standard, let name):
                self.init(
                    kind: .storage, standard: Self.standards[standard] ?? "standard \(Hex.encode([standard]))",
                    cardName: Self.cardNames[name] ?? (name == 0 ? nil : "card name \(Hex.encode([UInt8(name >> 8), UInt8(name & 0xFF)]))"),
                    historicalBytes: [], problem: nil)
            case .isoDEP(let historical):
                self.init(kind: .isoDEP, standard: nil, cardName: nil, historicalBytes: historical, problem: nil)
            case .contact(let historical):
                self.init(kind: .contact, standard: nil, cardName: nil, historicalBytes: historical, problem: nil)
            }
        } catch {
            self.init(kind: .malformed, standard: nil, cardName: nil, historicalBytes: [], problem: error.reason)
        }
    }

    private init(kind: Kind, standard: String?, cardName: String?, historicalBytes: [UInt8], problem: String?) {
        self.kind = kind
        self.standard = standard
        self.cardName = cardName
        self.historicalBytes = historicalBytes
        self.problem = problem
    }

    /// Text in the historical bytes (a card's own name, as many put there), or nil: with the
    /// category indicator `80`, the printable values of its COMPACT-TLV data objects (ISO/IEC
    /// 7816-4 §8.1.1: tag and length in one byte); otherwise runs of four or more printable
    /// ASCII characters.
    public var historicalText: String? {
        let printable = { (bytes: ArraySlice<UInt8>) in bytes.allSatisfy { (0x20...0x7E).contains($0) } }
        var texts: [String] = []
        if historicalBytes.first == 0x80 {
            var index = 1
            while index < historicalBytes.count {
                let length = Int(historicalBytes[index] & 0x0F)
                let value = historicalBytes[min(index + 1, historicalBytes.count)..<min(index + 1 + length, historicalBytes.count)]
                if value.count >= 3, printable(value) { texts.append(String(decoding: value, as: UTF8.self)) }
                index += 1 + length
            }
        } else {
            var run: [UInt8] = []
            for byte in historicalBytes + [0] {
                if (0x20...0x7E).contains(byte) {
                    run.append(byte)
                } else {
                    if run.count >= 4 { texts.append(String(decoding: run, as: UTF8.self)) }
                    run = []
                }
            }
        }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }

    /// One line: `storage card: ISO/IEC 14443 A part 3, MIFARE Ultralight`, `ISO/IEC 14443-4
    /// card, historical bytes 8073… ("YubiKey")`, ….
    public var description: String {
        switch kind {
        case .storage:
            return "storage card: " + [standard, cardName].compactMap { $0 }.joined(separator: ", ")
        case .isoDEP:
            return "ISO/IEC 14443-4 card" + historicalSuffix
        case .contact:
            return "contact or virtual card (not a contactless reader's ATR)" + historicalSuffix
        case .malformed:
            return "malformed ATR: \(problem ?? "")"
        }
    }

    private var historicalSuffix: String {
        guard !historicalBytes.isEmpty else { return ", no historical bytes" }
        return ", historical bytes \(Hex.encode(historicalBytes))" + (historicalText.map { " (\"\($0)\")" } ?? "")
    }

    /// PC/SC Part 3 supplemental document: the standard byte `SS`.
    static let standards: [UInt8: String] = [
        0x01: "ISO/IEC 14443 A part 1", 0x02: "ISO/IEC 14443 A part 2", 0x03: "ISO/IEC 14443 A part 3",
        0x05: "ISO/IEC 14443 B part 1", 0x06: "ISO/IEC 14443 B part 2", 0x07: "ISO/IEC 14443 B part 3",
        0x09: "ISO/IEC 15693 part 1", 0x0A: "ISO/IEC 15693 part 2", 0x0B: "ISO/IEC 15693 part 3",
        0x0C: "ISO/IEC 15693 part 4", 0x0D: "contact (ISO/IEC 7816-10) I2C", 0x0E: "contact (ISO/IEC 7816-10) extended I2C",
        0x0F: "contact (ISO/IEC 7816-10) 2WBP", 0x10: "contact (ISO/IEC 7816-10) 3WBP", 0x11: "FeliCa",
        0x40: "low-frequency contactless",
    ]

    /// PC/SC Part 3 supplemental document: the card names `NN NN` of storage cards.
    static let cardNames: [UInt16: String] = [
        0x0001: "MIFARE Classic 1K", 0x0002: "MIFARE Classic 4K", 0x0003: "MIFARE Ultralight (or NTAG21x)",
        0x0004: "SLE55R_XXXX", 0x0006: "SR176", 0x0007: "SRI X4K", 0x0008: "AT88RF020", 0x0009: "AT88SC0204CRF",
        0x000A: "AT88SC0808CRF", 0x000B: "AT88SC1616CRF", 0x000C: "AT88SC3216CRF", 0x000D: "AT88SC6416CRF",
        0x000E: "SRF55V10P", 0x000F: "SRF55V02P", 0x0010: "SRF55V10S", 0x0011: "SRF55V02S", 0x0012: "Tag-it",
        0x0013: "LRI512", 0x0014: "ICODE SLI", 0x0015: "TEMPSENS", 0x0016: "I.CODE1", 0x0017: "PicoPass 2K",
        0x0018: "PicoPass 2KS", 0x0019: "PicoPass 16K", 0x001A: "PicoPass 16KS", 0x0021: "LRI64", 0x0022: "I.CODE UID",
        0x0023: "I.CODE EPC", 0x0024: "LRI12", 0x0025: "LRI128", 0x0026: "MIFARE Mini", 0x002F: "Jewel",
        0x0030: "Topaz", 0x0035: "ICODE SLI-2", 0x0036: "MIFARE Plus SL1 2K", 0x0037: "MIFARE Plus SL1 4K",
        0x0038: "MIFARE Plus SL2 2K", 0x0039: "MIFARE Plus SL2 4K", 0x003A: "MIFARE Ultralight C", 0x003B: "FeliCa",
        0x003D: "MIFARE Ultralight EV1",
    ]
}
