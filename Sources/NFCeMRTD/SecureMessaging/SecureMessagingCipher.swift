import Crypto
import NFCTripleDES
import _CryptoExtras

/// The block cipher and MAC of a secure-messaging session (ICAO Doc 9303 Part 11 §9.8.6).
enum SecureMessagingCipher: Sendable {
    /// 3DES-CBC with a zero IV; the retail MAC (ISO/IEC 9797-1 algorithm 3).
    case tripleDES(TripleDES, RetailMAC)
    /// AES-CBC with IV = E(KS_Enc, SSC); AES-CMAC truncated to 8 bytes (NIST SP 800-38B).
    case aes(encryption: SymmetricKey, mac: SymmetricKey)

    static func tripleDES(encryptionKey: [UInt8], macKey: [UInt8]) throws(EMRTDError) -> Self {
        do {
            guard encryptionKey.count == 16 else { throw TripleDESError(.keyLength, "KSEnc has \(encryptionKey.count) bytes") }
            return .tripleDES(try TripleDES(key: encryptionKey), try RetailMAC(key: macKey))
        } catch {
            throw EMRTDError(.authenticationFailed, "session keys: \(error)")
        }
    }

    static func aes(encryptionKey: [UInt8], macKey: [UInt8]) throws(EMRTDError) -> Self {
        guard [16, 24, 32].contains(encryptionKey.count), macKey.count == encryptionKey.count else {
            throw EMRTDError(.authenticationFailed, "AES session keys have 16, 24 or 32 bytes, not \(encryptionKey.count)/\(macKey.count)")
        }
        return .aes(encryption: SymmetricKey(data: encryptionKey), mac: SymmetricKey(data: macKey))
    }

    var blockSize: Int {
        switch self {
        case .tripleDES: 8
        case .aes: 16
        }
    }

    /// ISO/IEC 9797-1 padding method 2 to the cipher's block.
    func pad(_ data: [UInt8]) -> [UInt8] { RetailMAC.pad(data, blockSize: blockSize) }

    /// The 8-byte MAC of `data` (padded here).
    func mac(_ data: [UInt8]) throws(EMRTDError) -> [UInt8] {
        switch self {
        case .tripleDES(_, let mac):
            do { return try mac.mac(padded: pad(data)) } catch { throw EMRTDError(.secureMessaging, "\(error)") }
        case .aes(_, let key):
            do {
                var mac = try AES.CMAC(key: key)
                pad(data).withUnsafeBytes { mac.update(bufferPointer: $0) }
                return Array(mac.finalize().withUnsafeBytes { Array($0) }.prefix(8))
            } catch {
                throw EMRTDError(.secureMessaging, "AES-CMAC: \(error)")
            }
        }
    }

    /// CBC encryption of padded data; `counter` gives AES its IV.
    func encrypt(_ padded: [UInt8], counter: [UInt8]) throws(EMRTDError) -> [UInt8] {
        switch self {
        case .tripleDES(let cipher, _):
            do { return try cipher.encryptCBC(padded) } catch { throw EMRTDError(.secureMessaging, "\(error)") }
        case .aes(let key, _):
            return try Self.aesCBC(padded, key: key, iv: try Self.aesBlock(counter, key: key), decrypt: false)
        }
    }

    /// CBC decryption; `counter` gives AES its IV.
    func decrypt(_ data: [UInt8], counter: [UInt8]) throws(EMRTDError) -> [UInt8] {
        switch self {
        case .tripleDES(let cipher, _):
            do { return try cipher.decryptCBC(data) } catch { throw EMRTDError(.secureMessaging, "\(error)") }
        case .aes(let key, _):
            return try Self.aesCBC(data, key: key, iv: try Self.aesBlock(counter, key: key), decrypt: true)
        }
    }

    /// One AES block enciphered.
    static func aesBlock(_ block: [UInt8], key: SymmetricKey) throws(EMRTDError) -> [UInt8] {
        var out = block
        do { try AES.permute(&out, key: key) } catch { throw EMRTDError(.secureMessaging, "AES: \(error)") }
        return out
    }

    /// AES-CBC over whole blocks, no padding.
    static func aesCBC(_ data: [UInt8], key: SymmetricKey, iv: [UInt8], decrypt: Bool) throws(EMRTDError) -> [UInt8] {
        guard data.count % 16 == 0 else { throw EMRTDError(.secureMessaging, "AES-CBC takes whole blocks, not \(data.count) bytes") }
        var chain = iv
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for start in stride(from: 0, to: data.count, by: 16) {
            var block = Array(data[start..<start + 16])
            do {
                if decrypt {
                    let cipherBlock = block
                    try AES.inversePermute(&block, key: key)
                    out += zip(block, chain).map { $0 ^ $1 }
                    chain = cipherBlock
                } else {
                    block = zip(block, chain).map { $0 ^ $1 }
                    try AES.permute(&block, key: key)
                    out += block
                    chain = block
                }
            } catch {
                throw EMRTDError(.secureMessaging, "AES: \(error)")
            }
        }
        return out
    }
}
