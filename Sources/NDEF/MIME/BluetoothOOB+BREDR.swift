import NFCBytes

extension BluetoothOOB {
    /// Bluetooth BR/EDR out-of-band data (`application/vnd.bluetooth.ep.oob`).
    ///
    /// Payload (Bluetooth Secure Simple Pairing Using NFC 1.x, "Bluetooth BR/EDR OOB data";
    /// Core Specification Vol 3 Part C §5.2.2.7): the OOB data length (2 bytes little-endian,
    /// the size of the whole payload including itself), the device address BD_ADDR (6 bytes
    /// little-endian), then optional EIR structures: local name (0x08/0x09), Class of Device
    /// (0x0D), Simple Pairing Hash C (0x0E, 0x1D) and Randomizer R (0x0F, 0x1E), service class
    /// UUID lists (0x02–0x07), … Unknown structures are kept verbatim and in order.
    ///
    /// Strict decoding: an OOB data length larger than the payload is ``NDEFError/Code/truncated``,
    /// a smaller one ``NDEFError/Code/invalidPayload``, plus the structure checks of
    /// ``BluetoothOOB``. Lenient decoding ignores the OOB data length field (it is recomputed on
    /// encoding) and reads EIR structures to the end of the payload.
    public struct BREDR: NDEFRecordConvertible, Hashable, Sendable {
        /// The media type, `application/vnd.bluetooth.ep.oob`.
        public static let mimeType = "application/vnd.bluetooth.ep.oob"

        /// The device address.
        public var address: Address
        /// The EIR structures, verbatim and in order.
        public var structures: [DataStructure]
        /// The number of zero bytes after an early-terminating zero length (0 when none).
        public var padding: Int

        /// Creates BR/EDR OOB data.
        public init(address: Address, structures: [DataStructure] = [], padding: Int = 0) {
            self.address = address
            self.structures = structures
            self.padding = padding
        }

        /// The complete local name, else the shortened one.
        public var localName: String? { structures.localName }
        /// Whether the name in ``localName`` is the complete one.
        public var isLocalNameComplete: Bool { structures.data(.completeLocalName) != nil }
        /// The 24-bit Class of Device (sent little-endian), if present and 3 bytes long.
        public var classOfDevice: UInt32? {
            structures.data(.classOfDevice, count: 3).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        }
        /// Simple Pairing Hash C(-192), 16 bytes as on the wire.
        public var simplePairingHash: [UInt8]? { structures.data(.simplePairingHashC192, count: 16) }
        /// Simple Pairing Randomizer R(-192), 16 bytes as on the wire.
        public var simplePairingRandomizer: [UInt8]? { structures.data(.simplePairingRandomizerR192, count: 16) }
        /// Simple Pairing Hash C-256, 16 bytes as on the wire.
        public var simplePairingHash256: [UInt8]? { structures.data(.simplePairingHashC256, count: 16) }
        /// Simple Pairing Randomizer R-256, 16 bytes as on the wire.
        public var simplePairingRandomizer256: [UInt8]? { structures.data(.simplePairingRandomizerR256, count: 16) }
        /// The service class UUIDs of every list, in order.
        public var serviceClassUUIDs: [ServiceClassUUID] { structures.serviceClassUUIDs }

        /// Interprets an `application/vnd.bluetooth.ep.oob` record (see the type's notes on strict and lenient decoding).
        /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` when the payload
        ///   ends inside the length, the address or a structure, and the strict checks' errors.
        public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
            let context = "Bluetooth BR/EDR OOB"
            try record.expect(.media, Array(Self.mimeType.utf8), context)
            let strict = options.mode == .strict
            var cursor = PayloadCursor(record.payload[...], context: context)
            let length = Int(try cursor.uint16LE("OOB data length"))
            let wire = try cursor.slice(6, "device address")
            guard let address = Address(littleEndian: wire) else {
                throw cursor.invalid("device address", at: 2)
            }
            self.address = address
            if strict {
                if length > record.payload.count {
                    throw NDEFError(
                        .truncated,
                        "\(context): the OOB data length field says \(length) bytes, the payload has \(record.payload.count)",
                        offset: record.payload.count)
                }
                if length < record.payload.count {
                    throw NDEFError(
                        .invalidPayload,
                        "\(context): the OOB data length field says \(length) bytes, the payload has \(record.payload.count)",
                        offset: 0)
                }
            }
            let parsed = try BluetoothOOB.parseStructures(cursor.rest(), strict: strict, context: context)
            structures = parsed.structures
            padding = parsed.padding
        }

        /// The media record: the OOB data length (recomputed), the address, the structures and the padding.
        /// - Throws: ``NDEFError/Code/fieldTooLong`` for a structure over 254 bytes of data or a payload over 65,535 bytes;
        ///   ``NDEFError/Code/invalidValue`` for a negative padding.
        public func record() throws(NDEFError) -> NDEFRecord {
            var writer = ByteWriter()
            writer.write(UInt16(0))
            writer.write(contentsOf: address.littleEndian)
            try BluetoothOOB.writeStructures(structures, padding: padding, into: &writer)
            guard writer.count <= 0xFFFF else {
                throw NDEFError(.fieldTooLong, "BR/EDR OOB data is at most 65535 bytes, got \(writer.count)")
            }
            let length = UInt16(truncatingIfNeeded: writer.count)
            writer.set(UInt8(truncatingIfNeeded: length), at: 0)
            writer.set(UInt8(truncatingIfNeeded: length >> 8), at: 1)
            return NDEFRecord(typeNameFormat: .media, type: Self.mimeType, payload: writer.bytes)
        }
    }
}
