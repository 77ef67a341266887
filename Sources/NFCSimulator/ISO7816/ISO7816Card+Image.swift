import NFCTransport

extension ISO7816Card: TagImageRepresentable {
    /// The persistent state of an ISO 7816 card: identity, ATS, host limits and applets.
    ///
    /// Transient state (the selected applet, a pending GET RESPONSE, a command chain) is not
    /// saved: an image is the card as it enters the field. Example:
    /// ```json
    /// {"uid": "045a71329c6e80", "atqa": "4403", "sak": "20", "ats": "067777710280",
    ///  "extendedLength": false, "maxCommandDataLength": 255, "maxResponseDataLength": 256,
    ///  "processingMicroseconds": 500, "applets": [{"applet": "ndef", …}]}
    /// ```
    public struct Image: Codable, Sendable, Hashable {
        /// 4, 7 or 10 bytes.
        public var uid: HexBytes
        /// The two ATQA bytes in transmission order (`4403` for ATQA 0x0344).
        public var atqa: HexBytes
        /// The final SAK, one byte.
        public var sak: HexBytes
        /// The ATS from TL on, without CRC.
        public var ats: HexBytes
        /// Whether extended-length APDUs are accepted.
        public var extendedLength: Bool
        /// The longest command data field (Nc) accepted.
        public var maxCommandDataLength: Int
        /// The longest response data field sent before `61xx`.
        public var maxResponseDataLength: Int
        /// Default processing time per command, in microseconds.
        public var processingMicroseconds: Int
        /// The applets in installation order.
        public var applets: [ISO7816AppletImage]
        /// For a Type B card, its ATQB fields; absent for Type A.
        public var typeB: TypeBImage?

        /// A Type B card's ATQB fields (ISO/IEC 14443-3:2018 §7.9), in hex.
        public struct TypeBImage: Codable, Sendable, Hashable {
            /// PUPI, 4 bytes.
            public var pupi: HexBytes
            /// Application data, 4 bytes.
            public var applicationData: HexBytes
            /// Protocol info, 3 bytes.
            public var protocolInfo: HexBytes

            /// The fields as given; ``ISO7816Card/init(image:)`` checks them.
            public init(pupi: HexBytes, applicationData: HexBytes, protocolInfo: HexBytes) {
                self.pupi = pupi
                self.applicationData = applicationData
                self.protocolInfo = protocolInfo
            }
        }

        /// Creates an image from its fields as given; ``ISO7816Card/init(image:)`` checks them.
        public init(
            uid: HexBytes, atqa: HexBytes, sak: HexBytes, ats: HexBytes, extendedLength: Bool,
            maxCommandDataLength: Int, maxResponseDataLength: Int, processingMicroseconds: Int,
            applets: [ISO7816AppletImage], typeB: TypeBImage? = nil
        ) {
            self.uid = uid
            self.atqa = atqa
            self.sak = sak
            self.ats = ats
            self.extendedLength = extendedLength
            self.maxCommandDataLength = maxCommandDataLength
            self.maxResponseDataLength = maxResponseDataLength
            self.processingMicroseconds = processingMicroseconds
            self.applets = applets
            self.typeB = typeB
        }
    }

    /// The card's persistent state; applets without an image (test doubles) are left out.
    public var image: Image {
        let (seconds, attoseconds) = configuration.processingTime.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return Image(
            uid: HexBytes(uid),
            atqa: HexBytes([UInt8(truncatingIfNeeded: atqa), UInt8(truncatingIfNeeded: atqa >> 8)]),
            sak: HexBytes([sak]),
            ats: HexBytes(ats.bytes),
            extendedLength: configuration.extendedLength,
            maxCommandDataLength: configuration.maxCommandDataLength,
            maxResponseDataLength: configuration.maxResponseDataLength,
            processingMicroseconds: Int(micros),
            applets: applets.compactMap(\.appletImage),
            typeB: typeB.map {
                Image.TypeBImage(
                    pupi: HexBytes($0.pupi), applicationData: HexBytes($0.applicationData), protocolInfo: HexBytes($0.protocolInfo))
            }
        )
    }

