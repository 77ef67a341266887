import NFCBytes

/// What is known of a Type 1 tag's memory: the header ROM from RALL and the bytes read so far.
///
/// T1TOP §2.1: HR0's high nibble `1` marks an NFC Forum Type 1 tag; its low nibble `1` the static
/// memory layout (120 bytes, blocks 00h–0Eh), any other value the dynamic layout, whose size the
/// CC's TMS gives (8 × (TMS + 1) bytes, at most 2 KB: 256 blocks, 16 segments).
struct Type1Memory: TLVAreaBytes, Sendable, Hashable {
    /// HR0 and HR1.
    let headerROM: [UInt8]
    /// The memory, `nil` for bytes not read yet.
    private(set) var bytes: [UInt8?]

    /// From a RALL answer: HR0 HR1 and blocks 00h–0Eh.
    /// - Throws: `.unexpectedResponse` for an answer that is not 122 bytes; `.unsupported` when
    ///   HR0 does not name a Type 1 tag.
    init(readAll answer: [UInt8]) throws(TagEngineError) {
        guard answer.count == 122 else {
            throw TagEngineError(.unexpectedResponse, "RALL answered \(answer.count) bytes, not HR0 HR1 and 120 bytes of blocks 00h–0Eh")
        }
        guard answer[0] >> 4 == 1 else {
            throw TagEngineError(
                .unsupported, "HR0 is \(Hex.encode([answer[0]], uppercase: true))h: not an NFC Forum Type 1 tag (T1TOP §2.1: 1xh)")
        }
        headerROM = Array(answer[0..<2])
        // Static: 120 bytes. Topaz 512: 512. Another dynamic chip: as far as a plausible TMS says.
        var size = 120
        if answer[0] == 0x12 {
            size = 512
        } else if answer[0] & 0x0F != 1, [0xE1, 0x00].contains(answer[2 + 8]), answer[2 + 10] >= 0x0F {
            size = 8 * (Int(answer[2 + 10]) + 1)
        }
        bytes = Array(repeating: nil, count: size)
        for (index, byte) in answer[2...].enumerated() { bytes[index] = byte }
    }

    /// Whether the tag has the static memory layout (HR0 `x1`).
    var isStatic: Bool { headerROM[0] & 0x0F == 1 }
    /// Whether the tag is a Topaz 512 (HR0 `12`), whose block 0Fh holds LOCK-2…7 and OTP-6/7.
    var isTopaz512: Bool { headerROM[0] == 0x12 }
    /// The memory size in bytes.
    var size: Int { bytes.count }
    /// The number of 8-byte blocks.
    var blockCount: Int { bytes.count / 8 }

    func byte(at address: Int) -> UInt8? {
        address >= 0 && address < bytes.count ? bytes[address] : nil
    }

    /// The 8 bytes of a block, when all are known.
    func block(_ number: Int) -> [UInt8]? {
        guard number >= 0, number < blockCount else { return nil }
        var result: [UInt8] = []
        for byte in bytes[number * 8..<number * 8 + 8] {
            guard let byte else { return nil }
            result.append(byte)
        }
        return result
    }

    /// Whether every byte of a block is known.
    func knows(block number: Int) -> Bool { block(number) != nil }

    /// Stores bytes read from `address` on (bytes past the memory are ignored).
    mutating func store(_ data: [UInt8], at address: Int) {
        for (index, byte) in data.enumerated() where address + index < bytes.count { bytes[address + index] = byte }
    }

    /// The lock bit of a block: LOCK-0/1 (block 0Eh bytes 0–1) for blocks 00h–0Fh; on a Topaz
    /// 512 LOCK-2…7 (block 0Fh bytes 2–7) for blocks 10h–3Fh (BCM20203T512 data sheet, Figures
    /// 14–17). `nil` when the lock byte is not known.
    func isLocked(block: Int) -> Bool? {
        let address: Int
        let bit: Int
        if block < 16 {
            address = 0x70 + block / 8
            bit = block % 8
        } else if isTopaz512, block < 64 {
            address = 0x7A + (block - 16) / 8
            bit = (block - 16) % 8
        } else {
            return false  // dynamic lock bits elsewhere are described by Lock Control TLVs
        }
        return byte(at: address).map { $0 >> UInt8(bit) & 1 == 1 }
    }
}
