import NFCBytes

/// The capability container (file `E103`) of an NFC Forum Type 4 Tag, parsed and checked.
///
/// NFC Forum Type 4 Tag 2.0 §5.1 (Table 4) and T4T 3.0 (mapping version 3.0): CCLEN (2 bytes),
/// mapping version (1), MLe (2), MLc (2), then the NDEF File Control TLV `04 06` (file
/// identifier, maximum NDEF file size in 2 bytes, read access, write access) or the Extended NDEF
/// File Control TLV `06 08` (the size in 4 bytes; the NDEF file then starts with a 4-byte ENLEN
/// instead of the 2-byte NLEN). Further TLVs (proprietary files) are kept in ``bytes`` only.
public struct Type4Capabilities: Sendable, Hashable {
    /// CCLEN, the size of the CC file.
    public var ccLength: Int
    /// The mapping version, major version in the high nibble (`20` = 2.0, `30` = 3.0).
    public var mappingVersion: UInt8
    /// MLe, the most data one READ BINARY may return.
    public var maxReadLength: Int
    /// MLc, the most data one UPDATE BINARY may carry.
    public var maxUpdateLength: Int
    /// The NDEF file's identifier.
    public var ndefFileID: UInt16
    /// The NDEF file's size, NLEN or ENLEN included.
    public var maxNDEFFileSize: Int
    /// Read access condition: `00` granted, `80`–`FE` proprietary.
    public var readAccess: UInt8
    /// Write access condition: `00` granted, `FF` none, `80`–`FE` proprietary.
    public var writeAccess: UInt8
    /// Whether the Extended NDEF File Control TLV (`06`, 4-byte size and ENLEN) is used.
    public var isExtended: Bool
    /// The bytes read from the CC file.
    public var bytes: [UInt8]

    /// The bytes to read before the first TLV is complete: 15, or 17 when it is the extended TLV.
    public static func length(toParse prefix: [UInt8]) -> Int {
        prefix.count > 7 && prefix[7] == 0x06 ? 17 : 15
    }

    /// File identifiers the NDEF file may not have (T4T 2.0 §5.1.2: `0000`, `E102`, `E103`,
    /// `3F00`, `3FFF` reserved by ISO/IEC 7816-4; `FFFF` RFU).
    public static let reservedFileIDs: Set<UInt16> = [0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF]

    /// Parses the start of a CC file and checks every field against its range.
    ///
    /// - Throws: ``TagEngineError`` `.invalidCapabilityContainer` naming the field (CCLEN,
    ///   mapping version, MLe, MLc, the TLV, the file identifier, the size, the read access) and
    ///   its offset in the CC file.
    public init(parsing bytes: [UInt8]) throws(TagEngineError) {
        var reader = ByteReader(bytes)
        do {
            ccLength = Int(try reader.readUInt16())
            mappingVersion = try reader.readUInt8()
            maxReadLength = Int(try reader.readUInt16())
            maxUpdateLength = Int(try reader.readUInt16())
            let type = try reader.readUInt8()
            let length = try reader.readUInt8()
            switch (type, length) {
            case (0x04, 0x06):
                isExtended = false
                ndefFileID = try reader.readUInt16()
                maxNDEFFileSize = Int(try reader.readUInt16())
            case (0x06, 0x08):
                isExtended = true
                ndefFileID = try reader.readUInt16()
                maxNDEFFileSize = Int(try reader.readUInt32())
            default:
                throw Self.invalid(
                    "NDEF File Control TLV", at: 7, "T=\(Self.hex(type)) L=\(Self.hex(length)) is neither 04 06 nor (mapping 3.0) 06 08")
            }
            readAccess = try reader.readUInt8()
            writeAccess = try reader.readUInt8()
        } catch let error as ByteReaderError {
            throw Self.invalid(
                "length", at: error.offset,
                "the CC file ends after \(bytes.count) bytes; its first TLV needs \(Self.length(toParse: bytes))")
        } catch let error as TagEngineError {
            throw error
        } catch {
            throw Self.invalid("length", at: 0, "\(error)")
        }
        self.bytes = bytes
        try validate()
    }

    private func validate() throws(TagEngineError) {
        let needed = isExtended ? 17 : 15
        guard (needed...0xFFFE).contains(ccLength) else {
            throw Self.invalid("CCLEN", at: 0, "\(ccLength) is outside \(needed)–65534")
        }
        guard (1...3).contains(majorVersion) else {
            throw Self.invalid("mapping version", at: 2, "\(majorVersion).\(mappingVersion & 0x0F) is not supported (major 1, 2 or 3)")
        }
        guard maxReadLength >= 0x000F else {
            throw Self.invalid("MLe", at: 3, "\(maxReadLength) is below 15 (000Fh)")
        }
        guard maxUpdateLength >= 0x0001 else {
            throw Self.invalid("MLc", at: 5, "0 is below 1")
        }
        guard !isExtended || majorVersion >= 3 else {
            throw Self.invalid(
                "NDEF File Control TLV", at: 7,
                "the extended TLV 06 needs mapping version 3.0, not \(majorVersion).\(mappingVersion & 0x0F)")
        }
        guard !Self.reservedFileIDs.contains(ndefFileID) else {
            throw Self.invalid(
                "NDEF file identifier", at: 9, "\(Self.hex(UInt8(ndefFileID >> 8)))\(Self.hex(UInt8(ndefFileID & 0xFF))) is reserved")
        }
        let sizes = isExtended ? 0x0000_0005...0xFFFF_FFFE : 0x0005...0xFFFE
        guard sizes.contains(maxNDEFFileSize) else {
            throw Self.invalid("maximum NDEF file size", at: 11, "\(maxNDEFFileSize) is outside \(sizes.lowerBound)–\(sizes.upperBound)")
        }
        guard readAccess == 0x00 || (0x80...0xFE).contains(readAccess) else {
            throw Self.invalid("read access", at: readAccessOffset, "\(Self.hex(readAccess)) is RFU (00 or 80–FE)")
        }
    }

    /// The major mapping version (2 for `20`).
    public var majorVersion: Int { Int(mappingVersion >> 4) }

    /// The size of the length field at the start of the NDEF file: NLEN (2) or ENLEN (4).
    public var lengthFieldSize: Int { isExtended ? 4 : 2 }

    /// The largest NDEF message the file holds.
    public var capacity: Int { maxNDEFFileSize - lengthFieldSize }

    /// Whether NDEF may be written without proprietary commands (write access `00`).
    ///
    /// `FF` means read-only; `80`–`FE` are proprietary conditions this engine cannot meet and
    /// RFU values are not trusted, so both are treated as read-only.
    public var isWritable: Bool { writeAccess == 0x00 }

    /// Whether NDEF may be read without proprietary commands (read access `00`).
    public var isReadable: Bool { readAccess == 0x00 }

    /// The offset of the read access byte in the CC file.
    public var readAccessOffset: Int { isExtended ? 15 : 13 }

    /// The offset of the write access byte in the CC file.
    public var writeAccessOffset: Int { isExtended ? 16 : 14 }

    static func invalid(_ field: String, at offset: Int, _ reason: String) -> TagEngineError {
        TagEngineError(.invalidCapabilityContainer, "CC \(field) (byte \(offset) of E103): \(reason)")
    }

    static func hex(_ byte: UInt8) -> String { Hex.encode([byte], uppercase: true) }
}
