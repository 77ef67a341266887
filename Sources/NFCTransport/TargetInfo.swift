/// What a reader learned about a target while detecting and activating it.
///
/// `identifier` is the UID as users see it: ISO/IEC 14443 UIDs in transmission order, ISO/IEC
/// 15693 UIDs most significant byte first (`E0 04 …`, the reverse of the wire order), FeliCa IDm.
public struct TargetInfo: Sendable, Hashable, CustomStringConvertible {
    /// An opaque value by which the driver that reported the target finds it again.
    public var handle: UInt64
    /// UID, PUPI or IDm.
    public var identifier: [UInt8]
    /// The technology-specific activation data.
    public var parameters: Parameters

    /// Makes a target; drivers build these when they detect one. `handle` must let the same driver find the target again.
    public init(handle: UInt64, identifier: [UInt8], parameters: Parameters) {
        self.handle = handle
        self.identifier = identifier
        self.parameters = parameters
    }

    /// The technology-specific activation data.
    public enum Parameters: Sendable, Hashable {
        /// An ISO/IEC 14443 Type A target: ATQA, SAK and the ATS when there is one.
        case iso14443A(ISO14443A)
        /// An ISO/IEC 14443 Type B target: ATQB fields and the answer to ATTRIB.
        case iso14443B(ISO14443B)
        /// An ISO/IEC 15693 target: the inventory response's DSFID.
        case iso15693(ISO15693)
        /// A FeliCa target: PMm and the system code polled for.
        case felica(FeliCa)
    }

    /// ISO/IEC 14443-3 Type A activation: ATQA, SAK and (for ISO-DEP cards) the ATS.
    public struct ISO14443A: Sendable, Hashable {
        /// ATQA as sent, least significant byte first on the wire; here as a 16-bit value (byte 1 | byte 2 << 8).
        public var atqa: UInt16
        /// The final SAK.
        public var sak: UInt8
        /// The ATS, when the card is ISO/IEC 14443-4 compliant and was activated with RATS.
        public var ats: AnswerToSelect?
        /// Makes Type A activation data; `ats` is nil for a card that was not activated with RATS.
        public init(atqa: UInt16, sak: UInt8, ats: AnswerToSelect? = nil) {
            self.atqa = atqa
            self.sak = sak
            self.ats = ats
        }
        /// SAK bit 6: the card speaks ISO/IEC 14443-4 (ISO/IEC 14443-3 §6.5.3.4).
        public var supportsISODEP: Bool { sak & 0x20 != 0 }
        /// The Type 1 Tag platform (Topaz, Jewel): ATQA bits b1–b5 all zero — no bit frame
        /// anticollision — which only Type 1 Tags answer (NFC Forum Digital Protocol 1.0
        /// §4.6.3, SENS_RES; BCM20203T512 data sheet: ATQA `0C 00`, first byte on the air `00`).
        /// Such a tag has no SAK and no SELECT; its UID comes from RID.
        public var isType1Platform: Bool { atqa & 0x001F == 0 && ats == nil }
    }

    /// ISO/IEC 14443-3 Type B activation: ATQB fields and the answer to ATTRIB.
    public struct ISO14443B: Sendable, Hashable {
        /// ATQB Application Data, 4 bytes; empty when the reader does not report it.
        public var applicationData: [UInt8]
        /// ATQB Protocol Info, 3 bytes or more (bit rates, frame size, FWI, options); empty when the reader does not report it.
        public var protocolInfo: [UInt8]
        /// The Higher Layer Response of the answer to ATTRIB, read as the card's historical bytes; empty when there is none.
        public var higherLayerResponse: [UInt8]
        /// Makes Type B activation data; the higher layer response defaults to empty.
        public init(applicationData: [UInt8], protocolInfo: [UInt8], higherLayerResponse: [UInt8] = []) {
            self.applicationData = applicationData
            self.protocolInfo = protocolInfo
            self.higherLayerResponse = higherLayerResponse
        }
    }

    /// ISO/IEC 15693-3 inventory response: DSFID (the UID is the identifier).
    public struct ISO15693: Sendable, Hashable {
        /// The Data Storage Format Identifier from the inventory response (0 when the reader does not report it).
        public var dsfid: UInt8
        /// Makes ISO/IEC 15693 activation data.
        public init(dsfid: UInt8) { self.dsfid = dsfid }
    }

    /// FeliCa polling response: PMm and the system code polled for (JIS X 6319-4 §9.1).
    public struct FeliCa: Sendable, Hashable {
        /// Manufacture parameter, 8 bytes: IC code and maximum response time parameters.
        public var pmm: [UInt8]
        /// The system code the card answered for.
        public var systemCode: UInt16
        /// The highest bit rate the card offers.
        public var maximumBitRate: BitRate
        /// Makes FeliCa activation data; the bit rate defaults to 212 kbit/s.
        public init(pmm: [UInt8], systemCode: UInt16, maximumBitRate: BitRate = .kbps212) {
            self.pmm = pmm
            self.systemCode = systemCode
            self.maximumBitRate = maximumBitRate
        }
    }

    /// The technology of the target.
    public var technology: Technology {
        switch parameters {
        case .iso14443A: .iso14443A
        case .iso14443B: .iso14443B
        case .iso15693: .iso15693
        case .felica: .felica
        }
    }

    /// Whether `transceive` carries ISO 7816 APDUs (the ISO-DEP layer is handled by the driver).
    public var speaksISODEP: Bool {
        switch parameters {
        case .iso14443A(let a): a.ats != nil
        case .iso14443B: true
        case .iso15693, .felica: false
        }
    }

    /// For ISO/IEC 15693 tags, the IC manufacturer code (UID byte 7, after `E0`, ISO/IEC 7816-6).
    public var icManufacturerCode: UInt8? {
        guard case .iso15693 = parameters, identifier.count == 8 else { return nil }
        return identifier[1]
    }

    /// The technology and the identifier in lower-case hex, e.g. `iso15693 e004…`.
    public var description: String {
        let uid = identifier.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
        return "\(technology) \(uid)"
    }
}
