import NFCBytes

/// A Secure Unique NFC (SUN) message as a tag mirrors it into a URL, and its verification.
///
/// NTAG 424 DNA (NT4H2421Gx §9.3) and NXP AN12196 §3.4: on every read the tag writes into its
/// NDEF file, as ASCII hex, the PICC data — encrypted (`picc_data=`, one AES block) or plain
/// (`uid=` 7 bytes, `ctr=` 3 bytes most significant first) — optionally encrypted file data
/// (`enc=`), and SDMMAC (`cmac=`, 8 bytes): MACt(SesSDMFileReadMACKey, the URL's bytes from
/// SDMMACInputOffset to SDMMACOffset). The parameter names are the ones AN12196 and the common
/// backends use; `e=` and `c=` are accepted for `picc_data=` and `cmac=`.
///
/// The MAC input: empty when nothing but PICC data is mirrored (SDMMACInputOffset =
/// SDMMACOffset); from the first character of the `enc=` value up to the `cmac=` value, `&cmac=`
/// included, when file data is (AN12196 Table 5). Other layouts give ``macInput`` themselves.
///
/// A tag in LRP mode (NT4H2421Gx §9.3, AN12304) writes the same message with LRP in place of
/// AES: encrypted PICC data is then 24 bytes (PICCRand first), which tells the mode apart;
/// plain mirrors do not tell, so ``cipher`` says.
public struct SUNMessage: Sendable, Hashable {
    /// The tag's secure-messaging cipher.
    public enum Cipher: String, Sendable, Hashable {
        /// AES-128 (the chip as shipped).
        case aes
        /// NXP's Leakage Resilient Primitive (SetConfiguration's LRP mode).
        case lrp
    }

    /// AES or LRP; from the length of encrypted PICC data when there is some, else AES unless set.
    public var cipher: Cipher
    /// Encrypted PICC data, when the tag mirrors it encrypted.
    public var encryptedPICCData: [UInt8]?
    /// Plain PICC data (UID and/or counter), when the tag mirrors them in the clear.
    public var plainPICCData: PICCData?
    /// SDMENCFileData, when mirrored.
    public var encryptedFileData: [UInt8]?
    /// SDMMAC, 8 bytes.
    public var mac: [UInt8]
    /// The bytes SDMMAC covers.
    public var macInput: [UInt8]

    /// A message from its parts.
    public init(
        encryptedPICCData: [UInt8]?, plainPICCData: PICCData?, encryptedFileData: [UInt8]?, mac: [UInt8], macInput: [UInt8],
        cipher: Cipher? = nil
    ) {
        self.cipher = cipher ?? (encryptedPICCData?.count == 24 ? .lrp : .aes)
        self.encryptedPICCData = encryptedPICCData
        self.plainPICCData = plainPICCData
        self.encryptedFileData = encryptedFileData
        self.mac = mac
        self.macInput = macInput
    }

