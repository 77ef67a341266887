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
    /// The authenticator's persistent state, as the `fido` applet of an ISO 7816 card image (see the extension's comment).
    public struct Image: Codable, Sendable, Hashable {
        /// One discoverable credential, private key included.
        public struct Credential: Codable, Sendable, Hashable {
            /// The credential ID (the wrapped private key).
            public var credentialID: HexBytes
            /// The relying party ID.
            public var rpID: String
            /// The user handle, 1–64 bytes.
            public var userID: HexBytes
            /// `user.name`, if MakeCredential gave one.
            public var userName: String?
            /// `user.displayName`, if MakeCredential gave one.
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
        /// The global signature counter.
        public var signatureCounter: UInt32
        /// LEFT(SHA-256(PIN), 16), absent with no PIN.
        public var pinHash: HexBytes?
        /// PIN attempts left, 0–8.
        public var pinRetries: Int
        /// The largest CTAP2 message accepted, 256–65 535 bytes.
        public var maxMsgSize: Int
        /// `9100` status updates before a long operation's result, 0–16.
        public var processingUpdates: Int
        /// The discoverable credentials, oldest first.
        public var residentCredentials: [Credential]
    }

    /// The authenticator's persistent state; transient state (key agreement key, PIN/UV auth token, pending messages) is
    /// not kept. It holds private keys.
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

    /// The image wrapped as an ISO 7816 applet image (`fido`).
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
