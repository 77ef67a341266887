import NFCBytes

/// Bluetooth out-of-band pairing data carried in NDEF: the BR/EDR (``BREDR``,
/// `application/vnd.bluetooth.ep.oob`) and LE (``LowEnergy``, `application/vnd.bluetooth.le.oob`)
/// records of Bluetooth Secure Simple Pairing Using NFC 1.x (NFC Forum / Bluetooth SIG
/// application document) and NFC Forum Connection Handover 1.4.
///
/// Both hold EIR / AD structures (Bluetooth Core Specification Vol 3 Part C §8 "Extended
/// Inquiry Response Data Format" and "Advertising and Scan Response Data Format"; data types
/// in the Core Specification Supplement Part A): a length byte, a type byte and `length − 1`
/// data bytes. A zero length byte ends the significant part early; what follows must be zero
/// (kept as ``BREDR/padding`` / ``LowEnergy/padding``).
public enum BluetoothOOB {}

extension BluetoothOOB {
    /// An EIR / AD data type (Core Specification Supplement Part A §1, Assigned Numbers).
    public struct DataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The data type byte.
        public var rawValue: UInt8
        /// The data type with this byte; any value is accepted.
        @inlinable
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Flags (CSS Part A §1.3).
        public static let flags = DataType(rawValue: 0x01)
        /// Incomplete / complete lists of 16-, 32- and 128-bit service class UUIDs (CSS Part A §1.1).
        public static let incompleteServiceClassUUIDs16 = DataType(rawValue: 0x02)
        /// `0x03`: complete list of 16-bit service class UUIDs.
        public static let completeServiceClassUUIDs16 = DataType(rawValue: 0x03)
        /// `0x04`: incomplete list of 32-bit service class UUIDs.
        public static let incompleteServiceClassUUIDs32 = DataType(rawValue: 0x04)
        /// `0x05`: complete list of 32-bit service class UUIDs.
        public static let completeServiceClassUUIDs32 = DataType(rawValue: 0x05)
        /// `0x06`: incomplete list of 128-bit service class UUIDs.
        public static let incompleteServiceClassUUIDs128 = DataType(rawValue: 0x06)
        /// `0x07`: complete list of 128-bit service class UUIDs.
        public static let completeServiceClassUUIDs128 = DataType(rawValue: 0x07)
        /// Shortened / complete local name, UTF-8 (CSS Part A §1.2).
        public static let shortenedLocalName = DataType(rawValue: 0x08)
        /// `0x09`: the complete local name, UTF-8.
        public static let completeLocalName = DataType(rawValue: 0x09)
        /// Class of Device, 3 bytes (CSS Part A §1.6).
        public static let classOfDevice = DataType(rawValue: 0x0D)
        /// Simple Pairing Hash C-192 and Randomizer R-192, 16 bytes each (CSS Part A §1.6).
        public static let simplePairingHashC192 = DataType(rawValue: 0x0E)
        /// `0x0F`: Simple Pairing Randomizer R-192, 16 bytes.
        public static let simplePairingRandomizerR192 = DataType(rawValue: 0x0F)
        /// Security Manager TK Value, 16 bytes (CSS Part A §1.8).
        public static let securityManagerTKValue = DataType(rawValue: 0x10)
        /// Security Manager Out of Band Flags (CSS Part A §1.7).
        public static let securityManagerOOBFlags = DataType(rawValue: 0x11)
        /// Appearance, 2 bytes little-endian (CSS Part A §1.12).
        public static let appearance = DataType(rawValue: 0x19)
        /// LE Bluetooth Device Address, 7 bytes (CSS Part A §1.16).
        public static let leBluetoothDeviceAddress = DataType(rawValue: 0x1B)
        /// LE Role, 1 byte (CSS Part A §1.17).
        public static let leRole = DataType(rawValue: 0x1C)
        /// Simple Pairing Hash C-256 and Randomizer R-256, 16 bytes each (CSS Part A §1.6).
        public static let simplePairingHashC256 = DataType(rawValue: 0x1D)
        /// `0x1E`: Simple Pairing Randomizer R-256, 16 bytes.
        public static let simplePairingRandomizerR256 = DataType(rawValue: 0x1E)
        /// LE Secure Connections Confirmation and Random Values, 16 bytes each (CSS Part A §1.6).
        public static let leSecureConnectionsConfirmationValue = DataType(rawValue: 0x22)
        /// `0x23`: LE Secure Connections Random Value, 16 bytes.
        public static let leSecureConnectionsRandomValue = DataType(rawValue: 0x23)
        /// Manufacturer Specific Data (CSS Part A §1.4).
        public static let manufacturerSpecificData = DataType(rawValue: 0xFF)

