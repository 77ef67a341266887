/// A credential on the applet as LIST or CALCULATE ALL describes it.
public struct OATHCredential: Sendable, Hashable {
    /// The name exactly as stored (what DELETE, CALCULATE and RENAME take).
    public var id: [UInt8]
    /// ``id`` read as `[period/][issuer:]account`.
    public var name: OATHCredentialName
    /// HOTP or TOTP (CALCULATE ALL reports a credential needing touch as TOTP, since its answer does not say).
    public var type: OATHType
    /// From LIST; `nil` when the credential came from CALCULATE ALL, which does not say.
    public var algorithm: OATHAlgorithm?
    /// From CALCULATE ALL (tag `7C`); `nil` when the credential came from LIST, which does not say.
    public var touchRequired: Bool?

    /// A credential with its stored name `id`, whose ``name`` is parsed from it for `type`.
    public init(id: [UInt8], type: OATHType, algorithm: OATHAlgorithm? = nil, touchRequired: Bool? = nil) {
        self.id = id
        self.name = OATHCredentialName(parsing: id, type: type)
        self.type = type
        self.algorithm = algorithm
        self.touchRequired = touchRequired
    }
}

/// A one-time password.
public struct OATHCode: Sendable, Hashable, CustomStringConvertible {
    /// The decimal code, zero-padded to its digits.
    public var value: String
    /// For TOTP, the first second (Unix time) the code is valid; for HOTP, `nil`.
    public var validFrom: Int64?
    /// For TOTP, the first second it is no longer valid; for HOTP, `nil`.
    public var validTo: Int64?

    /// A code; give the validity bounds (Unix seconds) for TOTP, `nil` for HOTP.
    public init(value: String, validFrom: Int64? = nil, validTo: Int64? = nil) {
        self.value = value
        self.validFrom = validFrom
        self.validTo = validTo
    }

    /// The code's digits (``value``).
    public var description: String { value }
}

/// What PUT stores: a credential with its secret.
public struct OATHCredentialData: Sendable, Hashable {
    /// The name, stored as ``OATHCredentialName/encoded(type:)`` writes it (1–64 bytes).
    public var name: OATHCredentialName
    /// HOTP or TOTP.
    public var type: OATHType
    /// The HMAC hash of the credential.
    public var algorithm: OATHAlgorithm
    /// The shared secret (raw bytes, not Base32).
    public var secret: [UInt8]
    /// 6–8.
    public var digits: Int
    /// HOTP: the initial moving factor (counter). Ignored for TOTP.
    public var counter: UInt32
    /// Whether the key must be touched for each code.
    public var touchRequired: Bool

    /// A credential to store; by default TOTP, SHA-1, 6 digits, counter 0 and no touch. PUT checks the fields.
    public init(
        name: OATHCredentialName, type: OATHType = .totp, algorithm: OATHAlgorithm = .sha1, secret: [UInt8],
        digits: Int = 6, counter: UInt32 = 0, touchRequired: Bool = false
    ) {
        self.name = name
        self.type = type
        self.algorithm = algorithm
        self.secret = secret
        self.digits = digits
        self.counter = counter
        self.touchRequired = touchRequired
    }
}

/// One row of CALCULATE ALL: a credential and, when the applet computed one, its code.
public struct OATHCalculation: Sendable, Hashable {
    /// The credential the row is about.
    public var credential: OATHCredential
    /// `nil` for HOTP credentials and credentials that need touch (the applet computes those
    /// only with CALCULATE).
    public var code: OATHCode?

    /// A row of `credential` and its `code`, if any.
    public init(credential: OATHCredential, code: OATHCode?) {
        self.credential = credential
        self.code = code
    }
}

/// Dynamic truncation and code formatting (RFC 4226 §5.3).
public enum OATHTruncation {
    /// The 31-bit value of DT(HMAC): four bytes at the offset the low nibble of the last byte gives.
    /// `nil` for an HMAC under 20 bytes.
    public static func dynamicTruncate(_ hmac: [UInt8]) -> UInt32? {
        guard hmac.count >= 20, let last = hmac.last else { return nil }
        let offset = Int(last & 0x0F)
        guard offset + 4 <= hmac.count else { return nil }
        return truncated(Array(hmac[offset..<offset + 4]))
    }

    /// Four truncated bytes (as the applet's tag `76` holds them) as a 31-bit number.
    public static func truncated(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
    }

    /// `value mod 10^digits`, zero-padded (RFC 4226 §5.3 step 3).
    public static func code(_ value: UInt32, digits: Int) -> String {
        let clamped = min(max(digits, 1), 10)
        var modulus: UInt64 = 1
        for _ in 0..<clamped { modulus *= 10 }
        let text = String(UInt64(value) % modulus)
        return String(repeating: "0", count: max(clamped - text.count, 0)) + text
    }
}
