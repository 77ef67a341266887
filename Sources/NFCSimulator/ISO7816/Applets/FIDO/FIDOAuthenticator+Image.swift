/// The authenticator's persistent state as a card image field.
///
/// **The image holds private keys** (attestation key, wrapping key, resident credential keys)
/// and the PIN hash: an image file is as secret as the key it describes.
///
/// ```json
/// {"applet": "fido", "aaguid": "4f70656e…", "attestationKey": "…", "attestationCertificate": "3082…",
///  "wrappingKey": "…", "signatureCounter": 3, "pinHash": "…", "pinRetries": 8,
///  "maxMsgSize": 2048, "processingUpdates": 1,
///  "residentCredentials": [{"credentialID": "…", "rpID": "example.com", "userID": "…",
///                           "userName": "alice", "displayName": "Alice", "privateKey": "…"}]}
/// ```
extension FIDOAuthenticator {
    public struct Image: Codable, Sendable, Hashable {
        public struct Credential: Codable, Sendable, Hashable {
            public var credentialID: HexBytes
            public var rpID: String
            public var userID: HexBytes
            public var userName: String?
            public var displayName: String?
            /// The raw P-256 private scalar.
            public var privateKey: HexBytes
        }

        /// 16 bytes.
        public var aaguid: HexBytes
        /// The raw P-256 private scalar of the U2F attestation key.
        public var attestationKey: HexBytes
        /// The DER X.509 certificate U2F registrations carry.
        public var attestationCertificate: HexBytes
        /// The AES-256 key wrapping credential IDs and key handles.
        public var wrappingKey: HexBytes
        public var signatureCounter: UInt32
        /// LEFT(SHA-256(PIN), 16), absent with no PIN.
        public var pinHash: HexBytes?
        public var pinRetries: Int
        public var maxMsgSize: Int
        public var processingUpdates: Int
        public var residentCredentials: [Credential]
    }

    public var image: Image {
        Image(
            aaguid: HexBytes(aaguid), attestationKey: HexBytes(attestationKey),
            attestationCertificate: HexBytes(attestationCertificate), wrappingKey: HexBytes(wrappingKey),
            signatureCounter: signatureCounter, pinHash: pinHash.map(HexBytes.init), pinRetries: pinRetries,
            maxMsgSize: maxMsgSize, processingUpdates: processingUpdates,
            residentCredentials: residentCredentials.map {
                Image.Credential(
                    credentialID: HexBytes($0.credentialID), rpID: $0.rpID, userID: HexBytes($0.userID),
                    userName: $0.userName, displayName: $0.displayName, privateKey: HexBytes($0.privateKey))
            }
        )
    }

    public var appletImage: ISO7816AppletImage? { .fido(image) }

    /// Rebuilds an authenticator from its image.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field.
    public init(image: Image) throws(TagImageError) {
        func check(_ ok: Bool, _ field: String, _ reason: String) throws(TagImageError) {
            if !ok { throw TagImageError(.invalidValue, field: field, reason) }
        }
        try check(image.aaguid.bytes.count == 16, "aaguid", "an AAGUID has 16 bytes")
        try check(image.attestationKey.bytes.count == 32, "attestationKey", "a P-256 private key has 32 bytes")
        try check(!image.attestationCertificate.bytes.isEmpty, "attestationCertificate", "must not be empty")
        try check(image.wrappingKey.bytes.count == 32, "wrappingKey", "an AES-256 key has 32 bytes")
        try check((0...Self.maximumPINRetries).contains(image.pinRetries), "pinRetries", "must be 0–\(Self.maximumPINRetries)")
        try check(image.pinHash.map { $0.bytes.count == 16 } ?? true, "pinHash", "LEFT(SHA-256(PIN), 16) has 16 bytes")
        try check((256...65_535).contains(image.maxMsgSize), "maxMsgSize", "must be 256–65 535")
        try check((0...16).contains(image.processingUpdates), "processingUpdates", "must be 0–16")
        for (index, credential) in image.residentCredentials.enumerated() {
            try check(
                credential.privateKey.bytes.count == 32, "residentCredentials[\(index)].privateKey", "a P-256 private key has 32 bytes")
            try check(
                !credential.userID.bytes.isEmpty && credential.userID.bytes.count <= 64, "residentCredentials[\(index)].userID",
                "a user handle has 1–64 bytes")
        }
        self.init(maxMsgSize: image.maxMsgSize, processingUpdates: image.processingUpdates)
        aaguid = image.aaguid.bytes
        attestationKey = image.attestationKey.bytes
        attestationCertificate = image.attestationCertificate.bytes
        wrappingKey = image.wrappingKey.bytes
        signatureCounter = image.signatureCounter
        pinHash = image.pinHash?.bytes
        pinRetries = image.pinRetries
        residentCredentials = image.residentCredentials.map {
            ResidentCredential(
                credentialID: $0.credentialID.bytes, rpID: $0.rpID, userID: $0.userID.bytes,
                userName: $0.userName, displayName: $0.displayName, privateKey: $0.privateKey.bytes)
        }
    }
}
