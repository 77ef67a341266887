import NFCBytes

extension BluetoothOOB {
    /// Bluetooth LE out-of-band data (`application/vnd.bluetooth.le.oob`).
    ///
    /// Payload (Bluetooth Secure Simple Pairing Using NFC 1.x, "Bluetooth LE OOB data"): AD
    /// structures only, no length prefix: LE Bluetooth Device Address (0x1B, 7 bytes: the
    /// address little-endian, then its type), LE Role (0x1C), Security Manager TK Value (0x10),
    /// LE Secure Connections Confirmation (0x22) and Random (0x23) values, Appearance (0x19),
    /// Flags (0x01), local name (0x08/0x09), … Unknown structures are kept verbatim and in order.
    ///
    /// Strict decoding requires the two mandatory structures, LE Bluetooth Device Address and
    /// LE Role, with an address type of 0 or 1 and a defined role, plus the structure checks
    /// of ``BluetoothOOB``; lenient decoding accepts their absence and reserved values.
    public struct LowEnergy: NDEFRecordConvertible, Hashable, Sendable {
        /// The media type, `application/vnd.bluetooth.le.oob`.
        public static let mimeType = "application/vnd.bluetooth.le.oob"

        /// Whether an LE address is public or random (the last byte of the address structure).
        public enum AddressType: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
            /// A public device address (type byte 0).
            case `public` = 0
            /// A random device address (type byte 1).
            case random = 1
            /// `public` or `random`, as ndeflib spells it.
            public var description: String { self == .public ? "public" : "random" }
        }

        /// The LE roles a device supports (CSS Part A §1.17).
        public enum Role: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
            /// Only the Peripheral role.
            case peripheral = 0
            /// Only the Central role.
            case central = 1
            /// Both, Peripheral preferred for connection establishment.
            case peripheralPreferred = 2
            /// Both, Central preferred for connection establishment.
            case centralPreferred = 3

            /// ndeflib's names: `Peripheral`, `Central`, `Peripheral/Central`, `Central/Peripheral`.
            public var description: String {
                switch self {
                case .peripheral: return "Peripheral"
                case .central: return "Central"
                case .peripheralPreferred: return "Peripheral/Central"
                case .centralPreferred: return "Central/Peripheral"
                }
            }
        }

        /// The AD structures, verbatim and in order.
        public var structures: [DataStructure]
        /// The number of zero bytes after an early-terminating zero length (0 when none).
        public var padding: Int

        /// Creates LE OOB data from its structures.
        public init(structures: [DataStructure], padding: Int = 0) {
            self.structures = structures
            self.padding = padding
        }

        /// Creates LE OOB data with the mandatory address and role first, then `other` structures.
        public init(address: Address, addressType: AddressType, role: Role, other: [DataStructure] = []) {
            self.structures =
                [
                    DataStructure(type: .leBluetoothDeviceAddress, data: address.littleEndian + [addressType.rawValue]),
                    DataStructure(type: .leRole, data: [role.rawValue]),
                ] + other
            self.padding = 0
        }

        /// The device address, if the address structure is present and 7 bytes long.
        public var address: Address? {
            structures.data(.leBluetoothDeviceAddress, count: 7).flatMap { Address(littleEndian: $0.prefix(6)) }
        }
        /// The address type (bit 0 of the seventh byte), if the address structure is present.
        public var addressType: AddressType? {
            structures.data(.leBluetoothDeviceAddress, count: 7).flatMap { $0.last }.map { $0 & 1 == 0 ? .public : .random }
        }
        /// The LE role, if present and defined.
        public var role: Role? { structures.data(.leRole, count: 1).flatMap { $0.first }.flatMap(Role.init(rawValue:)) }
        /// Security Manager TK Value, 16 bytes as on the wire.
        public var securityManagerTKValue: [UInt8]? { structures.data(.securityManagerTKValue, count: 16) }
        /// LE Secure Connections Confirmation Value, 16 bytes as on the wire.
        public var secureConnectionsConfirmationValue: [UInt8]? {
            structures.data(.leSecureConnectionsConfirmationValue, count: 16)
        }
        /// LE Secure Connections Random Value, 16 bytes as on the wire.
        public var secureConnectionsRandomValue: [UInt8]? { structures.data(.leSecureConnectionsRandomValue, count: 16) }
        /// Appearance (little-endian on the wire), if present and 2 bytes long.
        public var appearance: UInt16? {
            structures.data(.appearance, count: 2).map { UInt16($0[1]) << 8 | UInt16($0[0]) }
        }
        /// The first byte of Flags, if present.
        public var flags: UInt8? { structures.data(.flags)?.first }
        /// The complete local name, else the shortened one.
        public var localName: String? { structures.localName }
        /// Whether the name in ``localName`` is the complete one.
        public var isLocalNameComplete: Bool { structures.data(.completeLocalName) != nil }

        /// Interprets an `application/vnd.bluetooth.le.oob` record (see the type's notes on strict and lenient decoding).
        /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` when a structure
        ///   is cut short, and the strict checks' errors.
        public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
            let context = "Bluetooth LE OOB"
            try record.expect(.media, Array(Self.mimeType.utf8), context)
            let strict = options.mode == .strict
            let parsed = try BluetoothOOB.parseStructures(record.payload[...], strict: strict, context: context)
            structures = parsed.structures
            padding = parsed.padding
            if strict {
                guard let address = structures.data(.leBluetoothDeviceAddress), let type = address.last else {
                    throw NDEFError(.invalidPayload, "\(context): no LE Bluetooth Device Address structure", offset: 0)
                }
                if type > 1 {
                    throw NDEFError(.invalidPayload, "\(context): reserved LE address type 0x\(Hex.encode([type]))", offset: 0)
                }
                guard let role = structures.data(.leRole)?.first else {
                    throw NDEFError(.invalidPayload, "\(context): no LE Role structure", offset: 0)
                }
                if Role(rawValue: role) == nil {
                    throw NDEFError(.invalidPayload, "\(context): reserved LE role 0x\(Hex.encode([role]))", offset: 0)
                }
            }
        }

        /// The media record: the structures, then the padding; the mandatory structures are not checked.
        /// - Throws: ``NDEFError/Code/fieldTooLong`` for a structure over 254 bytes of data; ``NDEFError/Code/invalidValue``
        ///   for a negative padding.
        public func record() throws(NDEFError) -> NDEFRecord {
            var writer = ByteWriter()
            try BluetoothOOB.writeStructures(structures, padding: padding, into: &writer)
            return NDEFRecord(typeNameFormat: .media, type: Self.mimeType, payload: writer.bytes)
        }
    }
}
