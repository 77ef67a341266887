import Crypto
import NFCCBOR

/// An emulated FIDO security key over NFC: U2F (FIDO U2F Raw Message Formats, FIDO U2F NFC
/// Protocol) and CTAP2 (CTAP 2.1 §6 commands, §11.3 NFC binding) behind one AID.
///
/// - Algorithms: ES256 only (ECDSA P-256 with SHA-256, COSE -7).
/// - Attestation: U2F registrations carry a self-signed certificate made with the card;
///   CTAP2 uses `packed` self attestation (the credential key signs, no `x5c`).
/// - User presence: holding the card to the reader is the presence test (CTAP 2.1 §11.3: an NFC
///   authenticator may treat the tap as presence), so `up` is always satisfied and U2F
///   AUTHENTICATE "enforce" succeeds at once.
/// - User verification: clientPIN protocol 2 only (CTAP 2.1 §6.5); no built-in UV.
/// - Credential IDs and U2F key handles wrap the private key with AES-256-GCM under the card's
///   wrapping key, authenticated with the RP ID hash (application parameter), so a handle made
///   for one RP never signs for another. Resident (discoverable) credentials are also listed.
///
/// The image (``Image``) holds the private keys and the PIN hash: treat image files as secrets.
public struct FIDOAuthenticator: ISO7816Applet {
    /// `A0 00 00 06 47 2F 00 01` (FIDO U2F NFC Protocol §4, CTAP 2.1 §11.3.3).
    public static let fidoAID: [UInt8] = [0xA0, 0x00, 0x00, 0x06, 0x47, 0x2F, 0x00, 0x01]
    /// The FIDO AID, ``fidoAID``.
    public var aid: [UInt8] { Self.fidoAID }

    /// The most PIN attempts (CTAP 2.1 §6.5.2.2: the counter starts at 8).
    public static let maximumPINRetries = 8
    /// The most resident credentials stored.
    public static let maximumResidentCredentials = 25

    /// A discoverable credential.
    public struct ResidentCredential: Sendable, Hashable {
        /// The credential ID: the private key wrapped under the card's wrapping key (see the type's comment).
        public var credentialID: [UInt8]
        /// The relying party ID (`rp.id` at MakeCredential), e.g. `example.com`.
        public var rpID: String
        /// The user handle (`user.id`); MakeCredential with `rk` replaces the credential of the same RP and user handle.
        public var userID: [UInt8]
        /// `user.name` as MakeCredential gave it, if it did.
        public var userName: String?
        /// `user.displayName` as MakeCredential gave it, if it did.
        public var displayName: String?
        /// The raw P-256 private scalar (32 bytes).
        var privateKey: [UInt8]
    }

    // Persistent state.
    /// The AAGUID reported by GetInfo and in attested credential data (16 bytes).
    public var aaguid: [UInt8]
    var attestationKey: [UInt8]
    /// The DER X.509 certificate U2F registrations carry: self-signed with the attestation key, no extensions.
    public internal(set) var attestationCertificate: [UInt8]
    var wrappingKey: [UInt8]
    /// The global signature counter (CTAP 2.1 §6.1: incremented before every signature).
    public internal(set) var signatureCounter: UInt32
    /// LEFT(SHA-256(PIN), 16), or `nil` with no PIN set.
    var pinHash: [UInt8]?
    /// PIN attempts left (0–8): a wrong PIN spends one, a right one or a new PIN restores 8; at 0 the PIN is blocked until
    /// authenticatorReset.
    public internal(set) var pinRetries: Int
    /// The discoverable credentials, at most ``maximumResidentCredentials``, oldest first.
    public internal(set) var residentCredentials: [ResidentCredential]
    /// The largest CTAP2 message accepted (reported in GetInfo).
    public var maxMsgSize: Int
    /// How many `9100` status updates a MakeCredential/GetAssertion answers before its result when
    /// the client offers NFCCTAP_GETRESPONSE (CTAP 2.1 §11.3.9).
    public var processingUpdates: Int

    // Transient state (power cycle).
    var keyAgreementKey = P256.KeyAgreement.PrivateKey()
    var pinUvAuthToken: [UInt8] = FIDOAuthenticator.randomBytes(32)
    var tokenPermissions: UInt8 = 0
    var tokenRPID: String?
    var consecutivePINFailures = 0
    var chainedData: [UInt8]?
    var pendingMessage: [UInt8]?
    var updatesLeft = 0
    var nextAssertions: NextAssertions?

    /// What GetNextAssertion continues.
    struct NextAssertions: Sendable {
        var credentials: [ResidentCredential]
        var clientDataHash: [UInt8]
        var flags: UInt8
    }

    /// A fresh authenticator, as it leaves the factory: a new attestation key and certificate and
    /// a new wrapping key from the system's random source, no PIN, no credentials, counter 0.
    public init(aaguid: [UInt8] = FIDOAuthenticator.defaultAAGUID, maxMsgSize: Int = 2048, processingUpdates: Int = 1) {
        self.aaguid = aaguid
        let attestation = P256.Signing.PrivateKey()
        attestationKey = Array(attestation.rawRepresentation)
        attestationCertificate = FIDOAttestationCertificate.make(key: attestation)
        wrappingKey = Self.randomBytes(32)
        signatureCounter = 0
        pinHash = nil
        pinRetries = Self.maximumPINRetries
        residentCredentials = []
        self.maxMsgSize = maxMsgSize
        self.processingUpdates = processingUpdates
    }

