import Crypto
import Foundation

/// The encrypted pass data a phone returns to GET VAS DATA (tag `9F27`): Apple's VAS cryptogram,
/// as published reverse engineering describes it and docs/vas-protocol.md §7 records.
///
/// Layout: key id (4 bytes: the first 4 of SHA-256 over the merchant public key's X), the X of a
/// fresh P-256 key (32), AES-256-GCM ciphertext of timestamp ‖ message, the GCM tag (16). The key
/// is the ANSI X9.63 KDF (SHA-256) of the ECDH secret with the shared info
/// `0D` ‖ "id-aes256-GCM" ‖ "ApplePay encrypted VAS data" ‖ SHA-256(pass type identifier);
/// the IV is 16 zero bytes and there is no associated data (Apple's payment-token scheme, which
/// this mirrors: "Payment token format reference"). The timestamp counts seconds since
/// 2001-01-01 00:00:00 UTC, big-endian.
public enum VASCryptogram {
    /// What a decrypted cryptogram holds.
    public struct Contents: Sendable, Hashable {
        /// Seconds since 2001-01-01 00:00:00 UTC when the phone made it.
        public var timestamp: UInt32
        /// The pass's `nfc.message`.
        public var message: [UInt8]

        /// Contents from their parts.
        public init(timestamp: UInt32, message: [UInt8]) {
            self.timestamp = timestamp
            self.message = message
        }
    }

    /// Why a cryptogram could not be opened.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The byte count before the ciphertext: key id and the ephemeral X.
    static let headerCount = 4 + 32
    /// The GCM tag's byte count.
    static let tagCount = 16

    /// The 4-byte key id of a merchant key: SHA-256 over its X coordinate, first 4 bytes.
    public static func keyIdentifier(of merchant: P256.KeyAgreement.PublicKey) -> [UInt8] {
        Array(SHA256.hash(data: Array(merchant.rawRepresentation.prefix(32)))).prefix(4).map { $0 }
    }

    /// The KDF's shared info for a pass type identifier (73 bytes).
    public static func sharedInfo(passTypeIdentifier: String) -> [UInt8] {
        [0x0D] + Array("id-aes256-GCM".utf8) + Array("ApplePay encrypted VAS data".utf8)
            + Array(SHA256.hash(data: Array(passTypeIdentifier.utf8)))
    }

    /// The AES-256 key from the ECDH secret's X coordinate (`z`) and the pass type identifier:
    /// SHA-256(z ‖ 00000001 ‖ shared info), ANSI X9.63 with one block.
    public static func key(sharedSecret z: [UInt8], passTypeIdentifier: String) -> [UInt8] {
        Array(SHA256.hash(data: z + [0, 0, 0, 1] + sharedInfo(passTypeIdentifier: passTypeIdentifier)))
    }

    /// Encrypts `contents` for the merchant key, with `ephemeral` as the phone's one-time key.
    public static func seal(
        _ contents: Contents, passTypeIdentifier: String, merchant: P256.KeyAgreement.PublicKey,
        ephemeral: P256.KeyAgreement.PrivateKey
    ) throws -> [UInt8] {
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: merchant)
        let z = secret.withUnsafeBytes { Array($0) }
        let key = SymmetricKey(data: key(sharedSecret: z, passTypeIdentifier: passTypeIdentifier))
        let timestamp = withUnsafeBytes(of: contents.timestamp.bigEndian) { Array($0) }
        let sealed = try AES.GCM.seal(
            timestamp + contents.message, using: key, nonce: AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16)))
        return keyIdentifier(of: merchant) + Array(ephemeral.publicKey.rawRepresentation.prefix(32)) + Array(sealed.ciphertext)
            + Array(sealed.tag)
    }

    /// Decrypts a cryptogram with the merchant's private key, as a terminal app does.
    /// - Throws: ``Failure`` for a cryptogram too short, made for another key, or that does not authenticate.
    public static func open(_ cryptogram: [UInt8], passTypeIdentifier: String, merchant: P256.KeyAgreement.PrivateKey) throws(Failure)
        -> Contents
    {
        guard cryptogram.count >= headerCount + 4 + tagCount else {
            throw Failure("a cryptogram of \(cryptogram.count) bytes is shorter than its \(headerCount + 4 + tagCount)-byte minimum")
        }
        guard Array(cryptogram.prefix(4)) == keyIdentifier(of: merchant.publicKey) else {
            throw Failure(
                "the cryptogram's key id \(cryptogram.prefix(4).map { String(format: "%02X", $0) }.joined()) is not this merchant key's")
        }
        // Only the X of the shared point enters the key, so either Y parity gives the same secret.
        let ephemeral: P256.KeyAgreement.PublicKey
        let z: [UInt8]
        do {
            ephemeral = try P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + cryptogram[4..<headerCount])
            z = try merchant.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
        } catch {
            throw Failure("the ephemeral key is not a P-256 point: \(error)")
        }
        return try decrypt(cryptogram[headerCount...], key: key(sharedSecret: z, passTypeIdentifier: passTypeIdentifier))
    }

    /// Decrypts the part after the key id and the ephemeral X (ciphertext ‖ tag) with a derived key.
    /// - Throws: ``Failure`` when it is too short or does not authenticate.
    public static func decrypt(_ sealed: ArraySlice<UInt8>, key: [UInt8]) throws(Failure) -> Contents {
        guard sealed.count >= 4 + tagCount else { throw Failure("\(sealed.count) bytes cannot hold a timestamp and a GCM tag") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16)), ciphertext: sealed.dropLast(tagCount),
                tag: sealed.suffix(tagCount))
            let bytes = [UInt8](try AES.GCM.open(box, using: SymmetricKey(data: key)))
            let timestamp = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return Contents(timestamp: timestamp, message: Array(bytes.dropFirst(4)))
        } catch {
            throw Failure("the cryptogram does not authenticate with this merchant key and pass type identifier")
        }
    }
}
