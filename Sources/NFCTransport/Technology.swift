/// A radio technology a reader can poll for.
///
/// ISO/IEC 14443 Type A and B, ISO/IEC 15693 (vicinity) and FeliCa (JIS X 6319-4, the
/// ISO/IEC 18092 212/424 kbit/s passive mode).
public enum Technology: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ISO/IEC 14443 Type A.
    case iso14443A
    /// ISO/IEC 14443 Type B.
    case iso14443B
    /// ISO/IEC 15693 vicinity tags.
    case iso15693
    /// FeliCa (JIS X 6319-4).
    case felica

    /// The case name, e.g. `iso14443A`.
    public var description: String { rawValue }
}

/// A set of technologies to poll for, as Core NFC's `PollingOption` and a reader's polling loop use.
public struct TechnologyMask: OptionSet, Sendable, Hashable {
    /// The technologies as bits: bit 0 Type A, bit 1 Type B, bit 2 ISO/IEC 15693, bit 3 FeliCa.
    public let rawValue: UInt8
    /// Makes a mask from its bits; bits above bit 3 name no technology.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ISO/IEC 14443 Type A.
    public static let iso14443A = TechnologyMask(rawValue: 1 << 0)
    /// ISO/IEC 14443 Type B.
    public static let iso14443B = TechnologyMask(rawValue: 1 << 1)
    /// ISO/IEC 15693 vicinity tags.
    public static let iso15693 = TechnologyMask(rawValue: 1 << 2)
    /// FeliCa (JIS X 6319-4).
    public static let felica = TechnologyMask(rawValue: 1 << 3)

    /// Both ISO/IEC 14443 types.
    public static let iso14443: TechnologyMask = [.iso14443A, .iso14443B]
    /// Every technology.
    public static let all: TechnologyMask = [.iso14443A, .iso14443B, .iso15693, .felica]

    /// The mask holding one technology.
    public init(_ technology: Technology) {
        switch technology {
        case .iso14443A: self = .iso14443A
        case .iso14443B: self = .iso14443B
        case .iso15693: self = .iso15693
        case .felica: self = .felica
        }
    }

    /// Whether a technology is in the mask.
    public func contains(_ technology: Technology) -> Bool { contains(TechnologyMask(technology)) }
}

/// A bit rate on the air, in both directions.
///
/// ISO/IEC 14443 runs at fc/128 (106 kbit/s) and, after PPS, at fc/64, fc/32 or fc/16;
/// FeliCa at 212 or 424 kbit/s. ISO/IEC 15693 has its own fixed rates and is not described here.
public enum BitRate: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// 106 kbit/s (fc/128): ISO/IEC 14443's initial rate.
    case kbps106 = 106
    /// 212 kbit/s (fc/64).
    case kbps212 = 212
    /// 424 kbit/s (fc/32).
    case kbps424 = 424
    /// 848 kbit/s (fc/16).
    case kbps848 = 848

    /// The elementary time unit in carrier cycles (ISO/IEC 14443-2 §3): 128/D cycles of fc.
    public var carrierCyclesPerETU: Int {
        switch self {
        case .kbps106: 128
        case .kbps212: 64
        case .kbps424: 32
        case .kbps848: 16
        }
    }

    /// Slower rates come first.
    public static func < (lhs: BitRate, rhs: BitRate) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The rate with its unit, e.g. `424 kbit/s`.
    public var description: String { "\(rawValue) kbit/s" }
}
