/// A DESFire application identifier: 3 bytes, sent least significant first; `000000` is the PICC
/// level (MIFARE DESFire EV1 short data sheet §8.2).
public struct DESFireAID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 24-bit number (`0x000001` for AN11004's NDEF application).
    public let value: UInt32

    /// An AID from its number; `nil` above 24 bits.
    public init?(_ value: UInt32) {
        guard value <= 0xFF_FFFF else { return nil }
        self.value = value
    }

    /// The AID from its 3 bytes as sent (least significant first).
    public init(wire bytes: ArraySlice<UInt8>) {
        value = bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Six hex digits, most significant first as people write it (`F12345`); `nil` otherwise.
    public init?(hex text: String) {
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.value = value
    }

    /// The PICC level.
    public static let picc = DESFireAID(wire: [0, 0, 0])

    /// The 3 bytes as sent.
    public var wire: [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }

    /// Six upper-case hex digits, most significant first.
    public var description: String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }

    /// Ordered by number.
    public static func < (lhs: DESFireAID, rhs: DESFireAID) -> Bool { lhs.value < rhs.value }
}

/// An application's or the PICC's key settings (EV1 short data sheet §8.4): the first byte as
/// the card keeps it, and what GetKeySettings' second byte says about the keys.
public struct DESFireKeySettings: Sendable, Hashable {
    /// The settings byte: bits 7–4 who changes keys, bit 3 settings changeable, bit 2 free
    /// create/delete, bit 1 free listing, bit 0 master key changeable.
    public var rawValue: UInt8
    /// How many keys the level has (1 at the PICC level).
    public var keyCount: Int
    /// The key type bits 7–6 of the second byte: `0` DES/2K3DES, `1` 3K3DES, `2` AES.
    public var keyType: UInt8
    /// Whether the application has ISO file identifiers (second byte, bit 5).
    public var hasISOFileIdentifiers: Bool

    /// Settings from the byte and the key description.
    public init(rawValue: UInt8, keyCount: Int = 1, keyType: UInt8 = 2, hasISOFileIdentifiers: Bool = false) {
        self.rawValue = rawValue
        self.keyCount = keyCount
        self.keyType = keyType
        self.hasISOFileIdentifiers = hasISOFileIdentifiers
    }

    /// Whether the master key can be changed.
    public var masterKeyChangeable: Bool { rawValue & 0x01 != 0 }
    /// Whether listing (application IDs, file IDs, settings) needs no master key.
    public var freeListing: Bool { rawValue & 0x02 != 0 }
    /// Whether creating and deleting needs no master key.
    public var freeCreateDelete: Bool { rawValue & 0x04 != 0 }
    /// Whether these settings can still be changed.
    public var settingsChangeable: Bool { rawValue & 0x08 != 0 }
    /// Who changes the other keys: `0` the master key, `1`–`13` that key, `14` each key itself, `15` nobody.
    public var changeKeyRule: UInt8 { rawValue >> 4 }

    /// `AES`, `3K3DES` or `DES/2K3DES`.
    public var keyTypeName: String {
        switch keyType {
        case 2: "AES"
        case 1: "3K3DES"
        default: "DES/2K3DES"
        }
    }
}
