/// The capability container file `E103` of a Type 4 Tag, as the card holds it: a header and the
/// list of files it describes.
///
/// Read from NFC Forum Type 4 Tag 2.0 §5.1 and T4T 3.0 as a card-maker would: after CCLEN (2
/// bytes, the file's used length), the mapping version, MLe and MLc (2 bytes each) comes a run of
/// file control TLVs up to CCLEN. The first describes the NDEF file — `04 06` (identifier, size in
/// 2 bytes, read access, write access) or, from mapping 3.0, `06 08` (the size in 4 bytes, and the
/// NDEF file then starts with a 4-byte ENLEN) — and any further ones are Proprietary File Control
/// TLVs `05 06` for the card's other files (an NTAG 424 DNA's CC lists its file `E105` so). TLVs of
/// other types are skipped by their length.
public struct Type4CapabilityContainer: Sendable, Hashable {
    /// One file control TLV.
    public struct FileControl: Sendable, Hashable {
        /// The TLV's type.
        public enum Kind: UInt8, Sendable, Hashable {
            /// NDEF File Control TLV `04`, 2-byte size.
            case ndef = 0x04
            /// Proprietary File Control TLV `05`, 2-byte size.
            case proprietary = 0x05
            /// Extended NDEF File Control TLV `06` (mapping 3.0), 4-byte size.
            case extendedNDEF = 0x06

            /// The TLV's value length: 6, or 8 for the extended TLV.
            var valueLength: Int { self == .extendedNDEF ? 8 : 6 }
        }

        /// What the TLV describes.
        public var kind: Kind
        /// The file's identifier.
        public var fileID: UInt16
        /// The file's size (for the NDEF file, NLEN or ENLEN included).
        public var maxSize: Int
        /// `00`: read access granted; `80`–`FE` proprietary.
        public var readAccess: UInt8
        /// `00`: write access granted; `FF` none; `80`–`FE` proprietary.
        public var writeAccess: UInt8

        /// A file control from its fields.
        public init(kind: Kind, fileID: UInt16, maxSize: Int, readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00) {
            self.kind = kind
            self.fileID = fileID
            self.maxSize = maxSize
            self.readAccess = readAccess
            self.writeAccess = writeAccess
        }

        /// T, L and the value.
        var tlv: [UInt8] {
            let size = kind == .extendedNDEF ? [24, 16, 8, 0] : [8, 0]
            return [kind.rawValue, UInt8(kind.valueLength), UInt8(fileID >> 8), UInt8(fileID & 0xFF)]
                + size.map { UInt8(truncatingIfNeeded: maxSize >> $0) } + [readAccess, writeAccess]
        }
    }

    /// Mapping version, major in the high nibble (`20` = 2.0, `30` = 3.0).
    public var mappingVersion: UInt8
    /// MLe, the most data one READ BINARY may ask for.
    public var maxReadLength: Int
    /// MLc, the most data one UPDATE BINARY may carry.
    public var maxUpdateLength: Int
    /// The files the CC describes: the NDEF file first, then the proprietary ones in CC order.
    public var files: [FileControl]

    /// A CC describing one NDEF file; by default read and write access are granted and the short
    /// NDEF File Control TLV is used.
    public init(
        mappingVersion: UInt8, maxReadLength: Int, maxUpdateLength: Int, ndefFileID: UInt16,
        maxNDEFFileSize: Int, readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, isExtended: Bool = false
    ) {
        self.mappingVersion = mappingVersion
        self.maxReadLength = maxReadLength
        self.maxUpdateLength = maxUpdateLength
        files = [
            FileControl(
                kind: isExtended ? .extendedNDEF : .ndef, fileID: ndefFileID, maxSize: maxNDEFFileSize, readAccess: readAccess,
                writeAccess: writeAccess)
        ]
    }

    /// The NDEF file's control (the first TLV).
    private var ndef: FileControl { files[0] }
    /// The NDEF file's identifier.
    public var ndefFileID: UInt16 { ndef.fileID }
    /// The NDEF file's size, NLEN or ENLEN included.
    public var maxNDEFFileSize: Int { ndef.maxSize }
    /// The NDEF file's read access.
    public var readAccess: UInt8 { ndef.readAccess }
    /// The NDEF file's write access.
    public var writeAccess: UInt8 { ndef.writeAccess }
    /// Whether the Extended NDEF File Control TLV (`06`) describes the NDEF file.
    public var isExtended: Bool { ndef.kind == .extendedNDEF }
    /// The length of the NLEN (2) or ENLEN (4) field at the start of the NDEF file.
    public var lengthFieldSize: Int { isExtended ? 4 : 2 }

    /// The file's bytes: the header with CCLEN counting every TLV, then the TLVs.
    public var bytes: [UInt8] {
        let tlvs = files.flatMap(\.tlv)
        let length = 7 + tlvs.count
        return [
            UInt8(length >> 8), UInt8(length & 0xFF), mappingVersion, UInt8(truncatingIfNeeded: maxReadLength >> 8),
            UInt8(truncatingIfNeeded: maxReadLength), UInt8(truncatingIfNeeded: maxUpdateLength >> 8),
            UInt8(truncatingIfNeeded: maxUpdateLength),
        ] + tlvs
    }

    /// Reads a CC file: the header, then the file control TLVs up to CCLEN (bytes after CCLEN,
    /// such as the zeros filling an NTAG 424 DNA's 32-byte CC file, are not part of it).
    /// - Throws: ``TagImageError`` `.invalidValue` at `capabilityContainer` naming the problem:
    ///   a file shorter than its header or than CCLEN, a TLV running past CCLEN, a first TLV that
    ///   is not an (extended) NDEF File Control TLV.
    public init(bytes: [UInt8]) throws(TagImageError) {
        func invalid(_ reason: String) -> TagImageError { TagImageError(.invalidValue, field: "capabilityContainer", reason) }
        guard bytes.count >= 7 else { throw invalid("\(bytes.count) bytes: the header alone has 7") }
        let used = Int(bytes[0]) << 8 | Int(bytes[1])
        guard used <= bytes.count else { throw invalid("CCLEN \(used) exceeds the file's \(bytes.count) bytes") }
        mappingVersion = bytes[2]
        maxReadLength = Int(bytes[3]) << 8 | Int(bytes[4])
        maxUpdateLength = Int(bytes[5]) << 8 | Int(bytes[6])
        files = []
        var offset = 7
        while offset + 2 <= used {
            let type = bytes[offset]
            let length = Int(bytes[offset + 1])
            let value = offset + 2
            guard value + length <= used else { throw invalid("the TLV at offset \(offset) runs past CCLEN \(used)") }
            if let kind = FileControl.Kind(rawValue: type), length == kind.valueLength {
                let id = UInt16(bytes[value]) << 8 | UInt16(bytes[value + 1])
                let size = bytes[(value + 2)..<(value + length - 2)].reduce(0) { $0 << 8 | Int($1) }
                files.append(
                    FileControl(
                        kind: kind, fileID: id, maxSize: size, readAccess: bytes[value + length - 2], writeAccess: bytes[value + length - 1]
                    ))
            }
            guard let first = files.first, first.kind != .proprietary else {
                throw invalid("the first TLV (\(type) \(length)) is no NDEF File Control TLV")
            }
            offset = value + length
        }
        guard !files.isEmpty else { throw invalid("CCLEN \(used) leaves no room for the NDEF File Control TLV") }
    }
}
