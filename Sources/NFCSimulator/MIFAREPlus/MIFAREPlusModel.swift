/// A MIFARE Plus model: generation and memory size (NXP MIFARE Plus EV1 and EV2 product short
/// data sheets MF1P(H)x1y1 and MF1P(H)x2).
public struct MIFAREPlusModel: Sendable, Hashable, Codable {
    /// The generation, which sets GetVersion's major version.
    public enum Generation: String, Sendable, Hashable, Codable, CaseIterable {
        /// MIFARE Plus EV1 (major version `11`).
        case ev1
        /// MIFARE Plus EV2 (major version `22`).
        case ev2
    }

    /// The generation.
    public var generation: Generation
    /// 2 KB (32 sectors of 4 blocks) or 4 KB (32 sectors of 4 blocks and 8 of 16).
    public var kilobytes: Int

    /// A model; `kilobytes` is 2 or 4.
    public init(generation: Generation = .ev2, kilobytes: Int = 2) {
        self.generation = generation
        self.kilobytes = kilobytes == 4 ? 4 : 2
    }

    /// Blocks of 16 bytes: 128 or 256.
    public var blockCount: Int { kilobytes == 4 ? 256 : 128 }
    /// Sectors: 32 or 40.
    public var sectorCount: Int { kilobytes == 4 ? 40 : 32 }

    /// The sector of a block (sectors 32–39 of a 4 KB card hold 16 blocks).
    static func sector(of block: Int) -> Int { block < 128 ? block / 4 : 32 + (block - 128) / 16 }
    /// The first block of a sector.
    static func firstBlock(of sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }
    /// The blocks of a sector.
    static func blocks(in sector: Int) -> Int { sector < 32 ? 4 : 16 }
    /// The sector trailer of a sector (its last block).
    static func trailer(of sector: Int) -> Int { firstBlock(of: sector) + blocks(in: sector) - 1 }

    /// GetVersion's hardware and software parts: NXP (`04`), MIFARE Plus (`02`), subtype `01`,
    /// major `11` (EV1) or `22` (EV2), minor `00`, storage `16` (2 KB) or `18` (4 KB), protocol `05`
    /// (AN10833 type identification; the major versions and storage codes as proxmark3 and the
    /// Flipper firmware read them from real cards — NXP publishes no dump).
    var versionPart: [UInt8] {
        [0x04, 0x02, 0x01, generation == .ev1 ? 0x11 : 0x22, 0x00, kilobytes == 4 ? 0x18 : 0x16, 0x05]
    }

    /// ATQA: `0044` (2 KB) or `0042` (4 KB), a 7-byte UID (AN10833 §2.1).
    var atqa: UInt16 { kilobytes == 4 ? 0x0042 : 0x0044 }

    /// The ATS's historical bytes: NXP's IC information `C1 05 2F 2F 01 BC D6` as a MIFARE Plus X
    /// sends it (MIFARE Plus, memory and version unspecified; the only capture in public — the
    /// generation is GetVersion's to tell).
    static let historicalBytes: [UInt8] = [0xC1, 0x05, 0x2F, 0x2F, 0x01, 0xBC, 0xD6]
}
