import NFCBytes

/// The Attribute Information Block of an NFC Forum Type 3 Tag: block 0 of the NDEF service.
///
/// NFC Forum Type 3 Tag Operation Specification 1.0 §6.2 (Table 6): byte 0 Ver (major version in
/// the high nibble, `10` for 1.0), 1 Nbr, 2 Nbw, 3–4 Nmaxb (big endian), 5–8 RFU (`00`), 9 WriteF
/// (`00` done, `0F` in progress), 10 RWFlag (`00` read-only, `01` read/write), 11–13 Ln (big
/// endian), 14–15 the checksum: the sum of bytes 0–13 as 16 bits, big endian.
package struct Type3AttributeInformation: Sendable, Hashable, CustomStringConvertible {
    /// WriteF: the NDEF data is consistent.
    package static let writeDone: UInt8 = 0x00
    /// WriteF: a write is in progress; the NDEF data may be inconsistent.
    package static let writeInProgress: UInt8 = 0x0F
    /// RWFlag: the NDEF data may only be read.
    package static let readOnly: UInt8 = 0x00
    /// RWFlag: the NDEF data may be read and written.
    package static let readWrite: UInt8 = 0x01

    /// Ver: the mapping version, major in the high nibble.
    package var version: UInt8
    /// Nbr: the most blocks one Read Without Encryption (Check) may carry.
    package var blocksPerRead: UInt8
    /// Nbw: the most blocks one Write Without Encryption (Update) may carry.
    package var blocksPerWrite: UInt8
    /// Nmaxb: the NDEF data blocks after the attribute block.
    package var maximumBlocks: UInt16
    /// WriteF (`00` or `0F`).
    package var writeFlag: UInt8
    /// RWFlag (`00` or `01`).
    package var readWriteFlag: UInt8
    /// Ln: the NDEF message length in bytes (24 bits).
    package var length: Int

    /// An attribute block from its fields, not validated (see ``init(validating:)``).
    ///
    /// The defaults: Ver `10` (mapping 1.0), WriteF `00` (done), RWFlag `01` (read/write), Ln 0.
    package init(
        version: UInt8 = 0x10, blocksPerRead: UInt8, blocksPerWrite: UInt8, maximumBlocks: UInt16,
        writeFlag: UInt8 = Type3AttributeInformation.writeDone,
        readWriteFlag: UInt8 = Type3AttributeInformation.readWrite, length: Int = 0
    ) {
        self.version = version
        self.blocksPerRead = blocksPerRead
        self.blocksPerWrite = blocksPerWrite
        self.maximumBlocks = maximumBlocks
        self.writeFlag = writeFlag
        self.readWriteFlag = readWriteFlag
        self.length = length
    }

    /// Parses and validates an attribute block.
    ///
    /// Checked in this order: 16 bytes, the checksum, major version 1, Nbr ≥ 1, Nbw ≥ 1, WriteF
    /// `00`/`0F`, RWFlag `00`/`01`, Ln ≤ Nmaxb × 16. Bytes 5–8 are RFU and ignored, as readers
    /// ignore RFU values.
    /// - Throws: ``TagEngineError`` `.invalidCapabilityContainer` naming the field and its byte.
    package init(validating block: [UInt8]) throws(TagEngineError) {
        guard block.count == 16 else {
            throw Self.invalid("the attribute block has \(block.count) bytes, not 16")
        }
        // 16 bytes checked above: every index below is in range.
        let version = block[0]
        let nbr = block[1]
        let nbw = block[2]
        let nmaxb = UInt16(block[3]) << 8 | UInt16(block[4])
        let writeFlag = block[9]
        let rwFlag = block[10]
        let length = Int(block[11]) << 16 | Int(block[12]) << 8 | Int(block[13])
        let stored = UInt16(block[14]) << 8 | UInt16(block[15])
        let computed = Self.checksum(block)
        guard stored == computed else {
            throw Self.invalid("checksum (bytes 14–15) is \(Self.hex16(stored)), the sum of bytes 0–13 is \(Self.hex16(computed))")
        }
        guard version >> 4 == 1 else {
            throw Self.invalid("Ver (byte 0) is \(Self.hex8(version)): major version \(version >> 4) is not 1")
        }
        guard nbr >= 1 else { throw Self.invalid("Nbr (byte 1) is 0: at least one block per read") }
        guard nbw >= 1 else { throw Self.invalid("Nbw (byte 2) is 0: at least one block per write") }
        guard writeFlag == Self.writeDone || writeFlag == Self.writeInProgress else {
            throw Self.invalid("WriteF (byte 9) is \(Self.hex8(writeFlag)), neither 00 nor 0F")
        }
        guard rwFlag == Self.readOnly || rwFlag == Self.readWrite else {
            throw Self.invalid("RWFlag (byte 10) is \(Self.hex8(rwFlag)), neither 00 nor 01")
        }
        guard length <= Int(nmaxb) * 16 else {
            throw Self.invalid("Ln (bytes 11–13) is \(length) B, beyond Nmaxb \(nmaxb) × 16 = \(Int(nmaxb) * 16) B")
        }
        self.init(
            version: version, blocksPerRead: nbr, blocksPerWrite: nbw, maximumBlocks: nmaxb,
            writeFlag: writeFlag, readWriteFlag: rwFlag, length: length
        )
    }

    /// The 16-byte block, RFU bytes `00` and the checksum computed.
    package var block: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.write(version)
        writer.write(blocksPerRead)
        writer.write(blocksPerWrite)
        writer.write(maximumBlocks)
        writer.write(contentsOf: [0, 0, 0, 0])
        writer.write(writeFlag)
        writer.write(readWriteFlag)
        let ln = UInt32(clamping: max(0, length))
        writer.write(UInt8(truncatingIfNeeded: ln >> 16))
        writer.write(UInt8(truncatingIfNeeded: ln >> 8))
        writer.write(UInt8(truncatingIfNeeded: ln))
        writer.write(Self.checksum(writer.bytes))
        return writer.bytes
    }

    /// The NDEF capacity: Nmaxb × 16 bytes.
    package var capacity: Int { Int(maximumBlocks) * 16 }

    /// Whether WriteF says a write is in progress.
    package var isWriteInProgress: Bool { writeFlag == Self.writeInProgress }

    /// Whether RWFlag allows writing.
    package var isWritable: Bool { readWriteFlag == Self.readWrite }

    /// The checksum: the sum of bytes 0–13 as 16 bits.
    package static func checksum(_ block: [UInt8]) -> UInt16 {
        block.prefix(14).reduce(UInt16(0)) { $0 &+ UInt16($1) }
    }

    /// The fields under their specification names: `Ver 10, Nbr 4, Nbw 1, Nmaxb 13, WriteF 00, RWFlag 01, Ln 0`.
    package var description: String {
        "Ver \(Self.hex8(version)), Nbr \(blocksPerRead), Nbw \(blocksPerWrite), Nmaxb \(maximumBlocks), "
            + "WriteF \(Self.hex8(writeFlag)), RWFlag \(Self.hex8(readWriteFlag)), Ln \(length)"
    }

    private static func invalid(_ reason: String) -> TagEngineError {
        TagEngineError(.invalidCapabilityContainer, "Type 3 attribute block: \(reason)")
    }

    private static func hex8(_ value: UInt8) -> String { Hex.encode([value], uppercase: true) }
    private static func hex16(_ value: UInt16) -> String {
        Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)], uppercase: true)
    }
}
