extension LeakageResilientPrimitive {
    /// LRICB encryption (AN12304 Algorithm 4): block i is E(EvalLRP(UKᵤ, counter, final), Mᵢ),
    /// the counter (big-endian, its own length, wrapping to zero) stepping after each block and
    /// left where the next call goes on. With `padding`, `80 00…` is always appended first, so
    /// an empty input gives one block; without, the input must be a non-empty multiple of 16.
    /// - Throws: ``DESFireError`` `.invalidArgument` for an empty counter or unpadded input that is
    ///   not whole blocks.
    package func encrypt(_ plain: [UInt8], updatedKey: Int = 0, counter: inout [UInt8], padding: Bool) throws(DESFireError) -> [UInt8] {
        try blocks(padding ? DESFireCrypto.pad(plain) : plain, updatedKey: updatedKey, counter: &counter, decrypt: false)
    }

    /// LRICB decryption (AN12304 Algorithm 5), the counter as in ``encrypt(_:updatedKey:counter:padding:)``;
    /// with `padding` the `80 00…` is taken off.
    /// - Throws: ``DESFireError`` `.invalidArgument` for data that is not whole blocks or an empty
    ///   counter, `.malformedMessage` when the padding is not there (a wrong key, most often).
    package func decrypt(_ data: [UInt8], updatedKey: Int = 0, counter: inout [UInt8], padding: Bool) throws(DESFireError) -> [UInt8] {
        let out = try blocks(data, updatedKey: updatedKey, counter: &counter, decrypt: true)
        guard padding else { return out }
        guard let unpadded = DESFireCrypto.unpad(out) else {
            throw DESFireError(.malformedMessage, "the LRICB plaintext does not end in 80 00…: is the key right?")
        }
        return unpadded
    }

    /// Each block through AES under EvalLRP(UKᵤ, counter, final), the counter stepping after each.
    private func blocks(_ data: [UInt8], updatedKey: Int, counter: inout [UInt8], decrypt: Bool) throws(DESFireError) -> [UInt8] {
        guard !counter.isEmpty else { throw DESFireError(.invalidArgument, "an LRICB counter has at least one byte") }
        guard !data.isEmpty, data.count % 16 == 0 else {
            throw DESFireError(.invalidArgument, "LRICB works on whole 16-byte blocks, not \(data.count) bytes")
        }
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 16) {
            let key = try evaluate(updatedKey: updatedKey, bytes: counter, final: true)
            out += try DESFireCrypto.block(Array(data[start..<start + 16]), key: key, decrypt: decrypt)
            Self.step(&counter)
        }
        return out
    }

    /// CMAC_LRP (AN12304 Algorithm 6): AES-CMAC's structure with F(x) = EvalLRP(UK₀, x, final)
    /// as the block function; L = F(0¹²⁸), K₁ = 2·L, K₂ = 4·L in GF(2¹²⁸). All 16 bytes.
    package func cmac(_ message: [UInt8]) throws(DESFireError) -> [UInt8] {
        let l = try evaluate(updatedKey: 0, bytes: [UInt8](repeating: 0, count: 16), final: true)
        let k1 = Self.double(l)
        let k2 = Self.double(k1)
        var y = [UInt8](repeating: 0, count: 16)
        let complete = !message.isEmpty && message.count % 16 == 0
        let blocks = max(1, (message.count + 15) / 16)
        for index in 0..<blocks {
            var block = Array(message[(index * 16)..<min(message.count, index * 16 + 16)])
            if index == blocks - 1 {
                if complete {
                    block = zip(block, k1).map { $0 ^ $1 }
                } else {
                    block = zip(DESFireCrypto.pad(block), k2).map { $0 ^ $1 }
                }
            }
            y = try evaluate(updatedKey: 0, bytes: zip(y, block).map { $0 ^ $1 }, final: true)
        }
        return y
    }

    /// Adds one to a big-endian counter, wrapping to zero.
    static func step(_ counter: inout [UInt8]) {
        for index in counter.indices.reversed() {
            counter[index] &+= 1
            if counter[index] != 0 { return }
        }
    }

    /// Multiplication by x in GF(2¹²⁸) as CMAC derives its subkeys (NIST SP 800-38B §6.1).
    static func double(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            out[index] = block[index] << 1 | (index < 15 ? block[index + 1] >> 7 : 0)
        }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }
}
