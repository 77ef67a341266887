import NFCBytes
import NFCCommandSets

/// FeliCa command frames as a `TagConnection` carries them: the command code first, without the
/// LEN byte and the CRC.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §4.4: Polling (`00`), Read Without
/// Encryption (`06`), Write Without Encryption (`08`), Request System Code (`0C`); each response
/// code is the command code plus one.
enum FeliCaCommand {
    static let polling = FeliCaCommandCode.polling
    static let readWithoutEncryption = FeliCaCommandCode.readWithoutEncryption
    static let writeWithoutEncryption = FeliCaCommandCode.writeWithoutEncryption
    static let requestSystemCode = FeliCaCommandCode.requestSystemCode

    /// The NFC Forum Type 3 Tag system code (T3T 1.0 §6.1).
    static let ndefSystemCode: UInt16 = 0x12FC
    /// The NDEF read service: random, read-only, no key (`000B`).
    static let ndefReadService: UInt16 = 0x000B
    /// The NDEF write service: random, read/write, no key (`0009`).
    static let ndefWriteService: UInt16 = 0x0009

    /// The longest FeliCa frame body: LEN is one byte and counts itself (JIS X 6319-4 §8.1).
    static let maximumFrameBody = FeliCaCommandCode.maximumFrameBody

    /// Polling for a system code with one time slot: `00 SC(2) RC 00`.
    ///
    /// - Parameter requestCode: `01` asks the card to append the system code it answered for.
    static func polling(systemCode: UInt16, requestCode: UInt8 = 0x01) -> [UInt8] {
        [polling, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), requestCode, 0x00]
    }

    /// One block list element: `80 nn` for blocks below 256, `00 nn nn` (little endian) beyond;
    /// service list order 0, access mode 000b (§4.3.2, Figure 4-5).
    static func element(_ block: UInt16) -> [UInt8] {
        block < 256 ? [0x80, UInt8(block)] : [0x00, UInt8(block & 0xFF), UInt8(block >> 8)]
    }

    /// The size of a block list element.
    static func elementSize(_ block: UInt16) -> Int { block < 256 ? 2 : 3 }

    /// Read Without Encryption of blocks of one service:
    /// `06 IDm(8) 01 SC(2, little endian) n elements…` (§4.4.5).
    static func read(idm: [UInt8], service: UInt16 = ndefReadService, blocks: [UInt16]) -> [UInt8] {
        var writer = ByteWriter(capacity: 13 + 3 * blocks.count)
        writer.write(readWithoutEncryption)
        writer.write(contentsOf: idm)
        writer.write(UInt8(1))
        writer.writeLE(service)
        writer.write(UInt8(truncatingIfNeeded: blocks.count))
        for block in blocks { writer.write(contentsOf: element(block)) }
        return writer.bytes
    }

    /// The length of a read command for these blocks.
    static func readLength(_ blocks: [UInt16]) -> Int {
        13 + blocks.reduce(0) { $0 + elementSize($1) }
    }

    /// Write Without Encryption of blocks of one service:
    /// `08 IDm(8) 01 SC(2, little endian) n elements… data(16 n)` (§4.4.6).
    static func write(idm: [UInt8], service: UInt16 = ndefWriteService, blocks: [Type3BlockWrite]) -> [UInt8] {
        var writer = ByteWriter(capacity: 13 + 19 * blocks.count)
        writer.write(writeWithoutEncryption)
        writer.write(contentsOf: idm)
        writer.write(UInt8(1))
        writer.writeLE(service)
        writer.write(UInt8(truncatingIfNeeded: blocks.count))
        for write in blocks { writer.write(contentsOf: element(write.block)) }
        for write in blocks { writer.write(contentsOf: write.data) }
        return writer.bytes
    }

    /// The length of a write command for these blocks.
    static func writeLength(_ blocks: [Type3BlockWrite]) -> Int {
        13 + blocks.reduce(0) { $0 + elementSize($1.block) + 16 }
    }

    /// Request System Code: `0C IDm(8)` (§4.4.10).
    static func requestSystemCode(idm: [UInt8]) -> [UInt8] {
        [requestSystemCode] + idm
    }
}

/// One block to write: its number and 16 bytes.
struct Type3BlockWrite: Sendable, Hashable {
    var block: UInt16
    var data: [UInt8]
}
