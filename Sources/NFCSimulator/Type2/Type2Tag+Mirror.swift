extension Type2Tag {
    /// What MIRROR_CONF (CFG0 byte 0, bits 7–6) asks NTAG21x to mirror (NTAG21x “ASCII mirror function”).
    public enum MirrorConfiguration: UInt8, Sendable, Hashable, CaseIterable {
        /// No ASCII mirror.
        case none = 0
        /// The UID as 14 upper-case hex digits.
        case uid = 1
        /// The NFC counter as 6 upper-case hex digits.
        case nfcCounter = 2
        /// The UID, `x`, then the NFC counter (21 characters).
        case uidAndNFCCounter = 3
    }

    /// The ASCII mirror laid over user memory by READ and FAST_READ: memory byte offsets and the
    /// characters read there instead of the stored bytes.
    struct ASCIIMirror {
        var characters: [(offset: Int, byte: UInt8)] = []

        func overlay(page: Int, onto bytes: inout [UInt8]) {
            for (offset, byte) in characters where offset / 4 == page { bytes[offset % 4] = byte }
        }
    }

    /// The mirror in force, if any (NTAG21x “ASCII mirror function”).
    ///
    /// MIRROR_CONF takes effect at power-on; MIRROR_PAGE (CFG0 byte 2) and MIRROR_BYTE (CFG0
    /// byte 0, bits 5–4) are read at each command. The mirror starts at byte MIRROR_BYTE of
    /// MIRROR_PAGE, which must be a user page (04h or above) from which the text fits before the
    /// end of user memory; with UID and counter both, each part is checked on its own, as a genuine
    /// chip does. The counter is mirrored only while NFC_CNT_EN is set and, with NFC_CNT_PWD_PROT,
    /// after PWD_AUTH.
    func asciiMirror() -> ASCIIMirror? {
        guard model.isNTAG,
            let configuration = MirrorConfiguration(rawValue: effective.mirror >> 6), configuration != .none
        else { return nil }
        let cfg0 = model.configurationPage0 * 4
        let mirrorPage = Int(memory[cfg0 + 2])
        guard mirrorPage >= model.firstUserPage else { return nil }
        let start = mirrorPage * 4 + Int(memory[cfg0] >> 4 & 0x03)
        let userEnd = (model.lastUserPage + 1) * 4
        var mirror = ASCIIMirror()
        var uidShown = false
        if configuration == .uid || configuration == .uidAndNFCCounter, start + 14 <= userEnd {
            for (i, character) in Self.hexDigits(uid).enumerated() { mirror.characters.append((start + i, character)) }
            uidShown = true
        }
        let showsCounter =
            effective.access.contains(.nfcCounterEnabled)
            && (!effective.access.contains(.nfcCounterPasswordProtected) || isAuthenticated)
        if configuration == .nfcCounter || configuration == .uidAndNFCCounter, showsCounter {
            let counterStart = configuration == .nfcCounter ? start : start + 15
            if counterStart + 6 <= userEnd {
                if configuration == .uidAndNFCCounter, uidShown { mirror.characters.append((start + 14, UInt8(ascii: "x"))) }
                let value = counters[0]
                let digits = Self.hexDigits([UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
                for (i, character) in digits.enumerated() { mirror.characters.append((counterStart + i, character)) }
            }
        }
        return mirror.characters.isEmpty ? nil : mirror
    }

    /// Upper-case hex digits as ASCII bytes.
    static func hexDigits(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
    }
}
