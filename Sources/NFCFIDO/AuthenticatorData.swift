import Crypto
import NFCCBOR

/// Authenticator data (WebAuthn §6.1, CTAP 2.1 §6.1): RP ID hash, flags, signature counter,
/// then attested credential data (flag AT) and extensions (flag ED).
public struct AuthenticatorData: Sendable, Hashable {
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// Attested credential data: AAGUID, credential ID, COSE public key.
    public struct AttestedCredential: Sendable, Hashable {
        public var aaguid: [UInt8]
        public var credentialID: [UInt8]
        public var publicKey: COSEKey
    }

    /// The bytes as signed.
    public let bytes: [UInt8]
    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signatureCounter: UInt32
    public let attestedCredential: AttestedCredential?
    public let extensions: CBOR?

    public init(parsing bytes: [UInt8]) throws(FIDOError) {
        self.bytes = bytes
        guard bytes.count >= 37 else { throw .malformedResponse(field: "authData", reason: "\(bytes.count) bytes, at least 37 expected") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signatureCounter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else {
                throw .malformedResponse(field: "authData.attestedCredentialData", reason: "truncated")
            }
            let aaguid = Array(bytes[offset..<(offset + 16)])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard bytes.count >= offset + length else { throw .malformedResponse(field: "authData.credentialId", reason: "truncated") }
            let credentialID = Array(bytes[offset..<(offset + length)])
            offset += length
            let decoded: (item: CBOR, length: Int)
            do {
                decoded = try CBORDecoder().decodePrefix(Array(bytes[offset...]))
            } catch {
                throw .invalidCBOR(error, command: "authData.credentialPublicKey")
            }
            offset += decoded.length
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(decoded.item))
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            do {
                let decoded = try CBORDecoder().decodePrefix(Array(bytes[offset...]))
                extensions = decoded.item
                offset += decoded.length
            } catch {
                throw .invalidCBOR(error, command: "authData.extensions")
            }
        } else {
            extensions = nil
        }
        guard offset == bytes.count else { throw .malformedResponse(field: "authData", reason: "\(bytes.count - offset) trailing byte(s)") }
    }

    /// Whether the RP ID hash is SHA-256 of `rpID`.
    public func matches(rpID: String) -> Bool {
        rpIDHash == Array(SHA256.hash(data: Array(rpID.utf8)))
    }
}

/// An ES256 COSE key (RFC 9052 §7, RFC 9053 §2.1: kty 2 EC2, alg -7, crv 1 P-256, x, y).
public struct COSEKey: Sendable, Hashable {
    /// 32 bytes each.
    public let x: [UInt8]
    public let y: [UInt8]

    public init(_ map: CBOR) throws(FIDOError) {
        guard map[1]?.intValue == 2 else { throw .malformedResponse(field: "coseKey.kty", reason: "not EC2 (2)") }
        guard map[3]?.intValue == -7 else { throw .malformedResponse(field: "coseKey.alg", reason: "not ES256 (-7)") }
        guard map[-1]?.intValue == 1 else { throw .malformedResponse(field: "coseKey.crv", reason: "not P-256 (1)") }
        guard let x = map[-2]?.bytesValue, let y = map[-3]?.bytesValue, x.count == 32, y.count == 32 else {
            throw .malformedResponse(field: "coseKey.x/y", reason: "missing or not 32 bytes")
        }
        guard (try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)) != nil else {
            throw .malformedResponse(field: "coseKey", reason: "not a point on P-256")
        }
        self.x = x
        self.y = y
    }

    public init(publicKey: P256.Signing.PublicKey) {
        let point = Array(publicKey.x963Representation)
        x = Array(point[1..<33])
        y = Array(point[33..<65])
    }

    /// The 65-byte uncompressed point `04 || x || y`.
    public var uncompressedPoint: [UInt8] { [0x04] + x + y }

    public var publicKey: P256.Signing.PublicKey {
        get throws(FIDOError) {
            guard let key = try? P256.Signing.PublicKey(x963Representation: uncompressedPoint) else {
                throw .malformedResponse(field: "coseKey", reason: "not a point on P-256")
            }
            return key
        }
    }

    /// The COSE map, as CTAP2 encodes it.
    public var cbor: CBOR {
        .map([.int(1): 2, .int(3): -7, .int(-1): 1, .int(-2): .bytes(x), .int(-3): .bytes(y)])
    }
}
