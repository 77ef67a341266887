import Foundation

/// An elementary file of the eMRTD application (ICAO Doc 9303 Part 10 §4.6–4.7, Table 39): its
/// file identifier, its tag, and its name.
public enum LDSFile: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// EF.COM (`011E`, tag `60`): the LDS version and the data groups present.
    case com
    /// EF.SOD (`011D`, tag `77`): the Document Security Object, signed data-group hashes.
    case sod
    /// EF.CardAccess (`011C` under the MF, a DER `SET OF SecurityInfo`): the PACE protocols the
    /// chip offers (Part 10 §3.11.3, Part 11 §9.2).
    case cardAccess
    /// A data group, DG1 to DG16 (`0101`–`0110`, tags `61`, `75`, `63`, `76`, `65`–`70`).
    case dataGroup(Int)

    /// The eMRTD application's identifier (Part 10 §3.6.2).
    public static let applicationIdentifier: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]

    /// The tags of DG1...DG16 (Part 10 Table 39).
    static let dataGroupTags: [UInt8] = [
        0x61, 0x75, 0x63, 0x76, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70,
    ]

    /// The data group a tag of EF.COM's tag list names, or `nil`.
    public init?(tag: UInt8) {
        switch tag {
        case 0x60: self = .com
        case 0x77: self = .sod
        default:
            guard let index = Self.dataGroupTags.firstIndex(of: tag) else { return nil }
            self = .dataGroup(index + 1)
        }
    }

    /// A file by name: `COM`, `SOD`, `DG1`…`DG16` (case-insensitive, `EF.` allowed).
    public init?(name: String) {
        var text = name.uppercased()
        if text.hasPrefix("EF.") { text.removeFirst(3) }
        switch text {
        case "COM": self = .com
        case "SOD": self = .sod
        case "CARDACCESS": self = .cardAccess
        default:
            guard text.hasPrefix("DG"), let number = Int(text.dropFirst(2)), (1...16).contains(number) else { return nil }
            self = .dataGroup(number)
        }
    }

    /// The file identifier.
    public var fileIdentifier: UInt16 {
        switch self {
        case .com: 0x011E
        case .sod: 0x011D
        case .cardAccess: 0x011C
        case .dataGroup(let number): 0x0100 + UInt16(number)
        }
    }

    /// The short EF identifier (Part 10 Table 39): `1E`, `1D`, or the data group's number.
    public var shortIdentifier: UInt8 {
        switch self {
        case .com: 0x1E
        case .sod: 0x1D
        case .cardAccess: 0x1C
        case .dataGroup(let number): UInt8(number)
        }
    }

    /// The tag the file's content starts with.
    public var tag: UInt8 {
        switch self {
        case .com: 0x60
        case .sod: 0x77
        case .cardAccess: 0x31
        case .dataGroup(let number): Self.dataGroupTags[(number - 1) & 0x0F]
        }
    }

    /// `EF.COM`, `EF.SOD`, `DG1`…
    public var description: String {
        switch self {
        case .com: "EF.COM"
        case .sod: "EF.SOD"
        case .cardAccess: "EF.CardAccess"
        case .dataGroup(let number): "DG\(number)"
        }
    }

    /// The file's name as an export file name: `EF_COM.bin`, `DG1.bin`.
    public var exportName: String { description.replacingOccurrences(of: ".", with: "_") + ".bin" }

    private var order: Int {
        switch self {
        case .cardAccess: -1
        case .com: 0
        case .dataGroup(let number): number
        case .sod: 17
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }
}
