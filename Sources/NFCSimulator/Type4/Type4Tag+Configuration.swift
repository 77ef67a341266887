import NFCTransport

extension Type4Tag {
    /// How to build a Type 4 Tag: NDEF file, APDU limits, protection and radio parameters.
    public struct Configuration: Sendable, Hashable {
        /// 4, 7 (default) or 10 bytes.
        public var uid: [UInt8]
        /// The NDEF file's size, NLEN/ENLEN included: 5–32 767 bytes, or up to
        /// ``NDEFApplication/maxFileSize`` with mapping version 3.0 (Extended NDEF File Control TLV).
        public var ndefFileSize: Int
        /// `20` (2.0) or `30` (3.0: READ/UPDATE BINARY with offset data objects, files > 32 767 B).
        public var mappingVersion: UInt8
        /// MLe: 15–256 for short APDUs, up to 65 535 with extended ones.
        public var maxReadLength: Int
        /// MLc: 1–255 for short APDUs, up to 65 535 with extended ones.
        public var maxUpdateLength: Int
        /// Whether extended-length APDUs are accepted.
        public var extendedLength: Bool
        /// Whether the NDEF file is read-only (CC write access `FF`; UPDATE BINARY gets `6982`).
        public var writeProtected: Bool
        /// The NDEF file's identifier (default `E104`).
        public var ndefFileID: UInt16
        /// FSCI, the card's frame size code 0–8 (16–256 bytes; default 7 = 128 bytes).
        public var frameSizeCode: UInt8
        /// The highest bit rate the ATS offers, both directions.
        public var maximumBitRate: BitRate
        /// The card's time per command.
        public var processingTime: Duration

        /// A configuration; every part has a default.
        /// - Parameters:
        ///   - uid: 4, 7 or 10 bytes; default ``ISO7816Card/defaultUID``.
        ///   - ndefFileSize: default 2048 bytes.
        ///   - mappingVersion: default `20`, or `30` for files beyond 32 767 bytes.
        ///   - maxReadLength: default 255, or 65 535 with extended APDUs.
        ///   - maxUpdateLength: default 255, or 65 535 with extended APDUs.
        ///   - extendedLength: whether extended-length APDUs are accepted; default false.
        ///   - writeProtected: whether the NDEF file is read-only; default false.
        ///   - ndefFileID: the NDEF file's identifier; default `E104`.
        ///   - frameSizeCode: FSCI, 0–8; default 7 (128 bytes).
        ///   - maximumBitRate: the highest bit rate the ATS offers; default 848 kbit/s.
        ///   - processingTime: the card's time per command; default 500 µs.
        public init(
            uid: [UInt8] = ISO7816Card.defaultUID, ndefFileSize: Int = 2048, mappingVersion: UInt8? = nil,
            maxReadLength: Int? = nil, maxUpdateLength: Int? = nil, extendedLength: Bool = false,
            writeProtected: Bool = false, ndefFileID: UInt16 = 0xE104, frameSizeCode: UInt8 = 7,
            maximumBitRate: BitRate = .kbps848, processingTime: Duration = .microseconds(500)
        ) {
            self.uid = uid
            self.ndefFileSize = ndefFileSize
            self.mappingVersion = mappingVersion ?? (ndefFileSize > 0x7FFF ? 0x30 : 0x20)
            self.maxReadLength = maxReadLength ?? (extendedLength ? 0xFFFF : 255)
            self.maxUpdateLength = maxUpdateLength ?? (extendedLength ? 0xFFFF : 255)
            self.extendedLength = extendedLength
            self.writeProtected = writeProtected
            self.ndefFileID = ndefFileID
            self.frameSizeCode = frameSizeCode
            self.maximumBitRate = maximumBitRate
            self.processingTime = processingTime
        }

        /// Whether the NDEF file needs the Extended NDEF File Control TLV (beyond 32 767 bytes).
        public var usesExtendedNDEFFile: Bool { ndefFileSize > 0x7FFF }

        /// The CC this configuration describes.
        public var capabilityContainer: Type4CapabilityContainer {
            Type4CapabilityContainer(
                mappingVersion: mappingVersion, maxReadLength: maxReadLength, maxUpdateLength: maxUpdateLength,
                ndefFileID: ndefFileID, maxNDEFFileSize: ndefFileSize, readAccess: 0x00,
                writeAccess: writeProtected ? 0xFF : 0x00, isExtended: usesExtendedNDEFFile
            )
        }

        /// The ATS: FSCI, TA(1) for the bit rate (same in both directions), TB(1) `71` (FWI 7,
        /// SFGI 1), TC(1) `02` (CID supported), historical byte `80` (ISO/IEC 14443-4 §5.2).
        public var answerToSelect: AnswerToSelect {
            let ta: UInt8 =
                switch maximumBitRate {
                case .kbps106: 0x00
                case .kbps212: 0x11
                case .kbps424: 0x33
                case .kbps848: 0x77
                }
            return AnswerToSelect(fsci: frameSizeCode, ta: ta, tb: 0x71, tc: 0x02, historicalBytes: [0x80])
        }

        /// Checks every field against NFC Forum T4T and ISO/IEC 14443-4.
        /// - Throws: ``TagImageError`` `.invalidValue` naming the field.
        public func validate() throws(TagImageError) {
            guard [4, 7, 10].contains(uid.count) else {
                throw TagImageError(.invalidValue, field: "uid", "a UID has 4, 7 or 10 bytes, not \(uid.count)")
            }
            guard [0x20, 0x30].contains(mappingVersion) else {
                throw TagImageError(.invalidValue, field: "mappingVersion", "supported mapping versions are 2.0 (20) and 3.0 (30)")
            }
            let largest = mappingVersion >= 0x30 ? NDEFApplication.maxFileSize : 0x7FFF
            guard (5...largest).contains(ndefFileSize) else {
                throw TagImageError(
                    .invalidValue, field: "ndefFileSize", "must be 5–\(largest) bytes for mapping version \(mappingVersion >> 4).0")
            }
            let readRange = 15...(extendedLength ? 0xFFFF : 256)
            guard readRange.contains(maxReadLength) else {
                throw TagImageError(.invalidValue, field: "maxReadLength", "MLe must be \(readRange.lowerBound)–\(readRange.upperBound)")
            }
            let updateRange = 1...(extendedLength ? 0xFFFF : 255)
            guard updateRange.contains(maxUpdateLength) else {
                throw TagImageError(
                    .invalidValue, field: "maxUpdateLength", "MLc must be \(updateRange.lowerBound)–\(updateRange.upperBound)")
            }
            guard ![0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF].contains(ndefFileID) else {
                throw TagImageError(
                    .invalidValue, field: "ndefFileID", "0000, E102, E103, 3F00, 3FFF and FFFF are reserved file identifiers")
            }
            guard frameSizeCode <= 8 else {
                throw TagImageError(.invalidValue, field: "frameSizeCode", "FSCI must be 0–8")
            }
            guard processingTime >= .zero else {
                throw TagImageError(.invalidValue, field: "processingTime", "must not be negative")
            }
        }
    }
}