    /// Rebuilds a card from an image, checking every field against ISO/IEC 14443-3/-4 and the host's limits.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field (`uid`, `ats`, `applets[1].aid`, …).
    public init(image: Image) throws(TagImageError) {
        let uid = image.uid.bytes
        guard [4, 7, 10].contains(uid.count) else {
            throw TagImageError(.invalidValue, field: "uid", "a UID has 4, 7 or 10 bytes, not \(uid.count)")
        }
        guard uid[0] != 0x88, uid.count != 10 || uid[3] != 0x88 else {
            throw TagImageError(.invalidValue, field: "uid", "UID bytes may not be the cascade tag 88 where ISO/IEC 14443-3 puts CT")
        }
        let atqaBytes = image.atqa.bytes
        guard atqaBytes.count == 2 else {
            throw TagImageError(.invalidValue, field: "atqa", "ATQA has 2 bytes, not \(atqaBytes.count)")
        }
        guard atqaBytes[0] & 0xC0 == ISO14443AActivation.uidSizeBits(uidLength: uid.count) else {
            throw TagImageError(.invalidValue, field: "atqa", "ATQA UID size bits do not match a \(uid.count)-byte UID")
        }
        guard image.sak.bytes.count == 1, let sak = image.sak.bytes.first else {
            throw TagImageError(.invalidValue, field: "sak", "SAK has 1 byte, not \(image.sak.bytes.count)")
        }
        guard sak & 0x20 != 0, sak & 0x04 == 0 else {
            throw TagImageError(.invalidValue, field: "sak", "an ISO/IEC 14443-4 card's final SAK has bit 6 set and bit 3 clear")
        }
        let ats = try Self.validatedATS(image.ats.bytes)
        let extended = image.extendedLength
        guard (1...(extended ? 65_535 : 255)).contains(image.maxCommandDataLength) else {
            throw TagImageError(.invalidValue, field: "maxCommandDataLength", "must be 1–\(extended ? 65_535 : 255)")
        }
        guard (1...(extended ? 65_536 : 256)).contains(image.maxResponseDataLength) else {
            throw TagImageError(.invalidValue, field: "maxResponseDataLength", "must be 1–\(extended ? 65_536 : 256)")
        }
        guard (0...60_000_000).contains(image.processingMicroseconds) else {
            throw TagImageError(.invalidValue, field: "processingMicroseconds", "must be 0–60 000 000")
        }
        var applets: [any ISO7816Applet] = []
        for (index, appletImage) in image.applets.enumerated() {
            let applet: any ISO7816Applet
            do {
                applet = try appletImage.makeApplet()
            } catch {
                throw error.nested(under: "applets[\(index)]")
            }
            guard !applets.contains(where: { $0.aid == applet.aid }) else {
                throw TagImageError(.invalidValue, field: "applets[\(index)].aid", "another applet has the same AID")
            }
            applets.append(applet)
        }
        let typeB = try image.typeB.map { (b) throws(TagImageError) in try Self.validatedTypeB(b) }
        self.init(
            uid: uid, atqa: UInt16(atqaBytes[0]) | UInt16(atqaBytes[1]) << 8, sak: sak, ats: ats,
            configuration: Configuration(
                extendedLength: extended, maxCommandDataLength: image.maxCommandDataLength,
                maxResponseDataLength: image.maxResponseDataLength,
                processingTime: .microseconds(image.processingMicroseconds)
            ),
            applets: applets
        )
        self.typeB = typeB
    }

    /// Checks a Type B identity (ISO/IEC 14443-3:2018 §7.9): PUPI and application data 4 bytes,
    /// protocol info 3, its Protocol_Type saying ISO/IEC 14443-4 (low nibble of byte 2: `1`).
    static func validatedTypeB(_ image: Image.TypeBImage) throws(TagImageError) -> TypeB {
        guard image.pupi.bytes.count == 4 else {
            throw TagImageError(.invalidValue, field: "typeB.pupi", "a PUPI has 4 bytes, not \(image.pupi.bytes.count)")
        }
        guard image.applicationData.bytes.count == 4 else {
            throw TagImageError(
                .invalidValue, field: "typeB.applicationData", "application data has 4 bytes, not \(image.applicationData.bytes.count)")
        }
        let info = image.protocolInfo.bytes
        guard info.count == 3 else {
            throw TagImageError(.invalidValue, field: "typeB.protocolInfo", "protocol info has 3 bytes, not \(info.count)")
        }
        guard info[1] & 0x0F == 0x01 else {
            throw TagImageError(
                .invalidValue, field: "typeB.protocolInfo", "Protocol_Type must say ISO/IEC 14443-4 (1), not \(info[1] & 0x0F)")
        }
        return TypeB(pupi: image.pupi.bytes, applicationData: image.applicationData.bytes, protocolInfo: info)
    }

    /// Parses and checks an ATS (ISO/IEC 14443-4:2018 §5.2): FSCI 0–8, TA(1) bit 4 clear, FWI and SFGI 0–14.
    static func validatedATS(_ bytes: [UInt8]) throws(TagImageError) -> AnswerToSelect {
        let ats: AnswerToSelect
        do {
            ats = try AnswerToSelect(bytes: bytes)
        } catch {
            throw TagImageError(.invalidValue, field: "ats", error.reason)
        }
        guard ats.fsci <= 8 else {
            throw TagImageError(.invalidValue, field: "ats", "FSCI \(ats.fsci) is RFU (0–8)")
        }
        if let ta = ats.ta, ta & 0x08 != 0 {
            throw TagImageError(.invalidValue, field: "ats", "TA(1) bit 4 is RFU and must be 0")
        }
        if let tb = ats.tb, tb >> 4 == 15 || tb & 0x0F == 15 {
            throw TagImageError(.invalidValue, field: "ats", "TB(1) FWI and SFGI 15 are RFU")
        }
        return ats
    }
}
