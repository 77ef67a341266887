/// The type of a DESFire key (MIFARE DESFire EV1 short data sheet §8.4): the crypto method of an
/// application's keys (KeySett2 bits 7–6) or of the PICC master key (ChangeKey's KeyNo bits 7–6).
public enum DESFireKeyType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// DES (8 bytes, or 16 with equal halves) and 2K3DES (16 bytes): method `00`.
    case des
    /// 3K3DES, 24 bytes: method `01`.
    case tdes3 = "3k3des"
    /// AES-128, 16 bytes: method `10`.
    case aes

    /// The type KeySett2's or KeyNo's bits 7–6 name; `nil` for `11`.
    public init?(methodBits: UInt8) {
        switch methodBits & 0xC0 {
        case 0x00: self = .des
        case 0x40: self = .tdes3
        case 0x80: self = .aes
        default: return nil
        }
    }

    /// Bits 7–6 as KeySett2 and KeyNo carry them.
    public var methodBits: UInt8 {
        switch self {
        case .des: 0x00
        case .tdes3: 0x40
        case .aes: 0x80
        }
    }

    /// The key's length on the card: 16 bytes (DES is sent as two equal halves), 24 for 3K3DES.
    public var keyLength: Int { self == .tdes3 ? 24 : 16 }

    /// The cipher's block: 8 bytes for the DES family, 16 for AES.
    public var blockSize: Int { self == .aes ? 16 : 8 }

    /// `des`, `3k3des` or `aes`.
    public var description: String { rawValue }

    /// A key as the card holds it: an 8-byte DES key doubled; others as given.
    /// - Throws: ``DESFireError`` `.wrongKey` for a length the type does not take.
    public func cardKey(_ key: [UInt8]) throws(DESFireError) -> [UInt8] {
        if self == .des, key.count == 8 { return key + key }
        guard key.count == keyLength else {
            throw DESFireError(.wrongKey, "a \(rawValue) key has \(self == .des ? "8 or 16" : String(keyLength)) bytes, not \(key.count)")
        }
        return key
    }

    /// A DES-family key with its version in the parity bits of its first 8 bytes (bit 7 of the
    /// version in byte 0): how DESFire keeps a DES key's version. A DES key (equal halves) gets
    /// the bits in both halves, so it stays DES. AES keys are returned as they are.
    public func withVersion(_ key: [UInt8], _ version: UInt8) -> [UInt8] {
        guard self != .aes, key.count >= 8 else { return key }
        let single = key.count == 16 && key.prefix(8).elementsEqual(key.suffix(8))
        return key.enumerated().map { index, byte in
            let position = single ? index % 8 : index
            return position < 8 ? byte & 0xFE | (version >> (7 - position)) & 1 : byte
        }
    }
}

/// Which authentication opens a session (MIFARE DESFire EV1 short data sheet §9; AN12343 §6.6).
public enum DESFireAuthentication: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AuthenticateEV2First (`71`): AES keys, EV2 and later; EV2 secure messaging.
    case ev2
    /// AuthenticateLRPFirst (`71` asking for LRP): AES keys of an NTAG 424 DNA (or DESFire
    /// Light) in LRP mode; LRP secure messaging.
    case lrp
    /// AuthenticateAES (`AA`): AES keys; EV1 secure messaging (CMAC).
    case aes
    /// AuthenticateISO (`1A`): DES, 2K3DES and 3K3DES keys; EV1 secure messaging (CMAC).
    case iso
    /// Authenticate (`0A`): DES and 2K3DES keys; the legacy DES MACs and CRC16 cryptograms.
    case legacy

    /// `ev2`, `lrp`, `aes`, `iso` or `legacy`.
    public var description: String { rawValue }
}