        /// `0x` and two upper-case hex digits.
        public var description: String { "0x" + Hex.encode([rawValue], uppercase: true) }

        /// The fixed data size of this type, where it has one.
        var fixedLength: Int? {
            switch rawValue {
            case 0x0D: return 3
            case 0x0E, 0x0F, 0x10, 0x1D, 0x1E, 0x22, 0x23: return 16
            case 0x19: return 2
            case 0x1B: return 7
            case 0x1C: return 1
            default: return nil
            }
        }

        /// The size of one element of a UUID list type, where this is one.
        var uuidSize: Int? {
            switch rawValue {
            case 0x02, 0x03: return 2
            case 0x04, 0x05: return 4
            case 0x06, 0x07: return 16
            default: return nil
            }
        }
    }

    /// One EIR / AD structure: its type and data, verbatim.
    public struct DataStructure: Hashable, Sendable {
        /// The structure's data type.
        public var type: DataType
        /// The data (at most 254 bytes: the length byte counts the type too).
        public var data: [UInt8]
        /// A structure of `type` with `data`; sizes are checked only when encoding (at most 254 bytes).
        @inlinable
        public init(type: DataType, data: [UInt8]) {
            self.type = type
            self.data = data
        }
    }

    /// A 48-bit Bluetooth device address (BD_ADDR), shown most significant byte first.
    ///
    /// On the wire it is little-endian (least significant byte first), in both the BR/EDR
    /// OOB payload and the LE Bluetooth Device Address data type.
    public struct Address: Hashable, Sendable, CustomStringConvertible {
        /// The six bytes, most significant first (`01:02:03:04:05:06` is `[1, 2, 3, 4, 5, 6]`).
        public let bytes: [UInt8]

        /// Creates an address from six bytes, most significant first; nil unless there are six.
        public init?(bytes: [UInt8]) {
            guard bytes.count == 6 else { return nil }
            self.bytes = bytes
        }

        /// Creates an address from its little-endian wire form; nil unless there are six bytes.
        public init?(littleEndian wire: some Collection<UInt8>) {
            self.init(bytes: wire.reversed())
        }

        /// Parses `01:02:03:04:05:06` (colons or dashes, any case).
        public init?(string: String) {
            let parts = string.split(whereSeparator: { $0 == ":" || $0 == "-" })
            guard parts.count == 6 else { return nil }
            var bytes: [UInt8] = []
            for part in parts {
                guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
                bytes.append(byte)
            }
            self.bytes = bytes
        }

        /// The wire form, least significant byte first.
        public var littleEndian: [UInt8] { bytes.reversed() }

        /// `01:02:03:04:05:06` (upper-case hex, as ndeflib prints it).
        public var description: String { Hex.encode(bytes, uppercase: true, separator: ":") }
    }

    /// A service class UUID from a 16-, 32- or 128-bit list, as its full 128-bit value.
    public struct ServiceClassUUID: Hashable, Sendable, CustomStringConvertible {
        /// The 128-bit UUID, most significant byte first.
        public let bytes: [UInt8]

        private static let baseTail: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

        /// A UUID from its little-endian wire form of 2, 4 or 16 bytes (shorter forms are
        /// offsets into the Bluetooth Base UUID); nil for other sizes.
        init?(littleEndian wire: ArraySlice<UInt8>) {
            switch wire.count {
            case 2: bytes = [0, 0] + wire.reversed() + Self.baseTail
            case 4, 16: bytes = wire.reversed() + (wire.count == 4 ? Self.baseTail : [])
            default: return nil
            }
        }

        /// The 16-bit alias of a Base-UUID value (e.g. `0x110B`), else nil.
        public var uuid16: UInt16? {
            guard bytes.count == 16, bytes[0] == 0, bytes[1] == 0, Array(bytes[4...]) == Self.baseTail else { return nil }
            return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        }

        /// `0000110b-0000-1000-8000-00805f9b34fb` (lower case, as Python's `uuid` prints it).
        public var description: String {
            let h = Hex.encode(bytes)
            let u = Array(h.utf8)
            guard u.count == 32 else { return h }
            func part(_ r: Range<Int>) -> String { String(decoding: u[r], as: UTF8.self) }
            return [part(0..<8), part(8..<12), part(12..<16), part(16..<20), part(20..<32)].joined(separator: "-")
        }
    }
}

