import Crypto
import Foundation
import NFCCBOR
import _CryptoExtras

/// authenticatorClientPIN with PIN/UV auth protocol 2 (CTAP 2.1 §6.5): ECDH P-256, HKDF-SHA-256
/// for an HMAC key and an AES key, AES-256-CBC with a random IV, HMAC-SHA-256 (full 32 bytes).
extension FIDOAuthenticator {
    /// The two keys of protocol 2 (§6.5.7): HMAC key then AES key.
    struct SharedSecret {
        var hmacKey: [UInt8]
        var aesKey: [UInt8]
        mutating func wipe() {
            FIDOAuthenticator.wipe(&hmacKey)
            FIDOAuthenticator.wipe(&aesKey)
        }
    }

    mutating func clientPIN(_ p: CBOR) throws -> (CBOR?, Bool) {
        guard let pinProtocol = p[1] else { throw CTAP2Failure(.missingParameter) }
        guard pinProtocol.intValue == 2 else { throw CTAP2Failure(.invalidParameter) }
        let subCommand = try Self.required(p[2]?.intValue, p[2])
        switch subCommand {
        case 0x01:
            return (.map([.int(3): .int(pinRetries), .int(4): false]), false)
        case 0x02:
            let point = Array(keyAgreementKey.publicKey.x963Representation)
            return (
                .map([
                    .int(1): .map([
                        .int(1): 2, .int(3): -25, .int(-1): 1,
                        .int(-2): .bytes(Array(point[1..<33])), .int(-3): .bytes(Array(point[33..<65])),
                    ])
                ]), false
            )
        case 0x03:
            guard pinHash == nil else { throw CTAP2Failure(.pinAuthInvalid) }
            var secret = try sharedSecret(p[3])
            defer { secret.wipe() }
            let newPinEnc = try Self.required(p[5]?.bytesValue, p[5])
            let param = try Self.required(p[4]?.bytesValue, p[4])
            guard Self.constantTimeEqual(Self.hmac(secret.hmacKey, newPinEnc), param) else { throw CTAP2Failure(.pinAuthInvalid) }
            try storeNewPIN(newPinEnc, secret: secret)
            return (nil, true)
        case 0x04:
            guard pinHash != nil else { throw CTAP2Failure(.pinNotSet) }
            var secret = try sharedSecret(p[3])
            defer { secret.wipe() }
            let newPinEnc = try Self.required(p[5]?.bytesValue, p[5])
            let pinHashEnc = try Self.required(p[6]?.bytesValue, p[6])
            let param = try Self.required(p[4]?.bytesValue, p[4])
            guard Self.constantTimeEqual(Self.hmac(secret.hmacKey, newPinEnc + pinHashEnc), param) else {
                throw CTAP2Failure(.pinAuthInvalid)
            }
            try verifyPINHash(pinHashEnc, secret: secret)
            try storeNewPIN(newPinEnc, secret: secret)
            return (nil, true)
        case 0x05, 0x09:
            guard pinHash != nil else { throw CTAP2Failure(.pinNotSet) }
            var permissions: UInt8 = 0x03
            var rpID: String?
            if subCommand == 0x09 {
                let requested = try Self.required(p[9]?.intValue, p[9])
                guard requested > 0, requested <= 0xFF else { throw CTAP2Failure(.invalidParameter) }
                // Only mc (01) and ga (02) are offered (no credential management, no bio).
                guard requested & ~0x03 == 0 else { throw CTAP2Failure(.unauthorizedPermission) }
                permissions = UInt8(requested)
                rpID = p[10]?.textValue
                if rpID == nil { throw CTAP2Failure(.missingParameter) }
            }
            var secret = try sharedSecret(p[3])
            defer { secret.wipe() }
            let pinHashEnc = try Self.required(p[6]?.bytesValue, p[6])
            try verifyPINHash(pinHashEnc, secret: secret)
            regenerateToken()
            tokenPermissions = permissions
            tokenRPID = rpID
            let encrypted = try Self.encrypt(secret.aesKey, pinUvAuthToken)
            return (.map([.int(2): .bytes(encrypted)]), true)
        default:
            throw CTAP2Failure(.invalidSubcommand)
        }
    }

    /// §6.5.5.5 steps: retries are spent before the check; a wrong hash makes a new key agreement
    /// key; three wrong in a row block until power cycle; none left blocks for good.
    mutating func verifyPINHash(_ pinHashEnc: [UInt8], secret: SharedSecret) throws {
        guard let stored = pinHash else { throw CTAP2Failure(.pinNotSet) }
        guard pinRetries > 0 else { throw CTAP2Failure(.pinBlocked) }
        guard consecutivePINFailures < 3 else { throw CTAP2Failure(.pinAuthBlocked) }
        pinRetries -= 1
        var given = try Self.decrypt(secret.aesKey, pinHashEnc)
        defer { Self.wipe(&given) }
        guard Self.constantTimeEqual(given, stored) else {
            keyAgreementKey = P256.KeyAgreement.PrivateKey()
            consecutivePINFailures += 1
            if pinRetries == 0 { throw CTAP2Failure(.pinBlocked, wroteMemory: true) }
            if consecutivePINFailures >= 3 { throw CTAP2Failure(.pinAuthBlocked, wroteMemory: true) }
            throw CTAP2Failure(.pinInvalid, wroteMemory: true)
        }
        pinRetries = Self.maximumPINRetries
        consecutivePINFailures = 0
    }

