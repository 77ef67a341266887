import NFCBytes

extension WiFiSimpleConfiguration {
    /// One Wi-Fi Simple Configuration attribute: a 16-bit type and its value, kept verbatim.
    ///
    /// Wi-Fi Simple Configuration Technical Specification v2.0.x §12 (Data Element
    /// Definitions): each attribute is a TLV with a 2-byte big-endian type, a 2-byte big-endian
    /// length and that many value bytes.
    public struct Attribute: Hashable, Sendable {
        /// The attribute type (e.g. ``AttributeType/credential``).
        public var type: AttributeType
        /// The value bytes (at most 65,535).
        public var value: [UInt8]

        /// Creates an attribute.
        @inlinable
        public init(type: AttributeType, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// A Wi-Fi Simple Configuration attribute type (WSC v2.0.x §12, Table 28).
    public struct AttributeType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The 16-bit type as on the wire (big-endian there).
        public var rawValue: UInt16
        /// The attribute type with this value; any value is accepted.
        @inlinable
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Authentication Type (2 bytes, ``AuthenticationType`` flags).
        public static let authenticationType = AttributeType(rawValue: 0x1003)
        /// Credential (nested attributes).
        public static let credential = AttributeType(rawValue: 0x100E)
        /// Encryption Type (2 bytes, ``EncryptionType`` flags).
        public static let encryptionType = AttributeType(rawValue: 0x100F)
        /// MAC Address (6 bytes).
        public static let macAddress = AttributeType(rawValue: 0x1020)
        /// Network Index (1 byte; deprecated in v2, always 1).
        public static let networkIndex = AttributeType(rawValue: 0x1026)
        /// Network Key (0–64 bytes).
        public static let networkKey = AttributeType(rawValue: 0x1027)
        /// SSID (0–32 bytes).
        public static let ssid = AttributeType(rawValue: 0x1045)
        /// Vendor Extension (3-byte vendor id + data).
        public static let vendorExtension = AttributeType(rawValue: 0x1049)
        /// Version (1 byte; deprecated in v2, always 0x10).
        public static let version = AttributeType(rawValue: 0x104A)

        /// `0x` and four upper-case hex digits.
        public var description: String {
            "0x" + Hex.encode([UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)], uppercase: true)
        }
    }

    /// Authentication Type flags (WSC v2.0.x §12, "Authentication Type").
    public struct AuthenticationType: OptionSet, Hashable, Sendable {
        /// The 16-bit flags as on the wire (big-endian there).
        public var rawValue: UInt16
        /// Flags from a 16-bit value; undefined bits are kept.
        @inlinable
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// `0x0001`: Open (no authentication).
        public static let open = AuthenticationType(rawValue: 0x0001)
        /// WPA-Personal (deprecated in v2).
        public static let wpaPersonal = AuthenticationType(rawValue: 0x0002)
        /// Shared (deprecated in v2).
        public static let shared = AuthenticationType(rawValue: 0x0004)
        /// WPA-Enterprise (deprecated in v2).
        public static let wpaEnterprise = AuthenticationType(rawValue: 0x0008)
        /// `0x0010`: WPA2-Enterprise.
        public static let wpa2Enterprise = AuthenticationType(rawValue: 0x0010)
        /// `0x0020`: WPA2-Personal.
        public static let wpa2Personal = AuthenticationType(rawValue: 0x0020)

        /// The flags with the names ndeflib uses (`"Open"`, `"WPA2-Personal"`, …), and
        /// `0x…` for undefined bits.
        public static let names: [(AuthenticationType, String)] = [
            (.open, "Open"), (.wpaPersonal, "WPA-Personal"), (.shared, "Shared"),
            (.wpaEnterprise, "WPA-Enterprise"), (.wpa2Enterprise, "WPA2-Enterprise"),
            (.wpa2Personal, "WPA2-Personal"),
        ]
    }

    /// Encryption Type flags (WSC v2.0.x §12, "Encryption Type").
    public struct EncryptionType: OptionSet, Hashable, Sendable {
        /// The 16-bit flags as on the wire (big-endian there).
        public var rawValue: UInt16
        /// Flags from a 16-bit value; undefined bits are kept.
        @inlinable
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// `0x0001`: None (no encryption).
        public static let none = EncryptionType(rawValue: 0x0001)
        /// WEP (deprecated in v2).
        public static let wep = EncryptionType(rawValue: 0x0002)
        /// TKIP (deprecated in v2).
        public static let tkip = EncryptionType(rawValue: 0x0004)
        /// `0x0008`: AES.
        public static let aes = EncryptionType(rawValue: 0x0008)

        /// The flags with the names ndeflib uses (`"None"`, `"WEP"`, `"TKIP"`, `"AES"`).
        public static let names: [(EncryptionType, String)] = [
            (.none, "None"), (.wep, "WEP"), (.tkip, "TKIP"), (.aes, "AES"),
        ]
    }
}

extension WiFiSimpleConfiguration {
    /// Parses a sequence of attribute TLVs (2-byte type, 2-byte length, value).
    static func parseAttributes(_ bytes: ArraySlice<UInt8>, context: String) throws(NDEFError) -> [Attribute] {
        var cursor = PayloadCursor(bytes, context: context)
        var attributes: [Attribute] = []
        while !cursor.isAtEnd {
            let type = try cursor.uint16("attribute type")
            let hex = AttributeType(rawValue: type).description
            let length = Int(try cursor.uint16("length of attribute \(hex)"))
            attributes.append(Attribute(type: AttributeType(rawValue: type), value: try cursor.bytes(length, "value of attribute \(hex)")))
        }
        return attributes
    }

    /// Appends attribute TLVs; throws when a value exceeds 65,535 bytes.
    static func writeAttributes(_ attributes: [Attribute], into writer: inout ByteWriter) throws(NDEFError) {
        for attribute in attributes {
            guard attribute.value.count <= 0xFFFF else {
                throw NDEFError(
                    .fieldTooLong, "attribute \(attribute.type) value is at most 65535 bytes, got \(attribute.value.count)")
            }
            writer.write(attribute.type.rawValue)
            writer.write(UInt16(truncatingIfNeeded: attribute.value.count))
            writer.write(contentsOf: attribute.value)
        }
    }

    /// Encodes attribute TLVs.
    static func encodeAttributes(_ attributes: [Attribute]) throws(NDEFError) -> [UInt8] {
        var writer = ByteWriter()
        try writeAttributes(attributes, into: &writer)
        return writer.bytes
    }
}
