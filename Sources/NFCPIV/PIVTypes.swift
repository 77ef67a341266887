import ISO7816

/// A key slot (key reference) of the PIV application (SP 800-73-4 Part 1 §3.1, Table 4b).
public enum PIVSlot: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `9A`: PIV authentication (PIN once).
    case authentication = 0x9A
    /// `9C`: digital signature (PIN before every use).
    case signature = 0x9C
    /// `9D`: key management (ECDH).
    case keyManagement = 0x9D
    /// `9E`: card authentication (no PIN).
    case cardAuthentication = 0x9E

    /// The data object holding the slot's X.509 certificate.
    public var certificateObject: PIVDataObject {
        switch self {
        case .authentication: .certificateAuthentication
        case .signature: .certificateSignature
        case .keyManagement: .certificateKeyManagement
        case .cardAuthentication: .certificateCardAuthentication
        }
    }

    /// Parses `9a`, `9A`, `0x9a`.
    public init?(text: String) {
        var digits = text.lowercased()
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        guard digits.count == 2, let value = UInt8(digits, radix: 16), let slot = PIVSlot(rawValue: value) else { return nil }
        self = slot
    }

    /// `9a`.
    public var hex: String { String(rawValue, radix: 16) }

    /// The hex reference and the slot's use, e.g. `9a (PIV authentication)`.
    public var description: String {
        switch self {
        case .authentication: "9a (PIV authentication)"
        case .signature: "9c (digital signature)"
        case .keyManagement: "9d (key management)"
        case .cardAuthentication: "9e (card authentication)"
        }
    }
}

/// A PIV data object, by tag (SP 800-73-4 Part 1 Table 3).
public struct PIVDataObject: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The BER-TLV tag, 1–3 bytes (`0x5FC102`).
    public var rawValue: UInt32
    /// The object with BER-TLV tag `rawValue` (its bytes read big-endian); any tag is accepted.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `5FC107`: the Card Capability Container.
    public static let cardCapabilityContainer = PIVDataObject(rawValue: 0x5FC107)
    /// `5FC102`: the Card Holder Unique Identifier.
    public static let chuid = PIVDataObject(rawValue: 0x5FC102)
    /// `7E`: the discovery object.
    public static let discovery = PIVDataObject(rawValue: 0x7E)
    /// `5FC105`: the X.509 certificate for PIV authentication (slot `9A`).
    public static let certificateAuthentication = PIVDataObject(rawValue: 0x5FC105)
    /// `5FC10A`: the X.509 certificate for digital signature (slot `9C`).
    public static let certificateSignature = PIVDataObject(rawValue: 0x5FC10A)
    /// `5FC10B`: the X.509 certificate for key management (slot `9D`).
    public static let certificateKeyManagement = PIVDataObject(rawValue: 0x5FC10B)
    /// `5FC101`: the X.509 certificate for card authentication (slot `9E`).
    public static let certificateCardAuthentication = PIVDataObject(rawValue: 0x5FC101)

    /// The tag's bytes, as sent in `5C`.
    public var tagBytes: [UInt8] { BERTLV.tagBytes(rawValue) }

    /// The tag in upper-case hex, e.g. `5FC102`.
    public var description: String { BERTLV.hex(rawValue) }
}

/// Cryptographic algorithm identifiers (SP 800-78-4 Table 6-2).
public enum PIVAlgorithm: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// `03`: three-key Triple DES (a 24-byte administration key).
    case tripleDES = 0x03
    /// `08`: AES-128 (a 16-byte administration key).
    case aes128 = 0x08
    /// `0A`: AES-192 (a 24-byte administration key).
    case aes192 = 0x0A
    /// `0C`: AES-256 (a 32-byte administration key).
    case aes256 = 0x0C
    /// `06`: RSA with a 1024-bit modulus.
    case rsa1024 = 0x06
    /// `07`: RSA with a 2048-bit modulus.
    case rsa2048 = 0x07
    /// `11`: ECDSA/ECDH on curve P-256.
    case eccP256 = 0x11
    /// `14`: ECDSA/ECDH on curve P-384.
    case eccP384 = 0x14

    /// The algorithm's usual name, e.g. `AES-128`, `ECC P-256`.
    public var description: String {
        switch self {
        case .tripleDES: "3DES"
        case .aes128: "AES-128"
        case .aes192: "AES-192"
        case .aes256: "AES-256"
        case .rsa1024: "RSA-1024"
        case .rsa2048: "RSA-2048"
        case .eccP256: "ECC P-256"
        case .eccP384: "ECC P-384"
        }
    }

    /// The key length of a symmetric administration key algorithm.
    public var managementKeyLength: Int? {
        switch self {
        case .tripleDES: 24
        case .aes128: 16
        case .aes192: 24
        case .aes256: 32
        default: nil
        }
    }
}

/// A slot's PIN policy as GENERATE ASYMMETRIC KEY PAIR's YubiKey extension tag `AA` sets it.
public enum PIVPINPolicy: UInt8, Sendable, Hashable {
    /// The card's default for the slot.
    case `default` = 0x00
    /// The slot's key is used without the PIN.
    case never = 0x01
    /// The PIN is verified once per session.
    case once = 0x02
    /// The PIN is verified before every use of the key.
    case always = 0x03
}