    /// Reads a SUN URL (or just its query).
    /// - Throws: ``DESFireError`` `.malformedMessage` naming the parameter: no `cmac`, neither
    ///   `picc_data` nor `uid`/`ctr`, a value that is not hex of the length the chip writes.
    public init(url: String) throws(DESFireError) {
        let bytes = Array(url.utf8)
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")).map { $0 + 1 } ?? 0
        var values: [String: (range: Range<Int>, text: String)] = [:]
        var start = queryStart
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "#") { end += 1 }
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[start..<equals], as: UTF8.self).lowercased()
                let value = equals + 1..<end
                if values[name] == nil { values[name] = (value, String(decoding: bytes[value], as: UTF8.self)) }
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "#") { break }
            start = end + 1
        }
        func hex(_ names: [String], count: [Int]?) throws(DESFireError) -> (range: Range<Int>, bytes: [UInt8])? {
            guard let name = names.first(where: { values[$0] != nil }), let found = values[name] else { return nil }
            guard let decoded = try? Hex.decode(found.text),
                count.map({ $0.contains(decoded.count) }) ?? (!decoded.isEmpty && decoded.count % 16 == 0)
            else {
                let wanted =
                    count.map { $0.map { "\($0 * 2)" }.joined(separator: " or ") + " hex digits" } ?? "hex digits for whole 16-byte blocks"
                throw DESFireError(.malformedMessage, "\(name)= holds \(found.text.utf8.count) characters, not \(wanted)")
            }
            return (found.range, decoded)
        }
        guard let mac = try hex(["cmac", "c"], count: [8]) else {
            throw DESFireError(.malformedMessage, "no cmac= parameter: SDMMAC is what a SUN message is verified by")
        }
        let encrypted = try hex(["picc_data", "e"], count: [16, 24])
        let uid = try hex(["uid"], count: [7])
        let counter = try hex(["ctr"], count: [3])
        guard encrypted != nil || uid != nil || counter != nil else {
            throw DESFireError(.malformedMessage, "neither picc_data= nor uid=/ctr=: the message carries no PICC data")
        }
        let file = try hex(["enc"], count: nil)
        var plain: PICCData?
        if encrypted == nil {
            plain = PICCData(uid: uid?.bytes, counter: counter.map { $0.bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })
        }
        // The MAC input: from the start of enc='s value to the start of cmac='s value.
        var input: [UInt8] = []
        if let file, file.range.lowerBound < mac.range.lowerBound {
            input = Array(bytes[file.range.lowerBound..<mac.range.lowerBound])
        }
        self.init(
            encryptedPICCData: encrypted?.bytes, plainPICCData: plain, encryptedFileData: file?.bytes, mac: mac.bytes, macInput: input)
    }

    /// Verifies the message with the tag's keys.
    /// - Parameters:
    ///   - metaReadKey: KSDMMetaRead, which decrypts `picc_data` (unused for plain mirrors).
    ///   - fileReadKey: KSDMFileRead, from which the session keys for SDMMAC and the file data come.
    /// - Returns: the UID and counter, the decrypted file data, and whether SDMMAC matches.
    /// - Throws: ``DESFireError`` `.wrongKey` (a key that is not 16 bytes, PICC data that a wrong
    ///   meta read key turned into nonsense), `.malformedMessage` (also encrypted PICC data whose
    ///   length is the other cipher's).
    public func verify(metaReadKey: [UInt8], fileReadKey: [UInt8]) throws(DESFireError) -> SUNVerification {
        let picc: PICCData
        if let encryptedPICCData {
            guard encryptedPICCData.count == (cipher == .lrp ? 24 : 16) else {
                throw DESFireError(
                    .malformedMessage,
                    "\(cipher.rawValue.uppercased()) PICC data has \(cipher == .lrp ? 24 : 16) bytes, not \(encryptedPICCData.count)")
            }
            picc = try PICCData(decrypting: encryptedPICCData, metaReadKey: metaReadKey)
        } else if let plainPICCData {
            picc = plainPICCData
        } else {
            throw DESFireError(.malformedMessage, "the message carries no PICC data")
        }
        if cipher == .lrp { return try verifyLRP(picc: picc, fileReadKey: fileReadKey) }
        let keys = try SDMSessionKeys(fileReadKey: fileReadKey, uid: picc.uid, counter: picc.counter)
        let expected = DESFireCrypto.truncated(try DESFireCrypto.cmac(key: keys.mac, macInput))
        var fileData: [UInt8]?
        if let encryptedFileData {
            // IV = E(SesSDMFileReadENCKey, SDMReadCtr ‖ 13 zero bytes) (NT4H2421Gx §9.3.6).
            let counter = SDMSessionKeys.counterBytes(picc.counter ?? 0)
            let iv = try DESFireCrypto.block(counter + [UInt8](repeating: 0, count: 13), key: keys.encryption, decrypt: false)
            fileData = try DESFireCrypto.decryptCBC(encryptedFileData, key: keys.encryption, iv: iv)
        }
        return SUNVerification(
            isValid: Self.constantTimeEqual(expected, mac), piccData: picc, fileData: fileData, expectedMAC: expected)
    }

    /// LRP mode (NT4H2421Gx §9.3.6.2, §9.3.8.2): SDMMAC is MACt of CMAC_LRP under the session
    /// master key's updated key 0; SDMENCFileData is LRICB under its updated key 1, unpadded,
    /// the counter SDMReadCtr (least significant byte first) ‖ `00 00 00`.
    private func verifyLRP(picc: PICCData, fileReadKey: [UInt8]) throws(DESFireError) -> SUNVerification {
        let session = try SDMSessionKeys.lrp(fileReadKey: fileReadKey, uid: picc.uid, counter: picc.counter)
        let expected = DESFireCrypto.truncated(try session.cmac(macInput))
        var fileData: [UInt8]?
        if let encryptedFileData {
            var counter = SDMSessionKeys.counterBytes(picc.counter ?? 0) + [0, 0, 0]
            fileData = try session.decrypt(encryptedFileData, updatedKey: 1, counter: &counter, padding: false)
        }
        return SUNVerification(
            isValid: Self.constantTimeEqual(expected, mac), piccData: picc, fileData: fileData, expectedMAC: expected)
    }

    /// Compares without stopping at the first difference.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// What verifying a SUN message found.
public struct SUNVerification: Sendable, Hashable {
    /// Whether SDMMAC matches: the message came from a tag holding the file read key, unaltered.
    public var isValid: Bool
    /// The UID and read counter (decrypted, or as mirrored in the clear).
    public var piccData: PICCData
    /// The decrypted SDMENCFileData, when the message carries it.
    public var fileData: [UInt8]?
    /// The SDMMAC the keys give, for diagnostics.
    public var expectedMAC: [UInt8]
}
