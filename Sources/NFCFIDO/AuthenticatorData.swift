import Crypto
import NFCCBOR

/// Authenticator data (WebAuthn §6.1, CTAP 2.1 §6.1): RP ID hash, flags, signature counter,
/// then attested credential data (flag AT) and extensions (flag ED).
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte (WebAuthn §6.1): UP bit 0, UV bit 2, AT bit 6, ED bit 7.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The flags byte as sent.
        public let rawValue: UInt8
        /// Flags from a byte; bits without a name here are kept.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP (`01`): the user was present (touched the key).
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV (`04`): the user was verified (PIN or built-in method).
        public static let userVerified = Flags(rawValue: 0x04)
        /// AT (`40`): attested credential data follows the counter.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED (`80`): an extensions map ends the data.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// Attested credential data: AAGUID, credential ID, COSE public key.
    public struct AttestedCredential: Sendable, Hashable {
        /// The authenticator's AAGUID, 16 bytes.
        public var aaguid: [UInt8]
        /// The credential ID (its length is the 2-byte big-endian field before it).
        public var credentialID: [UInt8]
        /// The credential's public key (only ES256 on P-256 is accepted).
        public var publicKey: COSEKey
    }

    /// The bytes as signed.
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID, 32 bytes (compare with ``matches(rpID:)``).
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: Flags
    /// The signature counter (bytes 33–36, big-endian).
    public let signatureCounter: UInt32
    /// The attested credential data when flag AT is set; `nil` otherwise.
    public let attestedCredential: AttestedCredential?
    /// The extensions CBOR item, as sent, when flag ED is set; `nil` otherwise.
    public let extensions: CBOR?

    /// Parses authenticator data, which must be used up exactly.
    /// - Throws: ``FIDOError`` `.malformedResponse` for fewer than 37 bytes, a truncated credential, trailing bytes or a
    ///   credential key that is not ES256 on P-256; `.invalidCBOR` when the credential key or extensions are not CBOR.
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
    /// The y coordinate, 32 bytes big-endian.
    public let y: [UInt8]

    /// Reads a COSE_Key map.
    /// - Throws: ``FIDOError`` `.malformedResponse` unless kty is 2, alg -7, crv 1, and x and y are 32 bytes each and
    ///   a point on P-256.
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

    /// The COSE key of a P-256 signing public key.
    public init(publicKey: P256.Signing.PublicKey) {
        let point = Array(publicKey.x963Representation)
        x = Array(point[1..<33])
        y = Array(point[33..<65])
    }

    /// The 65-byte uncompressed point `04 || x || y`.
    public var uncompressedPoint: [UInt8] { [0x04] + x + y }

    /// The key as a P-256 verification key.
    /// - Throws: ``FIDOError`` `.malformedResponse` when the point is not on P-256 (both initializers already check it).
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
