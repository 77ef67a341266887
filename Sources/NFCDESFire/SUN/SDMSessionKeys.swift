import Crypto
import _CryptoExtras

/// The session keys of Secure Dynamic Messaging, derived from the SDM file read key for one read.
///
/// NTAG 424 DNA data sheet (NT4H2421Gx) §9.3.9 and NXP AN12196 §3.3, AES mode:
/// - SV1 = `C3 3C 00 01 00 80` ‖ UID ‖ SDMReadCtr, SV2 = `3C C3 00 01 00 80` ‖ UID ‖ SDMReadCtr,
///   each part present only when the tag mirrors it, the counter least significant byte first,
///   and zeros to fill a whole number of 16-byte blocks;
/// - SesSDMFileReadENCKey = CMAC(KSDMFileRead, SV1), SesSDMFileReadMACKey = CMAC(KSDMFileRead, SV2).
public struct SDMSessionKeys: Sendable, Hashable {
    /// SesSDMFileReadENCKey: decrypts SDMENCFileData.
    public let encryption: [UInt8]
    /// SesSDMFileReadMACKey: computes SDMMAC.
    public let mac: [UInt8]

    /// Derives both keys.
    /// - Parameters:
    ///   - fileReadKey: KSDMFileRead, 16 bytes.
    ///   - uid: the 7-byte UID when the tag mirrors it, else `nil`.
    ///   - counter: SDMReadCtr when the tag mirrors it, else `nil`.
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes.
    public init(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?) throws(DESFireError) {
        let context = (uid ?? []) + (counter.map(Self.counterBytes) ?? [])
        encryption = try SUNCrypto.cmac(key: fileReadKey, Self.vector([0xC3, 0x3C], context))
        mac = try SUNCrypto.cmac(key: fileReadKey, Self.vector([0x3C, 0xC3], context))
    }

    /// SDMReadCtr as the chip sends it in session vectors and PICC data: 3 bytes, least
    /// significant first.
    public static func counterBytes(_ counter: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter >> 16)]
    }

    /// A session vector: label, `00 01 00 80`, the context, zeros to a multiple of 16 bytes.
    static func vector(_ label: [UInt8], _ context: [UInt8]) -> [UInt8] {
        var bytes = label + [0x00, 0x01, 0x00, 0x80] + context
        while bytes.count % 16 != 0 { bytes.append(0) }
        return bytes
    }
}

/// The AES primitives SUN messages use, from swift-crypto.
enum SUNCrypto {
    /// AES-CMAC (NIST SP 800-38B), 16 bytes.
    static func cmac(key: [UInt8], _ message: [UInt8]) throws(DESFireError) -> [UInt8] {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        do {
            var mac = try AES.CMAC(key: SymmetricKey(data: key))
            message.withUnsafeBytes { mac.update(bufferPointer: $0) }
            return mac.finalize().withUnsafeBytes { Array($0) }
        } catch {
            throw DESFireError(.wrongKey, "AES-CMAC: \(error)")
        }
    }

    /// MACt: the 8 bytes at odd positions (1, 3, …, 15) of a 16-byte CMAC, as NTAG 424 DNA and
    /// DESFire EV2 send MACs (NT4H2421Gx §9.1.3).
    static func truncated(_ mac: [UInt8]) -> [UInt8] {
        stride(from: 1, to: 16, by: 2).map { mac[$0] }
    }

    /// One AES block, encrypted or decrypted (no mode).
    static func block(_ block: [UInt8], key: [UInt8], decrypt: Bool) throws(DESFireError) -> [UInt8] {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        var out = block
        do {
            if decrypt {
                try AES.inversePermute(&out, key: SymmetricKey(data: key))
            } else {
                try AES.permute(&out, key: SymmetricKey(data: key))
            }
        } catch {
            throw DESFireError(.wrongKey, "AES: \(error)")
        }
        return out
    }

    /// AES-CBC decryption of whole blocks, no padding.
    static func decryptCBC(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(DESFireError) -> [UInt8] {
        var previous = iv
        var plain: [UInt8] = []
        plain.reserveCapacity(data.count)
        var index = 0
        while index + 16 <= data.count {
            let cipher = Array(data[index..<index + 16])
            let decrypted = try block(cipher, key: key, decrypt: true)
            plain += zip(decrypted, previous).map { $0 ^ $1 }
            previous = cipher
            index += 16
        }
        return plain
    }
}
