import Crypto
import NFCTripleDES
import _CryptoExtras

/// AES-128 (swift-crypto) or TDEA (``TripleDES``) keyed for an EV1 or legacy DESFire session, with
/// the chainings those sessions use.
struct DESFireBlockCipher: Sendable, Hashable {
    let type: DESFireKeyType
    let key: [UInt8]
    private let tdea: TripleDES?

    /// - Throws: ``DESFireError`` `.wrongKey` for a length the type does not take.
    init(type: DESFireKeyType, key: [UInt8]) throws(DESFireError) {
        self.type = type
        self.key = try type.cardKey(key)
        do {
            tdea = type == .aes ? nil : try TripleDES(key: self.key)
        } catch {
            throw DESFireError(.wrongKey, "TDEA: \(error)")
        }
    }

    var blockSize: Int { type.blockSize }
    var zero: [UInt8] { [UInt8](repeating: 0, count: blockSize) }

    /// E or D of one block.
    func apply(_ block: [UInt8], decrypt: Bool) throws(DESFireError) -> [UInt8] {
        guard let tdea else { return try DESFireCrypto.block(block, key: key, decrypt: decrypt) }
        do {
            return decrypt ? try tdea.decrypt(block: block) : try tdea.encrypt(block: block)
        } catch {
            throw DESFireError(.malformedResponse, "TDEA: \(error)")
        }
    }

    /// CBC encryption from `iv`: the ciphertext and its last block.
    func encrypt(_ data: [UInt8], iv: [UInt8]) throws(DESFireError) -> (data: [UInt8], last: [UInt8]) {
        try checkBlocks(data)
        var chain = iv
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: blockSize) {
            chain = try apply(zip(data[start..<start + blockSize], chain).map { $0 ^ $1 }, decrypt: false)
            out += chain
        }
        return (out, chain)
    }

    /// CBC decryption from `iv`.
    func decrypt(_ data: [UInt8], iv: [UInt8]) throws(DESFireError) -> [UInt8] {
        try checkBlocks(data)
        var chain = iv
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: blockSize) {
            let block = Array(data[start..<start + blockSize])
            out += zip(try apply(block, decrypt: true), chain).map { $0 ^ $1 }
            chain = block
        }
        return out
    }

    /// The legacy reader's "send mode": Cᵢ = D(Pᵢ ⊕ Cᵢ₋₁) from IV zero — the card enciphers to
    /// read it back.
    func legacySend(_ data: [UInt8]) throws(DESFireError) -> [UInt8] {
        try checkBlocks(data)
        var chain = zero
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: blockSize) {
            chain = try apply(zip(data[start..<start + blockSize], chain).map { $0 ^ $1 }, decrypt: true)
            out += chain
        }
        return out
    }

    /// CMAC (NIST SP 800-38B) started from `iv` rather than zero, as EV1 chains it: the whole
    /// last block (the next IV).
    func cmac(_ message: [UInt8], iv: [UInt8]) throws(DESFireError) -> [UInt8] {
        let l = try apply(zero, decrypt: false)
        let k1 = shifted(l)
        let k2 = shifted(k1)
        var blocks = message
        let complete = !message.isEmpty && message.count % blockSize == 0
        if !complete {
            blocks += [0x80] + [UInt8](repeating: 0, count: blockSize - 1 - message.count % blockSize)
        }
        let subkey = complete ? k1 : k2
        let tail = blocks.count - blockSize
        for index in 0..<blockSize { blocks[tail + index] ^= subkey[index] }
        return try encrypt(blocks, iv: iv).last
    }

    /// The 4-byte MAC of a legacy session: the first half of the last CBC block over the data
    /// padded with zeros, IV zero.
    func legacyMAC(_ data: [UInt8]) throws(DESFireError) -> [UInt8] {
        Array(try encrypt(zeroPadded(data, minimum: 1), iv: zero).last.prefix(4))
    }

    /// Zeros to a whole number of blocks (at least `minimum` blocks).
    func zeroPadded(_ data: [UInt8], minimum: Int = 0) -> [UInt8] {
        var out = data
        while out.count % blockSize != 0 || out.count < minimum * blockSize { out.append(0) }
        return out
    }

    private func shifted(_ value: [UInt8]) -> [UInt8] {
        var out = value
        var carry: UInt8 = 0
        for index in stride(from: value.count - 1, through: 0, by: -1) {
            out[index] = value[index] << 1 | carry
            carry = value[index] >> 7
        }
        if carry == 1 { out[out.count - 1] ^= blockSize == 16 ? 0x87 : 0x1B }
        return out
    }

    private func checkBlocks(_ data: [UInt8]) throws(DESFireError) {
        guard data.count % blockSize == 0 else {
            throw DESFireError(.malformedResponse, "\(data.count) bytes are not whole \(blockSize)-byte blocks")
        }
    }
}
