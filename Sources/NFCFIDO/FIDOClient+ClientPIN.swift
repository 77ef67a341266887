import Crypto
import Foundation
import NFCCBOR
import _CryptoExtras

/// A pinUvAuthToken (CTAP 2.1 §6.5.2). The bytes never leave this object except as MACs, and
/// are overwritten when it is released.
public final class PinUvAuthToken: @unchecked Sendable {
    // Written once at init and wiped in deinit; never shared mutably.
    private var bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    deinit {
        for index in bytes.indices { bytes[index] = 0 }
    }

    /// pinUvAuthParam for protocol 2: HMAC-SHA-256(token, message), all 32 bytes (§6.5.7).
    public func authenticate(_ message: [UInt8]) -> [UInt8] {
        PinProtocolTwo.authenticate(key: bytes, message: message)
    }
}

/// Permissions of getPinUvAuthTokenUsingPinWithPermissions (CTAP 2.1 §6.5.5.7).
public struct PinUvAuthPermissions: OptionSet, Sendable, Hashable {
    /// The permissions byte as sent.
    public let rawValue: UInt8
    /// Permissions from a byte; bits without a name here are kept.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `01` (mc): authenticatorMakeCredential.
    public static let makeCredential = PinUvAuthPermissions(rawValue: 0x01)
    /// `02` (ga): authenticatorGetAssertion.
    public static let getAssertion = PinUvAuthPermissions(rawValue: 0x02)
    /// `04` (cm): authenticatorCredentialManagement.
    public static let credentialManagement = PinUvAuthPermissions(rawValue: 0x04)
}

/// PIN/UV auth protocol 2 (CTAP 2.1 §6.5.7): the platform's side.
enum PinProtocolTwo {
    /// The result of encapsulate: the platform key to send and the two derived keys.
    struct Session {
        var platformKey: CBOR
        var hmacKey: [UInt8]
        var aesKey: [UInt8]
        mutating func wipe() {
            for index in hmacKey.indices { hmacKey[index] = 0 }
            for index in aesKey.indices { aesKey[index] = 0 }
        }
    }

    /// ECDH with the authenticator's COSE key (kty 2, alg -25, crv 1), Z = x coordinate, then
    /// HKDF-SHA-256 (salt 32 zero bytes) with "CTAP2 HMAC key" and "CTAP2 AES key".
    static func encapsulate(_ authenticatorKey: CBOR) throws(FIDOError) -> Session {
        guard authenticatorKey[1]?.intValue == 2, authenticatorKey[-1]?.intValue == 1,
            let x = authenticatorKey[-2]?.bytesValue, let y = authenticatorKey[-3]?.bytesValue,
            x.count == 32, y.count == 32,
            let peer = try? P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
        else { throw .malformedResponse(field: "clientPIN.keyAgreement", reason: "not a P-256 COSE key") }
        let ours = P256.KeyAgreement.PrivateKey()
        guard let shared = try? ours.sharedSecretFromKeyAgreement(with: peer) else {
            throw .malformedResponse(field: "clientPIN.keyAgreement", reason: "ECDH failed")
        }
        let salt = [UInt8](repeating: 0, count: 32)
        func derive(_ info: String) -> [UInt8] {
            shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Array(info.utf8), outputByteCount: 32)
                .withUnsafeBytes { Array($0) }
        }
        let point = Array(ours.publicKey.x963Representation)
        let platformKey: CBOR = .map([
            .int(1): 2, .int(3): -25, .int(-1): 1,
            .int(-2): .bytes(Array(point[1..<33])), .int(-3): .bytes(Array(point[33..<65])),
        ])
        return Session(platformKey: platformKey, hmacKey: derive("CTAP2 HMAC key"), aesKey: derive("CTAP2 AES key"))
    }

    /// AES-256-CBC with a random IV, sent as IV || ciphertext.
    static func encrypt(key: [UInt8], _ plaintext: [UInt8]) throws(FIDOError) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in iv.indices { iv[index] = UInt8.random(in: .min ... .max, using: &generator) }
        guard let cbcIV = try? AES._CBC.IV(ivBytes: iv),
            let sealed = try? AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: cbcIV, noPadding: true)
        else { throw .invalidRequest("AES-CBC needs a multiple of 16 bytes") }
        return iv + Array(sealed)
    }

    static func decrypt(key: [UInt8], _ message: [UInt8]) throws(FIDOError) -> [UInt8] {
        guard message.count >= 32, message.count % 16 == 0,
            let iv = try? AES._CBC.IV(ivBytes: message.prefix(16)),
            let plain = try? AES._CBC.decrypt(message.dropFirst(16), using: SymmetricKey(data: key), iv: iv, noPadding: true)
        else { throw .malformedResponse(field: "clientPIN.ciphertext", reason: "not IV + whole AES blocks") }
        return Array(plain)
    }

    /// HMAC-SHA-256 — protocol 2 keeps all 32 bytes (protocol 1 truncates to 16).
    static func authenticate(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}

