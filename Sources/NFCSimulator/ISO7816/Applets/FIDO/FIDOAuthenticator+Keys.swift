import Crypto
import Foundation

/// Key handles and credential IDs: AES-256-GCM over the private scalar, with the RP ID hash (the
/// U2F application parameter) as authenticated data, so only this card and only that RP can use
/// them. Layout: 12-byte nonce, 32-byte ciphertext, 16-byte tag (60 bytes).
extension FIDOAuthenticator {
    func wrap(_ privateKey: [UInt8], rpIDHash: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: wrappingKey)
        guard let sealed = try? AES.GCM.seal(privateKey, using: key, authenticating: rpIDHash),
            let combined = sealed.combined
        else { return [] }
        return Array(combined)
    }

    /// The private key a handle wraps, or `nil` for a handle not made by this card for that RP.
    func unwrap(_ handle: [UInt8], rpIDHash: [UInt8]) -> P256.Signing.PrivateKey? {
        guard handle.count == 60 else { return nil }
        let key = SymmetricKey(data: wrappingKey)
        guard let box = try? AES.GCM.SealedBox(combined: handle),
            let plain = try? AES.GCM.open(box, using: key, authenticating: rpIDHash)
        else { return nil }
        return try? P256.Signing.PrivateKey(rawRepresentation: plain)
    }

    /// An ECDSA P-256/SHA-256 signature in DER (X9.62), as U2F and WebAuthn carry it.
    static func sign(_ message: [UInt8], with key: P256.Signing.PrivateKey) -> [UInt8] {
        guard let signature = try? key.signature(for: message) else { return [] }
        return Array(signature.derRepresentation)
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// The 65-byte uncompressed point `04 || x || y`.
    static func uncompressedPoint(_ key: P256.Signing.PublicKey) -> [UInt8] {
        Array(key.x963Representation)
    }

    /// Compares without an early exit (MAC and PIN-hash checks).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Overwrites a secret buffer before it is released.
    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
        bytes.removeAll()
    }
}
