import Crypto

/// The kind of one-time password a credential makes (YKOATH "TYPES": the high nibble of the
/// type/algorithm byte).
public enum OATHType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Counter based, RFC 4226.
    case hotp = 0x10
    /// Time based, RFC 6238.
    case totp = 0x20

    /// `hotp` or `totp`.
    public var description: String { self == .hotp ? "hotp" : "totp" }
}

/// The HMAC hash of a credential or of the access key (YKOATH "ALGORITHMS": the low nibble).
public enum OATHAlgorithm: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HMAC-SHA-1 (`01`).
    case sha1 = 0x01
    /// HMAC-SHA-256 (`02`).
    case sha256 = 0x02
    /// HMAC-SHA-512 (`03`).
    case sha512 = 0x03

    /// `sha1`, `sha256` or `sha512`.
    public var description: String {
        switch self {
        case .sha1: "sha1"
        case .sha256: "sha256"
        case .sha512: "sha512"
        }
    }

    /// The hash's block size in bytes: keys longer than it are hashed first (RFC 2104 §2).
    public var blockSize: Int { self == .sha512 ? 128 : 64 }

    /// HMAC of `message` under `key` (RFC 2104).
    public func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let symmetricKey = SymmetricKey(data: key)
        switch self {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetricKey))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: symmetricKey))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: message, using: symmetricKey))
        }
    }

    /// The key hashed to the block size when longer (what the card stores, as RFC 2104 §2 does
    /// inside HMAC).
    func shortened(_ key: [UInt8]) -> [UInt8] {
        guard key.count > blockSize else { return key }
        switch self {
        case .sha1: return Array(Insecure.SHA1.hash(data: key))
        case .sha256: return Array(SHA256.hash(data: key))
        case .sha512: return Array(SHA512.hash(data: key))
        }
    }
}

/// The applet's version from SELECT (tag `79`, three bytes: major, minor, patch).
public struct OATHVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (first byte).
    public var major: UInt8
    /// The minor version (second byte).
    public var minor: UInt8
    /// The patch version (third byte).
    public var patch: UInt8

    /// The version `major.minor.patch`.
    public init(_ major: UInt8, _ minor: UInt8, _ patch: UInt8) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Orders by major, then minor, then patch.
    public static func < (lhs: OATHVersion, rhs: OATHVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// `major.minor.patch`, e.g. `4.3.1`.
    public var description: String { "\(major).\(minor).\(patch)" }
}

/// What SELECT told about the applet (YKOATH, SELECT INSTRUCTION, response syntax).
public struct OATHSelection: Sendable, Hashable {
    /// Tag `79`.
    public var version: OATHVersion
    /// Tag `71`: the applet's name, which is also the salt of the access key derivation.
    public var salt: [UInt8]
    /// Tag `74`: present when an access code is set, until VALIDATE spends it.
    public var challenge: [UInt8]?
    /// Tag `7B`: the access key's algorithm (SHA-1 when absent).
    public var algorithm: OATHAlgorithm
    /// Whether an access code protects the applet (SELECT sent a challenge).
    public var hasAccessCode: Bool

    /// What SELECT told; ``hasAccessCode`` is true when there is a `challenge`.
    public init(version: OATHVersion, salt: [UInt8], challenge: [UInt8]?, algorithm: OATHAlgorithm) {
        self.version = version
        self.salt = salt
        self.challenge = challenge
        self.algorithm = algorithm
        self.hasAccessCode = challenge != nil
    }
}
