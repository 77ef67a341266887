import NFCBytes

extension WiFiSimpleConfiguration {
    /// The Wi-Fi Alliance vendor extension: Vendor Extension attribute (0x1049) with vendor id
    /// `00 37 2A` followed by subelements (1-byte id, 1-byte length, value).
    ///
    /// WSC v2.0.x §12 ("Vendor Extension", "WFA Vendor Extension Subelements"): Version2 (id
    /// 0x00, 1 byte, e.g. `0x20` for 2.0) and Network Key Shareable (id 0x02, 1 byte, boolean).
    /// Other subelements are kept verbatim, in order.
    public struct WFAVendorExtension: Hashable, Sendable {
        /// The Wi-Fi Alliance vendor id, `00 37 2A`.
        public static let vendorID: [UInt8] = [0x00, 0x37, 0x2A]
        /// Subelement id of Version2.
        public static let version2ID: UInt8 = 0x00
        /// Subelement id of Network Key Shareable.
        public static let networkKeyShareableID: UInt8 = 0x02

        /// One subelement.
        public struct Subelement: Hashable, Sendable {
            /// The subelement id (``version2ID``, ``networkKeyShareableID``, or another).
            public var id: UInt8
            /// The value bytes (at most 255: the length is one byte).
            public var value: [UInt8]
            /// A subelement with `id` and `value`.
            @inlinable
            public init(id: UInt8, value: [UInt8]) {
                self.id = id
                self.value = value
            }
        }

        /// The subelements, in order.
        public var subelements: [Subelement]

        /// Creates an extension from subelements.
        @inlinable
        public init(subelements: [Subelement]) {
            self.subelements = subelements
        }

        /// Creates an extension with the usual subelements.
        public init(version2: UInt8? = 0x20, networkKeyShareable: Bool? = nil) {
            var subelements: [Subelement] = []
            if let version2 { subelements.append(Subelement(id: Self.version2ID, value: [version2])) }
            if let networkKeyShareable {
                subelements.append(Subelement(id: Self.networkKeyShareableID, value: [networkKeyShareable ? 1 : 0]))
            }
            self.subelements = subelements
        }

        /// Version2 (high nibble major, low nibble minor), if present and one byte long.
        public var version2: UInt8? {
            guard let value = subelements.first(where: { $0.id == Self.version2ID })?.value, value.count == 1 else {
                return nil
            }
            return value.first
        }

        /// Network Key Shareable, if present and one byte long.
        public var networkKeyShareable: Bool? {
            guard let value = subelements.first(where: { $0.id == Self.networkKeyShareableID })?.value,
                value.count == 1, let byte = value.first
            else { return nil }
            return byte != 0
        }

        /// Parses a Vendor Extension attribute value; nil when the vendor id is not the WFA's.
        ///
        /// In strict mode Version2 and Network Key Shareable must be one byte long.
        static func parse(_ value: [UInt8], strict: Bool, context: String) throws(NDEFError) -> WFAVendorExtension? {
            guard value.count >= 3, value.prefix(3).elementsEqual(vendorID) else { return nil }
            var cursor = PayloadCursor(value[3...], context: context + " WFA vendor extension")
            var subelements: [Subelement] = []
            while !cursor.isAtEnd {
                let id = try cursor.uint8("subelement id")
                let length = Int(try cursor.uint8("length of subelement \(id)"))
                let bytes = try cursor.bytes(length, "value of subelement \(id)")
                if strict && (id == version2ID || id == networkKeyShareableID) && length != 1 {
                    throw cursor.invalid("subelement \(id) must be 1 byte long, its length field says \(length)")
                }
                subelements.append(Subelement(id: id, value: bytes))
            }
            return WFAVendorExtension(subelements: subelements)
        }

        /// The Vendor Extension attribute carrying this extension.
        public func attribute() throws(NDEFError) -> Attribute {
            Attribute(type: .vendorExtension, value: try Self.encode(subelements))
        }

        static func encode(_ subelements: [Subelement]) throws(NDEFError) -> [UInt8] {
            var writer = ByteWriter()
            writer.write(contentsOf: vendorID)
            for element in subelements {
                writer.write(element.id)
                try writeShortLengthPrefixed(element.value, into: &writer, field: "WFA subelement \(element.id) value")
            }
            return writer.bytes
        }
    }
}
