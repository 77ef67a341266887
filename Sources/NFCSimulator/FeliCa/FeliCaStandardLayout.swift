/// The file system of a FeliCa Standard card: systems holding areas and services.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §3: a card holds up to 16 systems, each with
/// its own system code and IDm; a system holds areas (code = number << 6 | attribute, attribute
/// `000000` may hold sub-areas, `000001` may not; an area spans numbers up to its end code
/// `end number << 6 | 111111`) and services (code = number << 6 | attribute, 16-byte blocks).
/// Overlap services give one set of blocks several codes with different access rights.
extension FeliCaStandardTag {
    /// One system: its code, areas (the first is area 0, `0000`–`FFFE`) and services.
    public struct System: Sendable, Hashable {
        /// The system code (no `FF` byte; unique on the card); Polling for it finds this system.
        public var code: UInt16
        /// The areas; the first must be area 0, `0000`–`FFFE`.
        public var areas: [Area]
        /// The services of the system.
        public var services: [Service]

        /// A system; by default it holds only area 0 (`0000`–`FFFE`).
        public init(code: UInt16, areas: [Area] = [Area(code: 0x0000, endCode: 0xFFFE)], services: [Service]) {
            self.code = code
            self.areas = areas
            self.services = services
        }
    }

    /// An area: its code, end code and key version.
    public struct Area: Sendable, Hashable {
        /// The area code: number << 6 | attribute `000000` (may hold sub-areas) or `000001` (may not).
        public var code: UInt16
        /// The end code: end number << 6 | `111111`, not below the area (`FFFE` for area 0).
        public var endCode: UInt16
        /// The area key's version, which Request Service reports.
        public var keyVersion: UInt16

        /// An area; its key version is `0000` unless given.
        public init(code: UInt16, endCode: UInt16, keyVersion: UInt16 = 0) {
            self.code = code
            self.endCode = endCode
            self.keyVersion = keyVersion
        }
    }

    /// A service: the codes that reach its blocks (overlap services share one number), a key
    /// version per code, and the blocks.
    public struct Service: Sendable, Hashable {
        /// The codes that reach the blocks, all with the service's number and kind (random, cyclic or purse).
        public var codes: [UInt16]
        /// The key version of each code, in the order of `codes`, which Request Service reports.
        public var keyVersions: [UInt16]
        /// The blocks, 16 bytes each; a purse service has exactly one.
        public var blocks: [[UInt8]]

        /// A service reached by `codes`, holding `blocks`.
        /// - Parameters:
        ///   - codes: the codes that reach the blocks, all with one service number and kind.
        ///   - keyVersions: one per code; all `0000` when omitted.
        ///   - blocks: the blocks, 16 bytes each; a purse service has exactly one.
        public init(codes: [UInt16], keyVersions: [UInt16]? = nil, blocks: [[UInt8]]) {
            self.codes = codes
            self.keyVersions = keyVersions ?? [UInt16](repeating: 0, count: codes.count)
            self.blocks = blocks
        }

        /// The service number all its codes share.
        public var number: UInt16 { (codes.first ?? 0) >> 6 }
    }

    /// A realistic two-system card: a transit system `0003` (card information, a purse and a
    /// cyclic history, readable without a key, writable only with one) and the common area
    /// `FE00` (a sub-area with random, cyclic and purse services writable without a key where the
    /// attribute allows, and one service that needs a key).
    public static let defaultSystems: [System] = [
        System(
            code: 0x0003,
            areas: [Area(code: 0x0000, endCode: 0xFFFE), Area(code: 0x0040, endCode: 0x07FF)],
            services: [
                Service(codes: [0x0088, 0x008B], blocks: [block(0x01, 0x10, 0x20, 0x24, 0x05, 0x31)]),
                Service(codes: [0x00D0, 0x00D7], blocks: [block(0xE8, 0x03, 0x00, 0x00)]),
                Service(codes: [0x010C, 0x010F], blocks: (0..<10).map { block(0x16, 0x01, 0x00, 0x02, UInt8($0)) }),
            ]
        ),
        System(
            code: 0xFE00,
            areas: [Area(code: 0x0000, endCode: 0xFFFE), Area(code: 0x1000, endCode: 0x17FF)],
            services: [
                Service(codes: [0x1009], blocks: (0..<4).map { _ in block() }),
                Service(
                    codes: [0x1048, 0x104B], keyVersions: [0x0001, 0x0000], blocks: [block(0x4D, 0x45, 0x4D, 0x42, 0x45, 0x52), block()]),
                Service(codes: [0x108D, 0x108F], blocks: (0..<5).map { _ in block() }),
                Service(codes: [0x10D0, 0x10D3, 0x10D5, 0x10D7], blocks: [block(0xF4, 0x01, 0x00, 0x00, 0xC8, 0x00, 0x00, 0x00)]),
                Service(codes: [0x1108], keyVersions: [0x0002], blocks: [block(0xAA)]),
            ]
        ),
    ]

    /// A 16-byte block starting with the given bytes, zero-padded.
    static func block(_ prefix: UInt8...) -> [UInt8] {
        Array(prefix.prefix(16)) + [UInt8](repeating: 0, count: max(0, 16 - prefix.count))
    }
}

/// The service attribute, the low 6 bits of a service code (FeliCa Card User's Manual Excerpted
/// Edition v2.0 §3.4, Table 3-3): random `0010xx`, cyclic `0011xx`, purse `010xxx`; bit 0 set
/// means no key is needed.
struct FeliCaServiceAttribute: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case random, cyclic, purse }
    /// What a purse service code lets a write do.
    enum PurseAccess: Sendable, Hashable { case direct, cashback, decrement, readOnly }

    let value: UInt8

    init(code: UInt16) { value = UInt8(code & 0x3F) }

    var kind: Kind? {
        switch value >> 2 {
        case 0b0010: .random
        case 0b0011: .cyclic
        case 0b0100, 0b0101: .purse
        default: nil
        }
    }

    var needsKey: Bool { value & 0x01 == 0 }

    var purseAccess: PurseAccess? {
        guard kind == .purse else { return nil }
        switch (value >> 1) & 0x03 {
        case 0: return .direct
        case 1: return .cashback
        case 2: return .decrement
        default: return .readOnly
        }
    }

    /// Whether Write Without Encryption may use this code: no key, and not a read-only attribute.
    var writableWithoutKey: Bool {
        guard !needsKey, let kind else { return false }
        switch kind {
        case .random, .cyclic: return value & 0x02 == 0
        case .purse: return purseAccess != .readOnly
        }
    }
}
