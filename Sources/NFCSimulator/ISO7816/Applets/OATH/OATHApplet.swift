import Crypto

/// An emulated YubiKey OATH applet (Yubico, "YKOATH Protocol Specification"): HOTP (RFC 4226)
/// and TOTP (RFC 6238) credentials with HMAC-SHA-1/256/512, an optional access code proven by
/// challenge-response, and SEND REMAINING (`A5`) for answers longer than one response.
///
/// The simulator's own reading of the protocol (it does not use the `NFCOATH` client):
/// - TOTP has no clock here: the time step is the challenge the client sends, as on a YubiKey.
/// - Touch: a credential may require touch; CALCULATE treats the touch as given (there is no
///   button), CALCULATE ALL reports such credentials with tag `7C` and no code, as the spec says.
/// - The "only increasing" property (`78 01`) is accepted and stored but not enforced.
/// - The version in SELECT (``version``) is the YKOATH protocol level implemented (rename, SHA-512,
///   touch), not a claim to be a YubiKey; the applet answers no device-information query.
public struct OATHApplet: ISO7816Applet, Hashable {
    /// `A0 00 00 05 27 21 01`.
    public static let applicationIdentifier: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]
    /// 5.3.1: the YubiKey OATH protocol level whose commands this applet implements (RENAME
    /// came with 5.3.1, SHA-512 with 4.3.1, touch with 4.2.4).
    public static let protocolVersion: [UInt8] = [0x05, 0x03, 0x01]
    /// How many credentials fit by default (a YubiKey 5 holds 32).
    public static let defaultCapacity = 32
    /// The longest name (YKOATH PUT: "max 64 bytes").
    public static let maximumNameLength = 64

    /// HOTP or TOTP (the type nibble `10` / `20`).
    public enum Kind: String, Codable, Sendable, Hashable {
        /// Counter based (RFC 4226), nibble `10`.
        case hotp
        /// Time based (RFC 6238), nibble `20`.
        case totp

        var nibble: UInt8 { self == .hotp ? 0x10 : 0x20 }
        init?(nibble: UInt8) {
            switch nibble {
            case 0x10: self = .hotp
            case 0x20: self = .totp
            default: return nil
            }
        }
    }

    /// The HMAC hash (the algorithm nibble `1`–`3`).
    public enum Algorithm: String, Codable, Sendable, Hashable {
        /// HMAC-SHA-1, nibble `1`.
        case sha1
        /// HMAC-SHA-256, nibble `2`.
        case sha256
        /// HMAC-SHA-512, nibble `3`.
        case sha512

        var nibble: UInt8 {
            switch self {
            case .sha1: 0x01
            case .sha256: 0x02
            case .sha512: 0x03
            }
        }

        init?(nibble: UInt8) {
            switch nibble {
            case 0x01: self = .sha1
            case 0x02: self = .sha256
            case 0x03: self = .sha512
            default: return nil
            }
        }

        /// The block size: the longest secret stored (clients hash longer keys first).
        var blockSize: Int { self == .sha512 ? 128 : 64 }

        func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
            let symmetricKey = SymmetricKey(data: key)
            switch self {
            case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetricKey))
            case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: symmetricKey))
            case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: message, using: symmetricKey))
            }
        }
    }

    /// One stored credential.
    public struct Credential: Sendable, Hashable {
        /// The name, opaque bytes (clients write `[period/][issuer:]account`).
        public var name: [UInt8]
        /// HOTP or TOTP.
        public var kind: Kind
        /// The HMAC hash.
        public var algorithm: Algorithm
        /// 6–8.
        public var digits: Int
        /// The HMAC key; at most the hash's block size (64 bytes, 128 for SHA-512).
        public var secret: [UInt8]
        /// Whether the credential requires touch: CALCULATE ALL lists it under tag `7C` without a code.
        public var touchRequired: Bool
        /// The "only increasing" property (`78 01`): stored, not enforced.
        public var onlyIncreasing: Bool
        /// HOTP's moving factor, the counter of the next code.
        public var counter: UInt64

        /// A credential; by default without touch or "only increasing", HOTP counter 0.
        public init(
            name: [UInt8], kind: Kind, algorithm: Algorithm, digits: Int, secret: [UInt8],
            touchRequired: Bool = false, onlyIncreasing: Bool = false, counter: UInt64 = 0
        ) {
            self.name = name
            self.kind = kind
            self.algorithm = algorithm
            self.digits = digits
            self.secret = secret
            self.touchRequired = touchRequired
            self.onlyIncreasing = onlyIncreasing
            self.counter = counter
        }
    }

    /// The access key set by SET CODE.
    public struct AccessKey: Sendable, Hashable {
        /// The HMAC hash of the access code's challenge-response.
        public var algorithm: Algorithm
        /// The HMAC key (the client derives it from the password and ``OATHApplet/salt``).
        public var key: [UInt8]

        /// An access key from its hash and key bytes.
        public init(algorithm: Algorithm, key: [UInt8]) {
            self.algorithm = algorithm
            self.key = key
        }
    }

    /// The AID SELECT finds the applet by (``applicationIdentifier`` by default).
    public var aid: [UInt8]
    /// Three bytes returned under tag `79`.
    public var version: [UInt8]
    /// The applet's name (tag `71` of SELECT), 8 random bytes made anew by RESET; clients use it
    /// as the salt of the access key and as the device identifier.
    public var salt: [UInt8]
    /// The stored credentials, in the order PUT added them (PUT of an existing name replaces it in place).
    public var credentials: [Credential]
    /// The access key; when set, SELECT sends a challenge and PUT, DELETE, SET CODE, RENAME, LIST, CALCULATE and
    /// CALCULATE ALL need VALIDATE first (`6982`).
    public var accessKey: AccessKey?
    /// The most credentials stored; PUT of another gets `6A84`.
    public var capacity: Int

    // Transient state.
    /// Whether VALIDATE (or SET CODE) succeeded since the applet was selected.
    public internal(set) var authenticated = false
    /// The challenge SELECT sent, until VALIDATE answers it.
    var pendingChallenge: [UInt8]?
    /// The rest of an answer, for SEND REMAINING.
    var remaining: [UInt8]?

    /// An applet with no credentials and a fresh random salt.
    public init(
        aid: [UInt8] = OATHApplet.applicationIdentifier, version: [UInt8] = OATHApplet.protocolVersion,
        salt: [UInt8]? = nil, credentials: [Credential] = [], accessKey: AccessKey? = nil,
        capacity: Int = OATHApplet.defaultCapacity
    ) {
        self.aid = aid
        self.version = version
        self.salt = salt ?? Self.randomBytes(8)
        self.credentials = credentials
        self.accessKey = accessKey
        self.capacity = capacity
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    // MARK: ISO7816Applet

    /// Ends the session (not authenticated, no pending SEND REMAINING) and answers version (`79`), salt (`71`) and, with
    /// an access key, a new challenge (`74`) and the key's algorithm (`7B`).
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        authenticated = false
        remaining = nil
        pendingChallenge = nil
        var data = OATHAppletTLV.encode(0x79, version) + OATHAppletTLV.encode(0x71, salt)
        if let accessKey {
            let challenge = Self.randomBytes(8)
            pendingChallenge = challenge
            data += OATHAppletTLV.encode(0x74, challenge) + OATHAppletTLV.encode(0x7B, [accessKey.algorithm.nibble])
        }
        return answer(data, to: command)
    }

    /// Ends the session: not authenticated, no pending challenge or SEND REMAINING data.
    public mutating func deselect() {
        authenticated = false
        pendingChallenge = nil
        remaining = nil
    }

    /// Ends the session, as ``deselect()`` does.
    public mutating func reset() {
        deselect()
    }

    /// The image wrapped as an ISO 7816 applet image (`oath`).
    public var appletImage: ISO7816AppletImage? { .oath(image) }
}
