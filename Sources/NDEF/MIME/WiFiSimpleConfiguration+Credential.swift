import NFCBytes

extension WiFiSimpleConfiguration {
    /// A Credential attribute (0x100E): the settings of one network, as nested attributes.
    ///
    /// WSC v2.0.x §12 ("Credential"): Network Index (0x1026, 1 byte), SSID (0x1045, ≤ 32
    /// bytes), Authentication Type (0x1003, 2 bytes), Encryption Type (0x100F, 2 bytes),
    /// Network Key (0x1027, ≤ 64 bytes), MAC Address (0x1020, 6 bytes), and optionally a WFA
    /// Vendor Extension (0x1049) carrying Network Key Shareable. All nested attributes are kept
    /// verbatim, in order; the accessors read them.
    public struct Credential: Hashable, Sendable {
        /// The nested attributes, in order.
        public var attributes: [Attribute]

        /// Creates a credential from its nested attributes.
        @inlinable
        public init(attributes: [Attribute]) {
            self.attributes = attributes
        }

        /// Creates a credential with the attributes in the order of the WSC Credential table.
        ///
        /// - Parameters:
        ///   - networkIndex: deprecated in WSC v2; receivers ignore it, writers use 1.
        ///   - ssid: the network name, as bytes (WSC allows 32; only strict decoding checks).
        ///   - authenticationType: written as the 2-byte Authentication Type attribute.
        ///   - encryptionType: written as the 2-byte Encryption Type attribute.
        ///   - networkKey: the passphrase or key, as bytes (WSC allows 64; only strict decoding checks).
        ///   - macAddress: the enrollee's address; `FF:FF:FF:FF:FF:FF` (broadcast) when unknown.
        ///   - networkKeyShareable: written as a WFA vendor extension when not nil.
        public init(
            networkIndex: UInt8 = 1, ssid: [UInt8], authenticationType: AuthenticationType,
            encryptionType: EncryptionType, networkKey: [UInt8],
            macAddress: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], networkKeyShareable: Bool? = nil
        ) throws(NDEFError) {
            guard macAddress.count == 6 else {
                throw NDEFError(.invalidValue, "a MAC address has 6 bytes, got \(macAddress.count)")
            }
            var attributes = [
                Attribute(type: .networkIndex, value: [networkIndex]),
                Attribute(type: .ssid, value: ssid),
                Attribute(type: .authenticationType, value: Self.be16(authenticationType.rawValue)),
                Attribute(type: .encryptionType, value: Self.be16(encryptionType.rawValue)),
                Attribute(type: .networkKey, value: networkKey),
                Attribute(type: .macAddress, value: macAddress),
            ]
            if let networkKeyShareable {
                attributes.append(
                    try WFAVendorExtension(version2: nil, networkKeyShareable: networkKeyShareable).attribute())
            }
            self.attributes = attributes
        }

        private static func be16(_ value: UInt16) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }

        private func value(_ type: AttributeType) -> [UInt8]? {
            attributes.first(where: { $0.type == type })?.value
        }

        private func uint16(_ type: AttributeType) -> UInt16? {
            guard let v = value(type), v.count == 2 else { return nil }
            return v.reduce(0) { $0 << 8 | UInt16($1) }
        }

        /// Network Index, if present and one byte long.
        public var networkIndex: UInt8? {
            guard let v = value(.networkIndex), v.count == 1 else { return nil }
            return v.first
        }
        /// The SSID bytes (usually UTF-8 text), if present.
        public var ssid: [UInt8]? { value(.ssid) }
        /// The authentication types, if present and two bytes long.
        public var authenticationType: AuthenticationType? { uint16(.authenticationType).map(AuthenticationType.init) }
        /// The encryption types, if present and two bytes long.
        public var encryptionType: EncryptionType? { uint16(.encryptionType).map(EncryptionType.init) }
        /// The network key (passphrase or PSK), if present.
        public var networkKey: [UInt8]? { value(.networkKey) }
        /// The MAC address, if present and six bytes long.
        public var macAddress: [UInt8]? {
            guard let v = value(.macAddress), v.count == 6 else { return nil }
            return v
        }
        /// The first WFA vendor extension inside the credential, if any.
        public var wfaVendorExtension: WFAVendorExtension? {
            for attribute in attributes where attribute.type == .vendorExtension {
                if let ext = try? WFAVendorExtension.parse(attribute.value, strict: false, context: "") { return ext }
            }
            return nil
        }
        /// Network Key Shareable from the WFA vendor extension, if present.
        public var networkKeyShareable: Bool? { wfaVendorExtension?.networkKeyShareable }

        /// The Credential attribute (0x100E) holding these attributes.
        public func attribute() throws(NDEFError) -> Attribute {
            Attribute(type: .credential, value: try WiFiSimpleConfiguration.encodeAttributes(attributes))
        }

        /// Parses a Credential attribute's value.
        ///
        /// Strict mode checks the sizes of the attributes listed above (one Network Index
        /// byte, SSID ≤ 32, two-byte types, key ≤ 64, six-byte MAC address).
        static func parse(_ value: [UInt8], strict: Bool) throws(NDEFError) -> Credential {
            let context = "Wi-Fi credential"
            let attributes = try WiFiSimpleConfiguration.parseAttributes(value[...], context: context)
            if strict {
                for attribute in attributes {
                    let n = attribute.value.count
                    let problem: String?
                    switch attribute.type {
                    case .networkIndex: problem = n == 1 ? nil : "Network Index must be 1 byte, got \(n)"
                    case .ssid: problem = n <= 32 ? nil : "SSID is at most 32 bytes, got \(n)"
                    case .authenticationType: problem = n == 2 ? nil : "Authentication Type must be 2 bytes, got \(n)"
                    case .encryptionType: problem = n == 2 ? nil : "Encryption Type must be 2 bytes, got \(n)"
                    case .networkKey: problem = n <= 64 ? nil : "Network Key is at most 64 bytes, got \(n)"
                    case .macAddress: problem = n == 6 ? nil : "MAC Address must be 6 bytes, got \(n)"
                    case .vendorExtension:
                        problem = n >= 3 ? nil : "Vendor Extension needs a 3-byte vendor id, got \(n) bytes"
                        if problem == nil { _ = try WFAVendorExtension.parse(attribute.value, strict: true, context: context) }
                    default: problem = nil
                    }
                    if let problem { throw NDEFError(.invalidPayload, "\(context): \(problem)") }
                }
            }
            return Credential(attributes: attributes)
        }
    }
}
