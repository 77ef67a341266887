import NFCBytes

/// The NFC Forum Type 5 Tag capability container at the start of block 0 (NFC Forum T5T 1.0 §4.3).
///
/// Four bytes — magic number, version and access conditions, MLEN, feature flags — or, when byte 2
/// is 0, eight bytes with bytes 4–5 reserved and MLEN in bytes 6–7 (most significant first).
/// The data area (T5T_Area) follows the CC and is MLEN × 8 bytes long. Magic `E1` allows 1-byte
/// block addresses; `E2` says the memory needs 2-byte addresses, so the extended commands of
/// ISO/IEC 15693-3:2019 are used.
struct Type5CapabilityContainer: Sendable, Hashable {
    /// A 2-bit access condition of CC byte 1 (T5T 1.0 §4.3).
    enum Access: UInt8, Sendable {
        case always = 0b00
        case reserved = 0b01
        case proprietary = 0b10
        case never = 0b11

        var name: String {
            switch self {
            case .always: "always"
            case .reserved: "RFU"
            case .proprietary: "proprietary"
            case .never: "never"
            }
        }
    }

    /// Feature flags of CC byte 3 (T5T 1.0 §4.3): b0 MBREAD, b3 LOCK BLOCK, b4 SPECIAL FRAME.
    enum Feature {
        /// Read Multiple Blocks is supported.
        static let multipleBlockRead: UInt8 = 0x01
        /// Lock Block is supported.
        static let lockBlock: UInt8 = 0x08
        /// Write-alike commands need the option flag (the tag answers after the reader's EOF).
        static let specialFrame: UInt8 = 0x10
    }

    static let oneByteAddressMagic: UInt8 = 0xE1
    static let twoByteAddressMagic: UInt8 = 0xE2
    /// Version 1.0 in the upper nibble of byte 1.
    static let version10: UInt8 = 0x40

    var magic: UInt8
    var majorVersion: UInt8
    var minorVersion: UInt8
    var readAccess: Access
    var writeAccess: Access
    /// T5T_Area size in bytes: MLEN × 8.
    var dataAreaSize: Int
    var features: UInt8
    /// 4 or 8.
    var length: Int

    var multipleBlockRead: Bool { features & Feature.multipleBlockRead != 0 }
    var lockBlock: Bool { features & Feature.lockBlock != 0 }
    var specialFrame: Bool { features & Feature.specialFrame != 0 }
    var twoByteAddressing: Bool { magic == Self.twoByteAddressMagic }
    /// The byte offset just past the data area.
    var areaEnd: Int { length + dataAreaSize }

    /// How many bytes from block 0 the CC needs to be parsed: 4, or 8 when the prefix shows the
    /// 8-byte form (byte 2 is 0); `nil` before 3 bytes are known.
    static func neededLength(_ prefix: ArraySlice<UInt8>) -> Int? {
        guard prefix.count >= 3 else { return nil }
        return prefix[prefix.startIndex + 2] == 0 ? 8 : 4
    }

    /// Parses the CC from the first bytes of block 0.
    ///
    /// - Throws: `.notFormatted` when byte 0 is not a T5T magic number (a blank tag);
    ///   `.invalidCapabilityContainer` naming the byte that holds a value out of range;
    ///   `.unexpectedResponse` when fewer bytes than the CC needs are given.
    init(parsing bytes: ArraySlice<UInt8>) throws(TagEngineError) {
        var reader = ByteReader(bytes)
        guard let magic = try? reader.readUInt8(), let access = try? reader.readUInt8(), let mlen = try? reader.readUInt8(),
            let features = try? reader.readUInt8()
        else { throw TagEngineError(.unexpectedResponse, "the capability container needs 4 bytes, got \(bytes.count)") }
        guard magic == Self.oneByteAddressMagic || magic == Self.twoByteAddressMagic else {
            throw TagEngineError(
                .notFormatted,
                "block 0 holds no NFC Forum Type 5 capability container (byte 0 is 0x\(Hex.encode([magic], uppercase: true)), not E1 or E2)"
            )
        }
        self.magic = magic
        majorVersion = access >> 6
        minorVersion = (access >> 4) & 0x03
        readAccess = Access(rawValue: (access >> 2) & 0x03) ?? .reserved
        writeAccess = Access(rawValue: access & 0x03) ?? .reserved
        self.features = features
        guard majorVersion == 1 else {
            throw TagEngineError(
                .invalidCapabilityContainer,
                "CC byte 1 (0x\(Hex.encode([access], uppercase: true))): mapping version \(majorVersion).\(minorVersion) is not supported (major version 1 is)"
            )
        }
        guard readAccess == .always || readAccess == .proprietary else {
            throw TagEngineError(
                .invalidCapabilityContainer,
                "CC byte 1 (0x\(Hex.encode([access], uppercase: true))): read access bits \(readAccess.rawValue >> 1)\(readAccess.rawValue & 1) are reserved"
            )
        }
        if mlen != 0 {
            length = 4
            dataAreaSize = Int(mlen) * 8
        } else {
            guard let wide = try? reader.readBytes(4) else {
                throw TagEngineError(.unexpectedResponse, "the 8-byte capability container needs 8 bytes, got \(bytes.count)")
            }
            let size = Int(wide[2]) << 8 | Int(wide[3])
            guard size > 0 else {
                throw TagEngineError(.invalidCapabilityContainer, "CC bytes 6–7: MLEN is 0, the data area is empty")
            }
            length = 8
            dataAreaSize = size * 8
        }
    }

    /// A CC for formatting (read and write access always, version 1.0).
    ///
    /// - Parameters:
    ///   - dataAreaSize: T5T_Area in bytes; rounded down to a multiple of 8.
    ///   - twoByteAddressing: `E2` instead of `E1`.
    ///   - features: CC byte 3.
    ///   - eightBytes: the 8-byte form (needed when MLEN exceeds 255, i.e. more than 2040 bytes).
    init(dataAreaSize: Int, twoByteAddressing: Bool, features: UInt8, eightBytes: Bool) {
        magic = twoByteAddressing ? Self.twoByteAddressMagic : Self.oneByteAddressMagic
        majorVersion = 1
        minorVersion = 0
        readAccess = .always
        writeAccess = .always
        self.dataAreaSize = dataAreaSize / 8 * 8
        self.features = features
        length = eightBytes ? 8 : 4
    }

    /// The CC as stored.
    var bytes: [UInt8] {
        let access = majorVersion << 6 | minorVersion << 4 | readAccess.rawValue << 2 | writeAccess.rawValue
        let mlen = dataAreaSize / 8
        if length == 4 { return [magic, access, UInt8(truncatingIfNeeded: mlen), features] }
        return [magic, access, 0x00, features, 0x00, 0x00, UInt8(truncatingIfNeeded: mlen >> 8), UInt8(truncatingIfNeeded: mlen)]
    }
}
