import Crypto
import _CryptoExtras

/// The card side's AES-128 primitives (NT4H2421Gx §9.1), on swift-crypto: CBC without padding,
/// CMAC (NIST SP 800-38B), the 8-byte MACt and the session keys of AuthenticateEV2First.
///
/// Keys come from the tag's own key table, so they are always 16 bytes; a primitive that still
/// fails answers `nil` and the command fails with an integrity error.
enum NTAG424Cipher {
    /// AES-CBC over whole blocks, no padding.
    static func cbc(_ data: [UInt8], key: [UInt8], iv: [UInt8] = zeroBlock, decrypt: Bool) -> [UInt8]? {
        guard key.count == 16, iv.count == 16, data.count % 16 == 0 else { return nil }
        let symmetric = SymmetricKey(data: key)
        var chain = iv
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for start in stride(from: 0, to: data.count, by: 16) {
            var block = Array(data[start..<start + 16])
            do {
                if decrypt {
                    let cipher = block
                    try AES.inversePermute(&block, key: symmetric)
                    out += zip(block, chain).map { $0 ^ $1 }
                    chain = cipher
                } else {
                    block = zip(block, chain).map { $0 ^ $1 }
                    try AES.permute(&block, key: symmetric)
                    out += block
                    chain = block
                }
            } catch {
                return nil
            }
        }
        return out
    }

    /// AES-CMAC, 16 bytes.
    static func cmac(_ message: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 16, var mac = try? AES.CMAC(key: SymmetricKey(data: key)) else { return nil }
        message.withUnsafeBytes { mac.update(bufferPointer: $0) }
        return mac.finalize().withUnsafeBytes { Array($0) }
    }

    /// MACt: the bytes at odd positions of the CMAC (NT4H2421Gx §9.1.3, "truncated MAC").
    static func truncatedMAC(_ message: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard let mac = cmac(message, key: key) else { return nil }
        return [mac[1], mac[3], mac[5], mac[7], mac[9], mac[11], mac[13], mac[15]]
    }

    /// Padding method 2 of ISO/IEC 9797-1: `80`, then zeros to a whole block (a full block gains one).
    static func pad(_ data: [UInt8]) -> [UInt8] {
        var out = data + [0x80]
        while out.count % 16 != 0 { out.append(0) }
        return out
    }

    /// Removes method-2 padding; `nil` when there is none.
    static func unpad(_ data: [UInt8]) -> [UInt8]? {
        guard let marker = data.lastIndex(where: { $0 != 0 }), data[marker] == 0x80, data.count - marker <= 16 else { return nil }
        return Array(data[..<marker])
    }

    /// SesAuthENCKey and SesAuthMACKey (NT4H2421Gx §9.1.7): CMAC under the authenticated key of
    /// SV1 = `A5 5A 00 01 00 80` and SV2 = `5A A5 00 01 00 80`, each followed by RndA[15..14],
    /// RndA[13..8] ⊕ RndB[15..10], RndB[9..0] and RndA[7..0] (byte 15 the first sent).
    static func sessionKeys(key: [UInt8], rndA: [UInt8], rndB: [UInt8]) -> (encryption: [UInt8], mac: [UInt8])? {
        guard rndA.count == 16, rndB.count == 16 else { return nil }
        let context = Array(rndA[0..<2]) + zip(rndA[2..<8], rndB[0..<6]).map { $0 ^ $1 } + Array(rndB[6..<16]) + Array(rndA[8..<16])
        guard let encryption = cmac([0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context, key: key),
            let mac = cmac([0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context, key: key)
        else { return nil }
        return (encryption, mac)
    }

    /// The IV of an encrypted command (`A5 5A`) or response (`5A A5`): E(SesAuthENCKey, label ‖ TI ‖
    /// CmdCtr ‖ zeros), CmdCtr least significant byte first (NT4H2421Gx §9.1.4).
    static func iv(label: [UInt8], ti: [UInt8], counter: UInt16, key: [UInt8]) -> [UInt8]? {
        let input =
            label + ti + [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)] + [UInt8](repeating: 0, count: 8)
        return cbc(input, key: key, decrypt: false)
    }

    /// SDM's session keys (NT4H2421Gx §9.3.9): CMAC under KSDMFileRead of `C3 3C` (encryption) and
    /// `3C C3` (MAC) ‖ `00 01 00 80` ‖ the mirrored UID ‖ the mirrored SDMReadCtr, zero-filled.
    static func sdmSessionKeys(key: [UInt8], uid: [UInt8]?, counter: [UInt8]?) -> (encryption: [UInt8], mac: [UInt8])? {
        func vector(_ label: [UInt8]) -> [UInt8] {
            var bytes = label + [0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (counter ?? [])
            while bytes.count % 16 != 0 { bytes.append(0) }
            return bytes
        }
        guard let encryption = cmac(vector([0xC3, 0x3C]), key: key), let mac = cmac(vector([0x3C, 0xC3]), key: key) else { return nil }
        return (encryption, mac)
    }

    static let zeroBlock = [UInt8](repeating: 0, count: 16)
}
