import NFCBytes

/// The capability container file `E103` of a Type 4 Tag.
///
/// NFC Forum Type 4 Tag Operation 2.0 §5.1 and T4T 3.0: CCLEN (2), mapping version (1), MLe (2), MLc
/// (2), then the NDEF File Control TLV `04 06` (file ID 2, maximum NDEF file size 2, read
/// access 1, write access 1) or, for files beyond 32 767 bytes, the Extended NDEF File Control
/// TLV `06 08` (file ID 2, maximum size 4, read access, write access). With the extended TLV the
/// NDEF file starts with a 4-byte ENLEN instead of the 2-byte NLEN.
public struct Type4CapabilityContainer: Sendable, Hashable {
    /// Mapping version, major in the high nibble (`20` = 2.0, `30` = 3.0).
    public var mappingVersion: UInt8
    /// MLe, the most data one READ BINARY may ask for.
    public var maxReadLength: Int
    /// MLc, the most data one UPDATE BINARY may carry.
    public var maxUpdateLength: Int
    /// The NDEF file's identifier.
    public var ndefFileID: UInt16
    /// The NDEF file's size, NLEN or ENLEN included.
    public var maxNDEFFileSize: Int
    /// `00`: read access granted.
    public var readAccess: UInt8
    /// `00`: write access granted; `FF`: none.
    public var writeAccess: UInt8
    /// Whether the Extended NDEF File Control TLV (`06`) is used.
    public var isExtended: Bool

    /// A capability container; by default read and write access are granted and the short NDEF File Control TLV is used.
    public init(
        mappingVersion: UInt8, maxReadLength: Int, maxUpdateLength: Int, ndefFileID: UInt16,
        maxNDEFFileSize: Int, readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, isExtended: Bool = false
    ) {
        self.mappingVersion = mappingVersion
        self.maxReadLength = maxReadLength
        self.maxUpdateLength = maxUpdateLength
        self.ndefFileID = ndefFileID
        self.maxNDEFFileSize = maxNDEFFileSize
        self.readAccess = readAccess
        self.writeAccess = writeAccess
        self.isExtended = isExtended
    }

    /// The length of the NLEN (2) or ENLEN (4) field at the start of the NDEF file.
    public var lengthFieldSize: Int { isExtended ? 4 : 2 }

    /// The file's bytes: 15 with the NDEF File Control TLV, 17 with the extended one.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: 17)
        writer.write(UInt16(isExtended ? 17 : 15))
        writer.write(mappingVersion)
        writer.write(UInt16(truncatingIfNeeded: maxReadLength))
        writer.write(UInt16(truncatingIfNeeded: maxUpdateLength))
        writer.write(UInt8(isExtended ? 0x06 : 0x04))
        writer.write(UInt8(isExtended ? 0x08 : 0x06))
        writer.write(ndefFileID)
        if isExtended {
            writer.write(UInt32(truncatingIfNeeded: maxNDEFFileSize))
        } else {
            writer.write(UInt16(truncatingIfNeeded: maxNDEFFileSize))
        }
        writer.write(readAccess)
        writer.write(writeAccess)
        return writer.bytes
    }

    /// Reads a CC file's bytes (trailing TLVs after the first are ignored).
    /// - Throws: ``TagImageError`` `.invalidValue` at `capabilityContainer` when the bytes are
    ///   short or the first TLV is not an (extended) NDEF File Control TLV.
    public init(bytes: [UInt8]) throws(TagImageError) {
        var reader = ByteReader(bytes)
        do {
            let ccLength = Int(try reader.readUInt16())
            guard ccLength <= bytes.count else {
                throw TagImageError(
                    .invalidValue, field: "capabilityContainer", "CCLEN \(ccLength) exceeds the file's \(bytes.count) bytes")
            }
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
                throw TagImageError(.invalidValue, field: "capabilityContainer", "first TLV \(type) \(length) is no NDEF File Control TLV")
            }
            readAccess = try reader.readUInt8()
            writeAccess = try reader.readUInt8()
        } catch let error as ByteReaderError {
            throw TagImageError(.invalidValue, field: "capabilityContainer", "\(error)")
        } catch let error as TagImageError {
            throw error
        } catch {
            throw TagImageError(.invalidValue, field: "capabilityContainer", "\(error)")
        }
    }
}