    /// Decrypts a 64-byte padded PIN; at least 4 code points, at most 63 bytes (§6.5.5.5).
    mutating func storeNewPIN(_ newPinEnc: [UInt8], secret: SharedSecret) throws {
        guard newPinEnc.count == 16 + 64 else { throw CTAP2Failure(.invalidParameter) }
        var padded = try Self.decrypt(secret.aesKey, newPinEnc)
        defer { Self.wipe(&padded) }
        var pin = Array(padded.prefix { $0 != 0 })
        defer { Self.wipe(&pin) }
        guard let text = String(validating: pin, as: UTF8.self), text.count >= 4, pin.count <= 63 else {
            throw CTAP2Failure(.pinPolicyViolation)
        }
        pinHash = Array(Self.sha256(pin).prefix(16))
        pinRetries = Self.maximumPINRetries
        consecutivePINFailures = 0
    }

    /// ECDH with the platform's COSE key (§6.5.7 decapsulate): Z = the x coordinate, then
    /// HKDF-SHA-256 with 32 zero bytes of salt and the infos "CTAP2 HMAC key" / "CTAP2 AES key".
    func sharedSecret(_ platformKey: CBOR?) throws -> SharedSecret {
        guard let platformKey else { throw CTAP2Failure(.missingParameter) }
        guard platformKey[1]?.intValue == 2, platformKey[-1]?.intValue == 1,
            let x = platformKey[-2]?.bytesValue, let y = platformKey[-3]?.bytesValue, x.count == 32, y.count == 32,
            let peer = try? P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y),
            let shared = try? keyAgreementKey.sharedSecretFromKeyAgreement(with: peer)
        else { throw CTAP2Failure(.invalidParameter) }
        let salt = [UInt8](repeating: 0, count: 32)
        func derive(_ info: String) -> [UInt8] {
            shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Array(info.utf8), outputByteCount: 32)
                .withUnsafeBytes { Array($0) }
        }
        return SharedSecret(hmacKey: derive("CTAP2 HMAC key"), aesKey: derive("CTAP2 AES key"))
    }

    /// §6.1.2 step 11 / §6.2.2 step 6: checks pinUvAuthParam = HMAC(token, clientDataHash) and
    /// the token's permission and RP binding; returns whether the user was verified.
    mutating func checkPinUvAuth(_ param: CBOR?, protocol pinProtocol: CBOR?, clientDataHash: [UInt8], permission: UInt8, rpID: String)
        throws -> Bool
    {
        guard let param else {
            if hasPIN && permission == 0x01 { throw CTAP2Failure(.puatRequired) }
            return false
        }
        guard let value = param.bytesValue else { throw CTAP2Failure(.cborUnexpectedType) }
        // A zero-length param is a platform asking for a touch (§6.1.2 step 1).
        if value.isEmpty { throw CTAP2Failure(hasPIN ? .pinInvalid : .pinNotSet) }
        guard let pinProtocol else { throw CTAP2Failure(.missingParameter) }
        guard pinProtocol.intValue == 2 else { throw CTAP2Failure(.invalidParameter) }
        guard hasPIN else { throw CTAP2Failure(.pinNotSet) }
        guard Self.constantTimeEqual(Self.hmac(pinUvAuthToken, clientDataHash), value),
            tokenPermissions & permission != 0
        else { throw CTAP2Failure(.pinAuthInvalid) }
        if let bound = tokenRPID, bound != rpID { throw CTAP2Failure(.pinAuthInvalid) }
        tokenRPID = rpID
        return true
    }

    static func hmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// AES-256-CBC, no padding, a random IV sent in front (§6.5.7 encrypt).
    static func encrypt(_ key: [UInt8], _ plaintext: [UInt8]) throws -> [UInt8] {
        let ivBytes = randomBytes(16)
        guard let iv = try? AES._CBC.IV(ivBytes: ivBytes),
            let sealed = try? AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: iv, noPadding: true)
        else { throw CTAP2Failure(.invalidParameter) }
        return ivBytes + Array(sealed)
    }

    static func decrypt(_ key: [UInt8], _ message: [UInt8]) throws -> [UInt8] {
        guard message.count >= 32, message.count % 16 == 0,
            let iv = try? AES._CBC.IV(ivBytes: message.prefix(16)),
            let plain = try? AES._CBC.decrypt(message.dropFirst(16), using: SymmetricKey(data: key), iv: iv, noPadding: true)
        else { throw CTAP2Failure(.invalidParameter) }
        return Array(plain)
    }
}
