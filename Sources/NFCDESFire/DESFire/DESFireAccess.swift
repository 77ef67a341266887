/// Who may use a file operation (MIFARE DESFire EV1 short data sheet §8.3, NT4H2421Gx §8.2.3.3):
/// a key, anyone, or nobody. DESFire applications have keys `0`–`D`, NTAG 424 DNA `0`–`4`.
public enum DESFireAccess: Sendable, Hashable, CustomStringConvertible {
    /// The key must be authenticated.
    case key(UInt8)
    /// Free (`E`).
    case free
    /// Never (`F`).
    case never

    /// The condition a nibble holds; `nil` for a key above `maximumKey` (NTAG 424 DNA: `4`).
    public init?(nibble: UInt8, maximumKey: UInt8 = 0x0D) {
        switch nibble {
        case 0...min(maximumKey, 0x0D): self = .key(nibble)
        case 0x0E: self = .free
        case 0x0F: self = .never
        default: return nil
        }
    }

    /// The nibble.
    public var nibble: UInt8 {
        switch self {
        case .key(let number): number & 0x0F
        case .free: 0x0E
        case .never: 0x0F
        }
    }

    /// `key 2`, `free`, `never`.
    public var description: String {
        switch self {
        case .key(let number): "key \(number)"
        case .free: "free"
        case .never: "never"
        }
    }

    /// Reads a key number up to `maximumKey`, `e`/`free`, `f`/`never`.
    public init?(text: String, maximumKey: UInt8 = 0x0D) {
        switch text.lowercased() {
        case "e", "free": self = .free
        case "f", "never": self = .never
        default:
            guard let number = UInt8(text), number <= min(maximumKey, 0x0D) else { return nil }
            self = .key(number)
        }
    }
}

/// NTAG 424 DNA's access conditions: keys `0`–`4`.
public typealias NTAG424Access = DESFireAccess
