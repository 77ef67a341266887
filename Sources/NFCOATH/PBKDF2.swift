import Crypto

/// PBKDF2 with HMAC-SHA1 as the pseudorandom function (RFC 8018 §5.2), over swift-crypto's HMAC.
enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
    static func sha1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        let key = SymmetricKey(data: password)
        let hashLength = Insecure.SHA1.byteCount
        let blocks = (length + hashLength - 1) / hashLength
        var derived: [UInt8] = []
        derived.reserveCapacity(blocks * hashLength)
        for block in 1...max(blocks, 1) {
            // U1 = PRF(P, S || INT(i)); Ui = PRF(P, Ui-1); T = U1 ^ … ^ Uc
            let index: [UInt8] = [UInt8(truncatingIfNeeded: block >> 24), UInt8(truncatingIfNeeded: block >> 16),
                                  UInt8(truncatingIfNeeded: block >> 8), UInt8(truncatingIfNeeded: block)]
            var u = Array(HMAC<Insecure.SHA1>.authenticationCode(for: salt + index, using: key))
            var t = u
            if iterations > 1 {
                for _ in 2...iterations {
                    u = Array(HMAC<Insecure.SHA1>.authenticationCode(for: u, using: key))
                    for i in t.indices { t[i] ^= u[i] }
                }
            }
            derived += t
            for i in u.indices { u[i] = 0 }
            for i in t.indices { t[i] = 0 }
        }
        return Array(derived.prefix(length))
    }
}
