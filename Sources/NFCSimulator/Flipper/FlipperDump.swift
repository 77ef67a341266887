/// The tag data of a Flipper Zero `.nfc` dump this importer understands.
public enum FlipperDump: Sendable, Hashable {
    /// An NTAG21x or MIFARE Ultralight dump (`Device type: NTAG/Ultralight`, or the model name in
    /// format versions 2–3).
    case ultralight(Ultralight)
    /// An ISO/IEC 15693 dump (`Device type: ISO15693-3`, `SLIX`, or legacy `ISO15693`).
    case iso15693(ISO15693)

    /// NTAG / Ultralight fields (Flipper `mf_ultralight` format).
    public struct Ultralight: Sendable, Hashable {
        /// The model name Flipper recorded (`NTAG213`, `Mifare Ultralight 21`, …), if any.
        public var typeName: String?
        /// The UID (7 bytes).
        public var uid: [UInt8]
        /// ATQA (2 bytes), most significant byte first (format version 2 and earlier stored it reversed; it is swapped back).
        public var atqa: [UInt8]
        /// SAK.
        public var sak: UInt8
        /// The originality signature (`Signature`, 32 bytes), if recorded.
        public var signature: [UInt8]?
        /// The GET_VERSION answer (8 bytes), if recorded.
        public var version: [UInt8]?
        /// The one-way counters (`Counter 0`–`Counter 2`, 24 bits each) that were recorded, in order.
        public var counters: [UInt32]
        /// The tearing flags (`Tearing 0`–`Tearing 2`, one byte each) that were recorded, in order.
        public var tearing: [UInt8]
        /// Every page (`Page 0` to `Pages total` − 1), 4 bytes each.
        public var pages: [[UInt8]]
        /// The failed password authentication count (0–7), if recorded.
        public var failedAuthenticationAttempts: Int?
    }

    /// ISO/IEC 15693 fields (Flipper `iso15693_3` format).
    public struct ISO15693: Sendable, Hashable {
        /// The `Device type` value as written (`ISO15693-3`, `ISO15693`, `SLIX`, `SLIX-S`, `SLIX-L` or `SLIX2`).
        public var deviceType: String
        /// UID, `E0` first.
        public var uid: [UInt8]
        /// DSFID; `00` when not recorded.
        public var dsfid: UInt8
        /// AFI; `00` when not recorded.
        public var afi: UInt8
        /// IC reference; `00` when not recorded.
        public var icReference: UInt8
        /// Whether the DSFID is locked (`Lock DSFID`, or bit 0 of the legacy lock byte of `Security Status`).
        public var dsfidLocked: Bool
        /// Whether the AFI is locked (`Lock AFI`, or bit 1 of the legacy lock byte of `Security Status`).
        public var afiLocked: Bool
        /// Bytes per block (1–32).
        public var blockSize: Int
        /// The blocks (`Block Count` of them), cut from `Data Content`.
        public var blocks: [[UInt8]]
        /// Per block: locked or not.
        public var blockLocked: [Bool]
    }

    /// Reads the tag data of a parsed file.
    /// - Throws: ``FlipperImportError`` for device types other than NTAG/Ultralight and ISO 15693,
    ///   and for missing or inconsistent fields.
    public init(_ file: FlipperNFCFile) throws(FlipperImportError) {
        let device = try file.entry("Device type")
        switch device.value {
        case "NTAG/Ultralight", "Mifare Ultralight", "Mifare Ultralight 11", "Mifare Ultralight 21",
            "NTAG203", "NTAG213", "NTAG215", "NTAG216", "NTAGI2C1K", "NTAGI2C2K":
            self = .ultralight(try Self.ultralight(file, deviceType: device.value))
        case "ISO15693-3", "ISO15693", "SLIX", "SLIX-S", "SLIX-L", "SLIX2":
            self = .iso15693(try Self.iso15693(file, deviceType: device.value))
        default:
            throw FlipperImportError(
                line: device.line, "device type \"\(device.value)\" cannot be imported (NTAG/Ultralight and ISO 15693 dumps can)")
        }
    }

