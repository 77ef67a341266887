/// Type 1 Tag command frames, without CRC, as `TagConnection` carries them: 7 bytes (code, ADD,
/// DATA, UID-0…3) or 14 for the 8-byte commands (code, ADD8 or ADDS, 8 data bytes, UID-0…3).
///
/// NFC Forum Type 1 Tag Operation 1.1 (T1TOP) §5 (command set) and the BCM20203T512 data sheet,
/// Tables 6–12: ADD = block × 8 + byte (blocks 00h–0Eh), ADD8 = block, ADDS = segment × 16; the
/// data bytes of read commands are zero; every command but RID carries the UID echo.
enum Type1Command {
    /// RID: `78 00 00 00 00 00 00` → HR0 HR1 UID-0…3.
    static let readIdentification: [UInt8] = [0x78, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// RALL → HR0 HR1 and blocks 00h–0Eh (122 bytes).
    static func readAll(_ uid: [UInt8]) -> [UInt8] { [0x00, 0x00, 0x00] + uid }

    /// READ of one byte of blocks 00h–0Eh → ADD DATA.
    static func read(_ address: Int, _ uid: [UInt8]) -> [UInt8] { [0x01, UInt8(address), 0x00] + uid }

    /// WRITE-E (erase, then write) or WRITE-NE (set bits only) of one byte of blocks 01h–0Eh → ADD DATA.
    static func write(_ address: Int, _ value: UInt8, erase: Bool, _ uid: [UInt8]) -> [UInt8] {
        [erase ? 0x53 : 0x1A, UInt8(address), value] + uid
    }

    /// RSEG of a 128-byte segment → ADDS and the segment (dynamic layout only).
    static func readSegment(_ segment: Int, _ uid: [UInt8]) -> [UInt8] {
        [0x10, UInt8(truncatingIfNeeded: segment << 4)] + zeros + uid
    }

    /// READ8 of one block → ADD8 and its 8 bytes (dynamic layout only).
    static func read8(_ block: Int, _ uid: [UInt8]) -> [UInt8] { [0x02, UInt8(truncatingIfNeeded: block)] + zeros + uid }

    /// WRITE-E8 or WRITE-NE8 of one block → ADD8 and the 8 bytes now stored (dynamic layout only).
    static func write8(_ block: Int, _ data: [UInt8], erase: Bool, _ uid: [UInt8]) -> [UInt8] {
        [erase ? 0x54 : 0x1B, UInt8(truncatingIfNeeded: block)] + data + uid
    }

    private static let zeros = [UInt8](repeating: 0, count: 8)

    /// How long to wait for a read's answer: the tag answers after 1236/fc ≈ 91 µs (Table 14);
    /// the rest is margin for readers that relay frames.
    static let readTimeout: Duration = .milliseconds(20)
    /// How long to wait for a write's answer: the erase-write FDT is 70996/fc ≈ 5.24 ms (Table 14).
    static let writeTimeout: Duration = .milliseconds(30)
}

/// One write a Type 1 procedure sends, with the bytes the tag must read back.
struct Type1Write: Sendable, Hashable {
    /// A single byte (WRITE-E / WRITE-NE) or a whole block (WRITE-E8 / WRITE-NE8).
    enum Target: Sendable, Hashable {
        case byte(address: Int)
        case block(Int)
    }

    var target: Target
    /// The byte or the 8 bytes sent.
    var data: [UInt8]
    /// Erase first (WRITE-E, WRITE-E8) or only set bits (WRITE-NE, WRITE-NE8).
    var erase: Bool
    /// What the answer must carry after ADD/ADD8: what memory holds once the write is done.
    var expected: [UInt8]

    /// The frame for a tag whose UID echo is `uid`.
    func frame(_ uid: [UInt8]) -> [UInt8] {
        switch target {
        case .byte(let address): Type1Command.write(address, data[0], erase: erase, uid)
        case .block(let block): Type1Command.write8(block, data, erase: erase, uid)
        }
    }

    /// The memory address the write starts at.
    var address: Int {
        switch target {
        case .byte(let address): address
        case .block(let block): block * 8
        }
    }

    /// A one-byte write of `value` over `old`: WRITE-NE when it only sets bits (half the time
    /// of WRITE-E, data sheet Table 14), WRITE-E otherwise.
    static func byte(_ address: Int, _ value: UInt8, over old: UInt8) -> Type1Write {
        let setsOnly = old | value == value
        return Type1Write(target: .byte(address: address), data: [value], erase: !setsOnly, expected: [value])
    }

    /// A block write of `data` over `old`, WRITE-NE8 when it only sets bits.
    static func block(_ block: Int, _ data: [UInt8], over old: [UInt8]) -> Type1Write {
        let setsOnly = zip(old, data).allSatisfy { $0 | $1 == $1 }
        return Type1Write(target: .block(block), data: data, erase: !setsOnly, expected: data)
    }
}