/// authenticatorClientPIN (0x06) with protocol 2.
extension FIDOClient {
    /// getPINRetries (0x01).
    public func getPINRetries() async throws -> Int {
        let answer = try await ctap2Map(0x06, .map([.int(1): 2, .int(2): 1]), name: "clientPIN.getPINRetries")
        guard let retries = answer[3]?.intValue else { throw FIDOError.malformedResponse(field: "clientPIN.pinRetries", reason: "missing") }
        return retries
    }

    /// getKeyAgreement (0x02) and encapsulate.
    func pinSession() async throws -> PinProtocolTwo.Session {
        let answer = try await ctap2Map(0x06, .map([.int(1): 2, .int(2): 2]), name: "clientPIN.getKeyAgreement")
        guard let key = answer[1] else { throw FIDOError.malformedResponse(field: "clientPIN.keyAgreement", reason: "missing") }
        return try PinProtocolTwo.encapsulate(key)
    }

    /// The PIN as UTF-8, 4–63 bytes and at least 4 code points (§6.5.1).
    static func pinBytes(_ pin: String) throws(FIDOError) -> [UInt8] {
        let bytes = Array(pin.utf8)
        guard pin.count >= 4, bytes.count <= 63 else { throw .invalidRequest("a PIN has at least 4 characters and at most 63 bytes") }
        return bytes
    }

    /// setPIN (0x03): newPinEnc = enc(PIN padded to 64 bytes), pinUvAuthParam = auth(newPinEnc).
    public func setPIN(_ pin: String) async throws {
        var padded = try Self.pinBytes(pin)
        padded += [UInt8](repeating: 0, count: 64 - padded.count)
        defer { for index in padded.indices { padded[index] = 0 } }
        var session = try await pinSession()
        defer { session.wipe() }
        let newPinEnc = try PinProtocolTwo.encrypt(key: session.aesKey, padded)
        _ = try await ctap2(
            0x06,
            .map([
                .int(1): 2, .int(2): 3, .int(3): session.platformKey,
                .int(4): .bytes(PinProtocolTwo.authenticate(key: session.hmacKey, message: newPinEnc)),
                .int(5): .bytes(newPinEnc),
            ]), name: "clientPIN.setPIN")
    }

    /// changePIN (0x04).
    public func changePIN(from oldPIN: String, to newPIN: String) async throws {
        var padded = try Self.pinBytes(newPIN)
        padded += [UInt8](repeating: 0, count: 64 - padded.count)
        var oldHash = Array(SHA256.hash(data: try Self.pinBytes(oldPIN)).prefix(16))
        defer {
            for index in padded.indices { padded[index] = 0 }
            for index in oldHash.indices { oldHash[index] = 0 }
        }
        var session = try await pinSession()
        defer { session.wipe() }
        let newPinEnc = try PinProtocolTwo.encrypt(key: session.aesKey, padded)
        let pinHashEnc = try PinProtocolTwo.encrypt(key: session.aesKey, oldHash)
        _ = try await ctap2(
            0x06,
            .map([
                .int(1): 2, .int(2): 4, .int(3): session.platformKey,
                .int(4): .bytes(PinProtocolTwo.authenticate(key: session.hmacKey, message: newPinEnc + pinHashEnc)),
                .int(5): .bytes(newPinEnc), .int(6): .bytes(pinHashEnc),
            ]), name: "clientPIN.changePIN")
    }

    /// getPinToken (0x05) when `permissions` is `nil`, else
    /// getPinUvAuthTokenUsingPinWithPermissions (0x09) bound to `rpID`.
    /// - Throws: ``FIDOError/ctap2(_:command:)`` with `CTAP2_ERR_PIN_INVALID`,
    ///   `CTAP2_ERR_PIN_AUTH_BLOCKED`, `CTAP2_ERR_PIN_BLOCKED`, `CTAP2_ERR_PIN_NOT_SET`.
    public func getPinUvAuthToken(pin: String, permissions: PinUvAuthPermissions? = nil, rpID: String? = nil) async throws -> PinUvAuthToken
    {
        var pinHash = Array(SHA256.hash(data: try Self.pinBytes(pin)).prefix(16))
        defer { for index in pinHash.indices { pinHash[index] = 0 } }
        var session = try await pinSession()
        defer { session.wipe() }
        var parameters: [CBOR: CBOR] = [
            .int(1): 2, .int(2): permissions == nil ? 5 : 9, .int(3): session.platformKey,
            .int(6): .bytes(try PinProtocolTwo.encrypt(key: session.aesKey, pinHash)),
        ]
        if let permissions { parameters[.int(9)] = .int(Int(permissions.rawValue)) }
        if let rpID { parameters[.int(10)] = .text(rpID) }
        let answer = try await ctap2Map(0x06, .map(parameters), name: "clientPIN.getPinUvAuthToken")
        guard let encrypted = answer[2]?.bytesValue else {
            throw FIDOError.malformedResponse(field: "clientPIN.pinUvAuthToken", reason: "missing")
        }
        var token = try PinProtocolTwo.decrypt(key: session.aesKey, encrypted)
        defer { for index in token.indices { token[index] = 0 } }
        guard token.count == 32 else {
            throw FIDOError.malformedResponse(field: "clientPIN.pinUvAuthToken", reason: "\(token.count) bytes, 32 expected")
        }
        return PinUvAuthToken(bytes: token)
    }
}
