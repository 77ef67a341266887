import Crypto
import _CryptoExtras

/// The session keys of Secure Dynamic Messaging, derived from the SDM file read key for one read.
///
/// NTAG 424 DNA data sheet (NT4H2421Gx) §9.3.9 and NXP AN12196 §3.3, AES mode:
/// - SV1 = `C3 3C 00 01 00 80` ‖ UID ‖ SDMReadCtr, SV2 = `3C C3 00 01 00 80` ‖ UID ‖ SDMReadCtr,
///   each part present only when the tag mirrors it, the counter least significant byte first,
///   and zeros to fill a whole number of 16-byte blocks;
/// - SesSDMFileReadENCKey = CMAC(KSDMFileRead, SV1), SesSDMFileReadMACKey = CMAC(KSDMFileRead, SV2).
package struct SDMSessionKeys: Sendable, Hashable {
    /// SesSDMFileReadENCKey: decrypts SDMENCFileData.
    package let encryption: [UInt8]
    /// SesSDMFileReadMACKey: computes SDMMAC.
    package let mac: [UInt8]

    /// Derives both keys.
    /// - Parameters:
    ///   - fileReadKey: KSDMFileRead, 16 bytes.
    ///   - uid: the 7-byte UID when the tag mirrors it, else `nil`.
    ///   - counter: SDMReadCtr when the tag mirrors it, else `nil`.
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes.
    package init(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?) throws(DESFireError) {
        let context = (uid ?? []) + (counter.map(Self.counterBytes) ?? [])
        encryption = try DESFireCrypto.cmac(key: fileReadKey, Self.vector([0xC3, 0x3C], context))
        mac = try DESFireCrypto.cmac(key: fileReadKey, Self.vector([0x3C, 0xC3], context))
    }

    /// SDMReadCtr as the chip sends it in session vectors and PICC data: 3 bytes, least
    /// significant first.
    package static func counterBytes(_ counter: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter >> 16)]
    }

    /// LRP mode (NT4H2421Gx §9.3.9.2): SV = `00 01 00 80` ‖ UID ‖ SDMReadCtr (each when
    /// mirrored), zeros, then `1E E1`, a multiple of 16 bytes; SesSDMFileReadMasterKey =
    /// CMAC_LRP(KSDMFileRead, SV). The primitive of that key gives SDMMAC under its updated key 0
    /// (SesSDMFileReadMACKey) and deciphers SDMENCFileData under updated key 1
    /// (SesSDMFileReadENCKey).
    /// - Throws: ``DESFireError`` `.wrongKey` for a key that is not 16 bytes.
    package static func lrp(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?) throws(DESFireError) -> LeakageResilientPrimitive {
        var vector: [UInt8] = [0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (counter.map(counterBytes) ?? [])
        while (vector.count + 2) % 16 != 0 { vector.append(0) }
        vector += [0x1E, 0xE1]
        let master = try LeakageResilientPrimitive(key: fileReadKey).cmac(vector)
        return try LeakageResilientPrimitive(key: master)
    }

    /// A session vector: label, `00 01 00 80`, the context, zeros to a multiple of 16 bytes.
    static func vector(_ label: [UInt8], _ context: [UInt8]) -> [UInt8] {
        var bytes = label + [0x00, 0x01, 0x00, 0x80] + context
        while bytes.count % 16 != 0 { bytes.append(0) }
        return bytes
    }
}