    private static func ultralight(_ file: FlipperNFCFile, deviceType: String) throws(FlipperImportError) -> Ultralight {
        let uid = try file.bytes("UID")
        guard uid.count == 7 else {
            throw FlipperImportError(line: try file.entry("UID").line, "an NTAG/Ultralight UID has 7 bytes, not \(uid.count)")
        }
        var atqa = try file.bytes("ATQA", count: 2)
        // Format version 2 stored ATQA least significant byte first.
        if file.version <= 2 { atqa.reverse() }
        let sak = try file.bytes("SAK", count: 1)[0]
        let typeName = file.optionalEntry("NTAG/Ultralight type")?.value ?? (deviceType == "NTAG/Ultralight" ? nil : deviceType)
        let signature = try file.optionalEntry("Signature").map { (e) throws(FlipperImportError) in
            try FlipperNFCFile.bytes(of: e, count: 32)
        }
        let version = try file.optionalEntry("Mifare version").map { (e) throws(FlipperImportError) in
            try FlipperNFCFile.bytes(of: e, count: 8)
        }
        var counters: [UInt32] = []
        var tearing: [UInt8] = []
        for index in 0..<3 {
            if let entry = file.optionalEntry("Counter \(index)") {
                guard let value = UInt32(entry.value), value <= 0xFF_FFFF else {
                    throw FlipperImportError(line: entry.line, "Counter \(index) \"\(entry.value)\" is not a 24-bit number")
                }
                counters.append(value)
            }
            if let entry = file.optionalEntry("Tearing \(index)") {
                tearing.append(try FlipperNFCFile.bytes(of: entry, count: 1)[0])
            }
        }
        let total = try file.integer("Pages total", in: 1...1024)
        var pages: [[UInt8]] = []
        pages.reserveCapacity(total)
        for index in 0..<total {
            pages.append(try file.bytes("Page \(index)", count: 4))
        }
        let failed = try file.optionalEntry("Failed authentication attempts").map { (entry) throws(FlipperImportError) -> Int in
            guard let value = Int(entry.value), (0...7).contains(value) else {
                throw FlipperImportError(line: entry.line, "Failed authentication attempts \"\(entry.value)\" is not 0–7")
            }
            return value
        }
        return Ultralight(
            typeName: typeName, uid: uid, atqa: atqa, sak: sak, signature: signature, version: version,
            counters: counters, tearing: tearing, pages: pages, failedAuthenticationAttempts: failed
        )
    }

    private static func iso15693(_ file: FlipperNFCFile, deviceType: String) throws(FlipperImportError) -> ISO15693 {
        let uid = try file.bytes("UID", count: 8)
        guard uid[0] == 0xE0 else {
            throw FlipperImportError(line: try file.entry("UID").line, "an ISO 15693 UID starts with E0, not \(uid[0])")
        }
        let dsfid =
            try file.optionalEntry("DSFID").map { (e) throws(FlipperImportError) in try FlipperNFCFile.bytes(of: e, count: 1)[0] } ?? 0
        let afi = try file.optionalEntry("AFI").map { (e) throws(FlipperImportError) in try FlipperNFCFile.bytes(of: e, count: 1)[0] } ?? 0
        let icReference =
            try file.optionalEntry("IC Reference").map { (e) throws(FlipperImportError) in try FlipperNFCFile.bytes(of: e, count: 1)[0] }
            ?? 0
        let count = try file.integer("Block Count", in: 1...65536)
        let size = try Int(file.bytes("Block Size", count: 1)[0])
        guard (1...32).contains(size) else {
            throw FlipperImportError(line: try file.entry("Block Size").line, "Block Size \(size) is not 1–32 bytes")
        }
        let data = try file.bytes("Data Content", count: count * size)
        let blocks = stride(from: 0, to: data.count, by: size).map { Array(data[$0..<$0 + size]) }
        var dsfidLocked = false
        var afiLocked = false
        var locked = Array(repeating: false, count: count)
        let hasLockKeys = file.optionalEntry("Lock DSFID") != nil && file.optionalEntry("Lock AFI") != nil
        if hasLockKeys {
            dsfidLocked = try file.boolean("Lock DSFID")
            afiLocked = try file.boolean("Lock AFI")
        }
        if let security = file.optionalEntry("Security Status") {
            var bytes = try FlipperNFCFile.bytes(of: security)
            if !hasLockKeys {
                // Legacy layout: a lock-bits byte (bit 0 DSFID, bit 1 AFI) before the block bytes.
                guard bytes.count == count + 1 else {
                    throw FlipperImportError(
                        line: security.line, "Security Status has \(bytes.count) bytes, expected \(count + 1) (legacy layout)")
                }
                dsfidLocked = bytes[0] & 0x01 != 0
                afiLocked = bytes[0] & 0x02 != 0
                bytes.removeFirst()
            }
            guard bytes.count == count else {
                throw FlipperImportError(line: security.line, "Security Status has \(bytes.count) bytes, expected \(count)")
            }
            locked = bytes.map { $0 & 0x01 != 0 }
        }
        return ISO15693(
            deviceType: deviceType, uid: uid, dsfid: dsfid, afi: afi, icReference: icReference,
            dsfidLocked: dsfidLocked, afiLocked: afiLocked, blockSize: size, blocks: blocks, blockLocked: locked
        )
    }
}