    /// The AAGUID of OpenCoreNFC's emulated key: "OpenCoreNFC-FIDO" in ASCII.
    public static let defaultAAGUID: [UInt8] = Array("OpenCoreNFC-FIDO".utf8)

    /// Whether a PIN is set.
    public var hasPIN: Bool { pinHash != nil }

    /// Answers `U2F_V2` with `9000` and drops a half-received chain or pending long operation.
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        chainedData = nil
        pendingMessage = nil
        // CTAP 2.1 §11.3.4: a key that does U2F answers "U2F_V2" (a CTAP2-only key, "FIDO_2_0").
        return SimResponseAPDU(data: Array("U2F_V2".utf8))
    }

    /// Drops a half-received chain, a pending long operation and a GetNextAssertion continuation.
    public mutating func deselect() {
        chainedData = nil
        pendingMessage = nil
        nextAssertions = nil
    }

    /// A power cycle: besides what ``deselect()`` drops, makes a new key agreement key and PIN/UV auth token (losing its
    /// permissions) and clears the count of consecutive wrong PINs.
    public mutating func reset() {
        deselect()
        keyAgreementKey = P256.KeyAgreement.PrivateKey()
        regenerateToken()
        consecutivePINFailures = 0
    }

    mutating func regenerateToken() {
        Self.wipe(&pinUvAuthToken)
        pinUvAuthToken = Self.randomBytes(32)
        tokenPermissions = 0
        tokenRPID = nil
    }

    /// Dispatches one APDU: NFCCTAP_MSG (`80 10`, `90 10` chaining), NFCCTAP_GETRESPONSE (`80 11`) and U2F REGISTER,
    /// AUTHENTICATE and VERSION (`00 01`–`00 03`); any other instruction in class `00` or `80` gets `6D00`, any other
    /// class `6E00`. Response data beyond a short Le of `00` waits behind `61xx`.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        var response: SimResponseAPDU
        switch (command.cla, command.ins) {
        case (0x80, 0x10), (0x90, 0x10): response = ctapMessage(command)
        case (0x80, 0x11): response = ctapGetResponse(command)
        case (0x00, 0x01), (0x00, 0x02), (0x00, 0x03): response = u2f(command)
        case (0x00, _), (0x80, _): response = SimResponseAPDU(.instructionNotSupported)
        default: response = SimResponseAPDU(.classNotSupported)
        }
        // Answers beyond a short Le of 00 wait behind 61xx, as a real key's do.
        response.keepsDataBeyondNe = true
        return response
    }

    /// NFCCTAP_MSG (CTAP 2.1 §11.3.8): CBOR command in, status byte + CBOR out; CLA `90` chains
    /// a long message (ISO 7816-4 chaining with the proprietary class).
    mutating func ctapMessage(_ command: SimCommandAPDU) -> SimResponseAPDU {
        pendingMessage = nil
        guard command.p2 == 0, command.p1 & 0x7F == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        let gathered = (chainedData ?? []) + command.data
        guard gathered.count <= maxMsgSize else {
            chainedData = nil
            return SimResponseAPDU(data: [CTAP2Status.requestTooLarge.rawValue])
        }
        if command.cla == 0x90 {
            chainedData = gathered
            return SimResponseAPDU(.success)
        }
        chainedData = nil
        // CTAP 2.1 §11.3.9: with P1 bit 8 the client polls with NFCCTAP_GETRESPONSE; the long
        // operations answer STATUS_PROCESSING (9100) first and run when their result is fetched,
        // so a cancel before that leaves the key unchanged.
        let long = gathered.first == 0x01 || gathered.first == 0x02
        if command.p1 & 0x80 != 0, long, processingUpdates > 0 {
            pendingMessage = gathered
            updatesLeft = processingUpdates - 1
            return SimResponseAPDU(data: [0x01], status: .ctapStatusUpdate)
        }
        let (body, writes) = ctap2(gathered)
        return SimResponseAPDU(data: body, writesMemory: writes)
    }

    /// NFCCTAP_GETRESPONSE (CTAP 2.1 §11.3.9): the next status update or the pending command's answer;
    /// P1 `11` cancels (CTAP2_ERR_KEEPALIVE_CANCEL).
    mutating func ctapGetResponse(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let pending = pendingMessage else { return SimResponseAPDU(.conditionsNotSatisfied) }
        if command.p1 == 0x11 {
            pendingMessage = nil
            return SimResponseAPDU(data: [CTAP2Status.keepaliveCancel.rawValue])
        }
        if updatesLeft > 0 {
            updatesLeft -= 1
            return SimResponseAPDU(data: [0x01], status: .ctapStatusUpdate)
        }
        pendingMessage = nil
        let (body, writes) = ctap2(pending)
        return SimResponseAPDU(data: body, writesMemory: writes)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

extension SimStatusWord {
    /// `9100`: a CTAP status update follows in the data (CTAP 2.1 §11.3.9).
    static let ctapStatusUpdate = SimStatusWord(rawValue: 0x9100)
}
