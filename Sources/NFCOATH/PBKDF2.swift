import Crypto
import _CryptoExtras

/// PBKDF2 with HMAC-SHA1 as the pseudorandom function (RFC 8018 §5.2): swift-crypto's
/// `KDF.Insecure.PBKDF2` (BoringSSL's `PKCS5_PBKDF2_HMAC`).
enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
    ///
    /// The YKOATH protocol fixes 1000 rounds of SHA-1 for the access key (every YubiKey client
    /// derives the same key), below swift-crypto's checked minimum: hence `unsafeUncheckedRounds`.
    /// - Throws: ``OATHError/Code-swift.struct/invalidArgument`` when swift-crypto refuses the
    ///   parameters (it does only for a length or count it cannot produce).
    static func sha1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws(OATHError) -> [UInt8] {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .insecureSHA1, outputByteCount: length, unsafeUncheckedRounds: iterations)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw OATHError.invalidArgument(field: "password", "PBKDF2 failed: \(error)")
        }
    }
}
