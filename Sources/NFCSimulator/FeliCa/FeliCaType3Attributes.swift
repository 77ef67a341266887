import NFCBytes

/// The attribute information block of an NFC Forum Type 3 Tag (block 0 of the NDEF service).
///
/// NFC Forum Type 3 Tag Operation Specification 1.0 §6.2, Table 6: byte 0 Ver (`10` for 1.0),
/// 1 Nbr, 2 Nbw, 3–4 Nmaxb (big endian), 5–8 unused (`00`), 9 WriteF (`00` done, `0F` in
/// progress), 10 RWFlag (`00` read-only, `01` read/write), 11–13 Ln (big endian), 14–15 the
/// checksum: the sum of bytes 0–13, big endian.
public struct FeliCaType3Attributes: Sendable, Hashable {
    /// Ver, the mapping version: major in the high nibble, minor in the low (`10` is 1.0).
    public var version: UInt8
    /// Blocks one Read Without Encryption may carry.
    public var blocksPerRead: UInt8
    /// Blocks one Write Without Encryption may carry.
    public var blocksPerWrite: UInt8
    /// NDEF data blocks available after the attribute block.
    public var maximumBlocks: UInt16
    /// WriteF: `00` when no write is in progress, `0F` while one is.
    public var writeFlag: UInt8
    /// RWFlag: `00` read-only, `01` read/write.
    public var readWriteFlag: UInt8
    /// The NDEF message length in bytes (24 bits).
    public var length: UInt32

    /// Creates an attribute block's fields; the defaults are version 1.0, no write in progress, read/write and an
    /// empty NDEF message.
    public init(
        version: UInt8 = 0x10, blocksPerRead: UInt8, blocksPerWrite: UInt8, maximumBlocks: UInt16,
        writeFlag: UInt8 = 0x00, readWriteFlag: UInt8 = 0x01, length: UInt32 = 0
    ) {
        self.version = version
        self.blocksPerRead = blocksPerRead
        self.blocksPerWrite = blocksPerWrite
        self.maximumBlocks = maximumBlocks
        self.writeFlag = writeFlag
        self.readWriteFlag = readWriteFlag
        self.length = length
    }

    /// The 16-byte block, checksum included.
    public var block: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.write(version)
        writer.write(blocksPerRead)
        writer.write(blocksPerWrite)
        writer.write(maximumBlocks)
        writer.write(contentsOf: [0, 0, 0, 0])
        writer.write(writeFlag)
        writer.write(readWriteFlag)
        writer.write(UInt8(truncatingIfNeeded: length >> 16))
        writer.write(UInt8(truncatingIfNeeded: length >> 8))
        writer.write(UInt8(truncatingIfNeeded: length))
        writer.write(Self.checksum(writer.bytes))
        return writer.bytes
    }

    /// The checksum of an attribute block: the sum of its first 14 bytes, as 16 bits.
    public static func checksum(_ block: [UInt8]) -> UInt16 {
        var sum: UInt16 = 0
        for byte in block.prefix(14) { sum &+= UInt16(byte) }
        return sum
    }
}
