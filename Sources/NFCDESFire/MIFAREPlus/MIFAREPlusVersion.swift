/// GetVersion's answer from a MIFARE Plus (AN10833 type identification): vendor, type, versions,
/// storage, the UID and production data.
public struct MIFAREPlusVersion: Sendable, Hashable {
    /// The hardware part: vendor, type, subtype, major, minor, storage, protocol.
    public let hardware: [UInt8]
    /// The software part, in the same layout.
    public let software: [UInt8]
    /// The UID (7 bytes), or 4 for a card with a 4-byte UID.
    public let uid: [UInt8]
    /// Batch number, production week and year.
    public let production: [UInt8]

    /// Parses the joined frames (7 + 7 + 13 or 14 bytes).
    /// - Throws: ``MIFAREPlusError`` `.malformedResponse` for another length.
    public init(parsing bytes: [UInt8]) throws(MIFAREPlusError) {
        guard bytes.count == 27 || bytes.count == 28 else {
            throw MIFAREPlusError(.malformedResponse, "GetVersion answered \(bytes.count) bytes; 27 or 28 expected")
        }
        hardware = Array(bytes[0..<7])
        software = Array(bytes[7..<14])
        let rest = Array(bytes[14...])
        if rest.count == 13, rest.starts(with: [0x00, 0x04]) {
            uid = Array(rest[2..<6])
            production = Array(rest[6...])
        } else {
            uid = Array(rest.prefix(7))
            production = Array(rest.dropFirst(7))
        }
    }

    /// Whether the type byte says MIFARE Plus (`02`).
    public var isMIFAREPlus: Bool { hardware[1] & 0x0F == 0x02 }

    /// "MIFARE Plus EV1", "MIFARE Plus EV2" or the major version as hex.
    public var generation: String {
        switch hardware[3] {
        case 0x11: "MIFARE Plus EV1"
        case 0x22: "MIFARE Plus EV2"
        default: "MIFARE Plus (version \(String(hardware[3], radix: 16, uppercase: true)))"
        }
    }

    /// The storage size: 2^(n/2) bytes from the storage byte (`16` 2 KB, `18` 4 KB).
    public var storageBytes: Int { 1 << Int(hardware[5] >> 1) }
}
