/// NXP's Leakage Resilient Primitive (AN12304), the cipher of NTAG 424 DNA and DESFire EV2+ in
/// LRP mode: AES-128 used with the running value as the key and fixed blocks as the data, so
/// that one key meets few plaintexts.
///
/// From a key K (AN12304 Algorithms 1 and 2; E(k, m) is AES-128 of block m under key k):
/// - 16 plaintexts: h = E(K, 55…55); then for each, Pᵢ = E(h, AA…AA), h = E(h, 55…55);
/// - 4 updated keys: h = E(K, AA…AA); then for each, UKᵢ = E(h, AA…AA), h = E(h, 55…55).
///
/// EvalLRP (Algorithm 3) walks the input nibble by nibble, high nibble of each byte first:
/// y = UKᵤ, y = E(y, P[nibble]) for each, and with `final` one more y = E(y, 00…00). LRICB
/// (Algorithms 4–5) enciphers each block under EvalLRP(counter) and steps the counter; CMAC_LRP
/// (Algorithm 6) is AES-CMAC with EvalLRP under UK₀ as the block function. The published test
/// vectors are asserted in `LeakageResilientPrimitiveTests`.
///
/// Not constant-time, like the rest of this module's reader-side cryptography: AN12304 meant the
/// primitive's resilience for the card, and a reader's host is not under a probe.
package struct LeakageResilientPrimitive: Sendable, Hashable {
    /// The 16 plaintexts P₀…P₁₅.
    package let plaintexts: [[UInt8]]
    /// The updated keys UK₀…UK₃.
    package let updatedKeys: [[UInt8]]

    /// The plaintexts and updated keys of `key`.
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes.
    package init(key: [UInt8]) throws(DESFireError) {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an LRP key is an AES-128 key of 16 bytes, not \(key.count)") }
        let fives = [UInt8](repeating: 0x55, count: 16)
        let tens = [UInt8](repeating: 0xAA, count: 16)
        var plaintexts: [[UInt8]] = []
        var h = try DESFireCrypto.block(fives, key: key, decrypt: false)
        for _ in 0..<16 {
            plaintexts.append(try DESFireCrypto.block(tens, key: h, decrypt: false))
            h = try DESFireCrypto.block(fives, key: h, decrypt: false)
        }
        var updatedKeys: [[UInt8]] = []
        h = try DESFireCrypto.block(tens, key: key, decrypt: false)
        for _ in 0..<4 {
            updatedKeys.append(try DESFireCrypto.block(tens, key: h, decrypt: false))
            h = try DESFireCrypto.block(fives, key: h, decrypt: false)
        }
        self.plaintexts = plaintexts
        self.updatedKeys = updatedKeys
    }

    /// EvalLRP over `nibbles` (each 0–15) under updated key `updatedKey`.
    /// - Throws: ``DESFireError`` `.invalidArgument` for an updated key other than 0–3 or a
    ///   "nibble" over 15.
    package func evaluate(updatedKey: Int, nibbles: [UInt8], final: Bool) throws(DESFireError) -> [UInt8] {
        guard updatedKeys.indices.contains(updatedKey) else {
            throw DESFireError(.invalidArgument, "LRP has updated keys 0 to \(updatedKeys.count - 1), not \(updatedKey)")
        }
        var y = updatedKeys[updatedKey]
        for nibble in nibbles {
            guard nibble < 16 else { throw DESFireError(.invalidArgument, "an LRP input nibble is 0-15, not \(nibble)") }
            y = try DESFireCrypto.block(plaintexts[Int(nibble)], key: y, decrypt: false)
        }
        if final { y = try DESFireCrypto.block([UInt8](repeating: 0, count: 16), key: y, decrypt: false) }
        return y
    }

    /// EvalLRP over whole bytes, high nibble first.
    package func evaluate(updatedKey: Int, bytes: [UInt8], final: Bool) throws(DESFireError) -> [UInt8] {
        try evaluate(updatedKey: updatedKey, nibbles: Self.nibbles(bytes), final: final)
    }

    /// The nibbles of `bytes`, high nibble of each byte first.
    package static func nibbles(_ bytes: [UInt8]) -> [UInt8] { bytes.flatMap { [$0 >> 4, $0 & 0x0F] } }
}