extension BluetoothOOB {
    /// The result of parsing EIR / AD structures.
    struct ParsedStructures {
        var structures: [DataStructure]
        var padding: Int
    }

    /// Parses EIR / AD structures up to the end of `bytes`.
    ///
    /// In strict mode a known data type with the wrong size, a UUID list whose size is not a
    /// multiple of its element size, a local name that is not UTF-8, and non-zero bytes after an
    /// early termination are ``NDEFError/Code/invalidPayload``; lenient mode keeps the
    /// structures verbatim and drops whatever follows an early termination.
    static func parseStructures(
        _ bytes: ArraySlice<UInt8>, strict: Bool, context: String
    ) throws(NDEFError) -> ParsedStructures {
        var cursor = PayloadCursor(bytes, context: context)
        var structures: [DataStructure] = []
        while !cursor.isAtEnd {
            let start = cursor.offset
            let length = Int(try cursor.uint8("data structure length"))
            if length == 0 {
                let rest = cursor.rest()
                if strict, rest.contains(where: { $0 != 0 }) {
                    throw NDEFError(
                        .invalidPayload, "\(context): non-zero bytes after a zero length (early termination)",
                        offset: start)
                }
                return ParsedStructures(structures: structures, padding: 1 + rest.count)
            }
            let type = DataType(rawValue: try cursor.uint8("data structure type"))
            let data = try cursor.bytes(length - 1, "data of structure \(type)")
            if strict {
                if let fixed = type.fixedLength, data.count != fixed {
                    throw NDEFError(
                        .invalidPayload, "\(context): data type \(type) has \(fixed) bytes of data, its length field says \(data.count)",
                        offset: start)
                }
                if let size = type.uuidSize, data.count % size != 0 {
                    throw NDEFError(
                        .invalidPayload, "\(context): a \(size * 8)-bit UUID list of \(data.count) bytes", offset: start)
                }
                if type == .shortenedLocalName || type == .completeLocalName {
                    var iterator = data.makeIterator()
                    var decoder = UTF8()
                    loop: while true {
                        switch decoder.decode(&iterator) {
                        case .scalarValue: continue
                        case .emptyInput: break loop
                        case .error:
                            throw NDEFError(.invalidEncoding, "\(context): the local name is not UTF-8", offset: start)
                        }
                    }
                }
            }
            structures.append(DataStructure(type: type, data: data))
        }
        return ParsedStructures(structures: structures, padding: 0)
    }

    /// Appends EIR / AD structures and `padding` zero bytes.
    static func writeStructures(_ structures: [DataStructure], padding: Int, into writer: inout ByteWriter) throws(NDEFError) {
        for structure in structures {
            guard structure.data.count <= 254 else {
                throw NDEFError(
                    .fieldTooLong, "data structure \(structure.type) holds at most 254 bytes, got \(structure.data.count)")
            }
            writer.write(UInt8(truncatingIfNeeded: structure.data.count + 1))
            writer.write(structure.type.rawValue)
            writer.write(contentsOf: structure.data)
        }
        guard padding >= 0 else { throw NDEFError(.invalidValue, "padding cannot be negative") }
        writer.write(contentsOf: repeatElement(UInt8(0), count: padding))
    }
}

extension Array where Element == BluetoothOOB.DataStructure {
    /// The data of the first structure of a type.
    func data(_ type: BluetoothOOB.DataType) -> [UInt8]? {
        first(where: { $0.type == type })?.data
    }

    /// The data of the first structure of a type, if it has `count` bytes.
    func data(_ type: BluetoothOOB.DataType, count: Int) -> [UInt8]? {
        guard let d = data(type), d.count == count else { return nil }
        return d
    }

    /// The complete local name, else the shortened one, as text (U+FFFD for bad UTF-8).
    var localName: String? {
        (data(.completeLocalName) ?? data(.shortenedLocalName)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every service class UUID of the 16-, 32- and 128-bit lists, in order of appearance.
    var serviceClassUUIDs: [BluetoothOOB.ServiceClassUUID] {
        var uuids: [BluetoothOOB.ServiceClassUUID] = []
        for structure in self {
            guard let size = structure.type.uuidSize else { continue }
            var index = structure.data.startIndex
            while index + size <= structure.data.endIndex {
                if let uuid = BluetoothOOB.ServiceClassUUID(littleEndian: structure.data[index..<(index + size)]) {
                    uuids.append(uuid)
                }
                index += size
            }
        }
        return uuids
    }
}
