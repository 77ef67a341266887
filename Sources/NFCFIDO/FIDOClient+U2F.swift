import Crypto
import ISO7816

/// U2F raw messages over NFC (FIDO U2F Raw Message Formats §4–§6, U2F NFC Protocol §5).
extension FIDOClient {
    /// How AUTHENTICATE treats user presence (§5.1, P1).
    public enum U2FAuthenticateMode: UInt8, Sendable {
        /// `07`: only check whether the key handle is the authenticator's; nothing is signed.
        case checkOnly = 0x07
        /// `03`: sign only after a test of user presence.
        case enforceUserPresence = 0x03
        /// `08`: sign without a test of user presence.
        case dontEnforceUserPresence = 0x08
    }

    /// VERSION: "U2F_V2".
    public func u2fVersion() async throws -> String {
        let response = try await transmitter.send(CommandAPDU(ins: 0x03, expectedLength: 256))
        guard response.statusWord == .success else { throw FIDOError.unexpectedStatus(response.statusWord, command: "U2F VERSION") }
        return String(decoding: response.data, as: UTF8.self)
    }

    /// REGISTER with a 32-byte challenge parameter and application parameter.
    public func u2fRegister(challenge: [UInt8], application: [UInt8]) async throws -> U2FRegistration {
        guard challenge.count == 32, application.count == 32 else {
            throw FIDOError.invalidRequest("U2F challenge and application parameters have 32 bytes each")
        }
        let response = try await transmitter.send(CommandAPDU(ins: 0x01, p1: 0x03, data: challenge + application, expectedLength: 65_536))
        guard response.statusWord == .success else { throw FIDOError.unexpectedStatus(response.statusWord, command: "U2F REGISTER") }
        return try U2FRegistration(parsing: response.data)
    }

    /// AUTHENTICATE. With ``U2FAuthenticateMode/checkOnly`` the answer is `nil` and the key handle
    /// is known (the card answers `6985`); an unknown handle throws `.unexpectedStatus(6A80)`.
    public func u2fAuthenticate(
        challenge: [UInt8], application: [UInt8], keyHandle: [UInt8], mode: U2FAuthenticateMode = .enforceUserPresence
    ) async throws -> U2FAuthentication? {
        guard challenge.count == 32, application.count == 32, (1...255).contains(keyHandle.count) else {
            throw FIDOError.invalidRequest("U2F parameters have 32 bytes and a key handle 1–255")
        }
        let response = try await transmitter.send(
            CommandAPDU(
                ins: 0x02, p1: mode.rawValue, data: challenge + application + [UInt8(keyHandle.count)] + keyHandle, expectedLength: 256))
        if mode == .checkOnly, response.statusWord == .conditionsNotSatisfied { return nil }
        guard response.statusWord == .success else { throw FIDOError.unexpectedStatus(response.statusWord, command: "U2F AUTHENTICATE") }
        return try U2FAuthentication(parsing: response.data)
    }
}

/// A REGISTER answer (Raw Message Formats §4.3): `05`, the 65-byte public key, the key handle,
/// the attestation certificate (its length from its DER header) and the attestation signature.
public struct U2FRegistration: Sendable, Hashable {
    /// The user public key: an uncompressed P-256 point `04 || x || y`, 65 bytes.
    public let publicKey: [UInt8]
    /// The key handle to give AUTHENTICATE (its length is the byte after the public key).
    public let keyHandle: [UInt8]
    /// The attestation certificate, DER.
    public let certificate: [UInt8]
    /// The attestation signature: every byte after the certificate (DER ECDSA).
    public let signature: [UInt8]

    /// Parses REGISTER's response data (the status word removed).
    /// - Throws: ``FIDOError`` `.malformedResponse` when it does not start with `05`, the key is not an uncompressed
    ///   point, or the key handle, certificate or signature is cut short or missing.
    public init(parsing data: [UInt8]) throws(FIDOError) {
        guard data.count > 67, data[0] == 0x05 else {
            throw .malformedResponse(field: "registration.reserved", reason: "a registration starts with 05 and a 65-byte key")
        }
        publicKey = Array(data[1..<66])
        guard publicKey[0] == 0x04 else { throw .malformedResponse(field: "registration.publicKey", reason: "not an uncompressed point") }
        let handleLength = Int(data[66])
        let certificateStart = 67 + handleLength
        guard data.count > certificateStart else { throw .malformedResponse(field: "registration.keyHandle", reason: "truncated") }
        keyHandle = Array(data[67..<certificateStart])
        let total = try DERFraming.elementLength(data, at: certificateStart, field: "registration.certificate")
        guard certificateStart + total < data.count else {
            throw .malformedResponse(field: "registration.signature", reason: "missing after the certificate")
        }
        certificate = Array(data[certificateStart..<(certificateStart + total)])
        signature = Array(data[(certificateStart + total)...])
    }

    /// Verifies the attestation signature over `00 || application || challenge || keyHandle ||
    /// publicKey` with the certificate's key.
    public func verify(challenge: [UInt8], application: [UInt8]) throws(FIDOError) {
        let key = try AttestationCertificate.publicKey(certificate)
        let signed = [0x00] + application + challenge + keyHandle + publicKey
        try ES256.verify(signature: signature, message: signed, key: key, what: "U2F registration signature")
    }
}

/// An AUTHENTICATE answer (§5.4): user presence byte, counter, signature.
public struct U2FAuthentication: Sendable, Hashable {
    /// The user presence byte (bit 0 set: the user was present).
    public let userPresence: UInt8
    /// The authenticator's counter (4 bytes big-endian in the answer).
    public let counter: UInt32
    /// The DER ECDSA signature: every byte after the counter.
    public let signature: [UInt8]

    /// Parses AUTHENTICATE's response data (the status word removed).
    /// - Throws: ``FIDOError`` `.malformedResponse` for 5 bytes or fewer (no signature).
    public init(parsing data: [UInt8]) throws(FIDOError) {
        guard data.count > 5 else { throw .malformedResponse(field: "authentication", reason: "shorter than flags + counter + signature") }
        userPresence = data[0]
        counter = data[1...4].reduce(0) { $0 << 8 | UInt32($1) }
        signature = Array(data[5...])
    }

    /// Verifies the signature over `application || presence || counter || challenge` with the
    /// 65-byte public key from registration.
    public func verify(publicKey: [UInt8], challenge: [UInt8], application: [UInt8]) throws(FIDOError) {
        guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey) else {
            throw .invalidRequest("not a P-256 public key")
        }
        let counterBytes = (0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * UInt32($0))) }
        try ES256.verify(
            signature: signature, message: application + [userPresence] + counterBytes + challenge, key: key,
            what: "U2F authentication signature")
    }
}
