/// ISOSelectFile, ISOReadBinary and ISOUpdateBinary (data sheet NT4H2421Gx §10.9), and the
/// Secure Dynamic Messaging mirror every read of an SDM file goes through (§9.3).
extension NTAG424Tag {
    /// A command with CLA `00`.
    mutating func iso(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case 0xA4: return select(command)
        case 0xB0: return readBinary(command)
        case 0xD6: return updateBinary(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// ISOSelectFile (§10.9.1, Table 86): P1 `04` by DF name, `00` by identifier (`3F00` the PICC
    /// level, `E110` the application, or a file of the application), `02` a file of the current
    /// DF; P2 `0C` (no answer data) or `00`. Not found: `6A82`, the selection unchanged. Selecting
    /// a DF ends the session (a modelling choice: the data sheet does not say).
    mutating func select(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 == 0x00 || command.p2 == 0x0C else { return SimResponseAPDU(.incorrectP1P2) }
        switch command.p1 {
        case 0x04:
            guard command.data == Self.applicationName else { return SimResponseAPDU(.fileNotFound) }
            enterApplication(true)
            return SimResponseAPDU(.success)
        case 0x00, 0x02:
            guard command.data.count == 2 else { return SimResponseAPDU(.wrongLength) }
            let id = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            if command.p1 == 0x00 && (id == 0x3F00 || id == Self.applicationID) {
                enterApplication(id == Self.applicationID)
                return SimResponseAPDU(.success)
            }
            guard applicationSelected, let index = files.firstIndex(where: { $0.isoID == id }) else {
                return SimResponseAPDU(.fileNotFound)
            }
            currentFile = index
            return SimResponseAPDU(.success)
        default:
            return SimResponseAPDU(.incorrectP1P2)
        }
    }

    private mutating func enterApplication(_ application: Bool) {
        applicationSelected = application
        currentFile = nil
        session = nil
    }

    /// ISOReadBinary (§10.9.2, Table 89): P1 bit 8 set names the file by its short identifier
    /// (the file number) in bits 5–1, else P1–P2 is a 15-bit offset; Le `00` asks for up to 256
    /// bytes. Plain only: free Read or ReadWrite, or SDMFileRead; refused inside a session (`6982`).
    mutating func readBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.data.isEmpty, let ne = command.ne else { return SimResponseAPDU(.wrongLength) }
        guard let (index, offset) = binaryTarget(command) else { return SimResponseAPDU(.conditionsNotSatisfied) }
        let file = files[index]
        guard session == nil, case .success = grant(readConditions(file)) else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        guard offset < file.contents.count else { return SimResponseAPDU(.incorrectP1P2) }
        guard let (contents, counted) = readableContents(index, iso: true) else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        let count = min(ne, contents.count - offset)
        var response = SimResponseAPDU(data: Array(contents[offset..<offset + count]))
        if counted {
            response.writesMemory = true
            response.additionalProcessingTime = Self.writeTime
        }
        return response
    }

    /// ISOUpdateBinary (§10.9.3, Table 92): the same addressing; free Write or ReadWrite only,
    /// refused inside a session (`6982`); past the end of the file `6985`.
    mutating func updateBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard !command.data.isEmpty else { return SimResponseAPDU(.wrongLength) }
        guard let (index, offset) = binaryTarget(command) else { return SimResponseAPDU(.conditionsNotSatisfied) }
        let file = files[index]
        guard session == nil, case .success = grant([file.access.write, file.access.readWrite]) else {
            return SimResponseAPDU(.securityStatusNotSatisfied)
        }
        guard offset < file.contents.count, command.data.count <= file.contents.count - offset else {
            return SimResponseAPDU(.conditionsNotSatisfied)
        }
        files[index].contents.replaceSubrange(offset..<offset + command.data.count, with: command.data)
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.writeTime, writesMemory: true)
    }

    /// The file and offset a binary command names; a short identifier also selects the file.
    private mutating func binaryTarget(_ command: SimCommandAPDU) -> (Int, Int)? {
        guard applicationSelected else { return nil }
        if command.p1 & 0x80 != 0 {
            let sfi = command.p1 & 0x1F
            guard command.p1 & 0x60 == 0 else { return nil }
            if sfi != 0 {
                guard let index = fileIndex(sfi) else { return nil }
                currentFile = index
            }
            guard let index = currentFile else { return nil }
            return (index, Int(command.p2))
        }
        guard let index = currentFile else { return nil }
        return (index, Int(command.p1) << 8 | Int(command.p2))
    }

    // MARK: Secure Dynamic Messaging

    /// The file's bytes as this read sees them, and whether it stepped SDMReadCtr. Outside a
    /// session an SDM file is mirrored (§9.3): the first read of a run steps SDMReadCtr and
    /// writes UID and counter as upper-case hex or the encrypted PICC data, SDMENCFileData, and
    /// SDMMAC last, over the mirrored bytes from SDMMACInputOffset; reads of the same file by
    /// the same command straight after it see the same bytes (§9.3.1). In LRP mode the PICC data,
    /// the file data and SDMMAC are LRP's (§9.3.4.2, §9.3.6.2, §9.3.8.2). Inside a session the
    /// stored bytes, placeholders and all. `nil` once SDMReadCtr reaches its limit or `FFFFFF`.
    mutating func readableContents(_ index: Int, iso: Bool) -> (contents: [UInt8], counted: Bool)? {
        let file = files[index]
        guard let sdm = file.sdm, session == nil else { return (file.contents, false) }
        if let previous = previousRead, previous.file == file.number, previous.iso == iso {
            lastRead = previous
            return (previous.contents, false)
        }
        if let limit = sdm.counterLimit, file.readCounter >= limit { return nil }
        guard file.readCounter < 0xFF_FFFF else { return nil }
        files[index].readCounter += 1
        let counter = NTAG424File.threeBytes(Int(files[index].readCounter))
        var out = file.contents
        func put(_ bytes: [UInt8], at offset: Int?) {
            guard let offset else { return }
            let text = Array(Self.hex(bytes).utf8)
            guard offset >= 0, offset + text.count <= out.count else { return }
            out.replaceSubrange(offset..<offset + text.count, with: text)
        }
        if sdm.metaReadKey == 0x0E {
            if sdm.mirrorsUID { put(uid, at: sdm.uidOffset) }
            if sdm.mirrorsCounter, sdm.counterOffset != NTAG424SDM.notMirrored { put(counter.reversed(), at: sdm.counterOffset) }
        } else if sdm.metaReadKey <= 4 {
            var plain: [UInt8] = [(sdm.mirrorsUID ? 0x80 | UInt8(uid.count) : 0) | (sdm.mirrorsCounter ? 0x40 : 0)]
            if sdm.mirrorsUID { plain += uid }
            if sdm.mirrorsCounter { plain += counter }
            plain += random(16 - plain.count)
            let key = keys[Int(sdm.metaReadKey)].value
            if lrpMode {
                // PICCRand ‖ LRICB(PICCDataTag ‖ UID ‖ SDMReadCtr ‖ padding) under UK₀, PICCRand the counter (§9.3.4.2).
                let piccRand = random(8)
                var lrpCounter = piccRand
                guard
                    let encrypted = NTAG424LRP(key: key, updatedKeyCount: 1)?.lricb(
                        plain, updatedKey: 0, counter: &lrpCounter, decrypt: false)
                else { return nil }
                put(piccRand + encrypted, at: sdm.piccDataOffset)
            } else {
                guard let encrypted = NTAG424Cipher.cbc(plain, key: key, decrypt: false) else { return nil }
                put(encrypted, at: sdm.piccDataOffset)
            }
        }
        if sdm.fileReadKey <= 4, let macInput = sdm.macInputOffset, let macOffset = sdm.macOffset {
            let key = keys[Int(sdm.fileReadKey)].value
            let mirroredUID = sdm.mirrorsUID ? uid : nil
            let mirroredCounter = sdm.mirrorsCounter ? counter : nil
            guard macInput <= macOffset else { return nil }
            if lrpMode {
                guard let session = Self.sdmLRPSession(key: key, uid: mirroredUID, counter: mirroredCounter) else { return nil }
                if let (offset, length) = sdm.encryptedData {
                    // LRICB under UK₁, unpadded, the counter SDMReadCtr ‖ 000000 (§9.3.6.2).
                    var fileCounter = counter + [0, 0, 0]
                    guard
                        let encrypted = session.lricb(
                            Array(file.contents[offset..<offset + length / 2]), updatedKey: 1, counter: &fileCounter, decrypt: false)
                    else { return nil }
                    put(encrypted, at: offset)
                }
                guard let full = session.cmac(Array(out[macInput..<macOffset])) else { return nil }
                put(stride(from: 1, to: 16, by: 2).map { full[$0] }, at: macOffset)
            } else {
                guard let sessionKeys = NTAG424Cipher.sdmSessionKeys(key: key, uid: mirroredUID, counter: mirroredCounter) else {
                    return nil
                }
                if let (offset, length) = sdm.encryptedData {
                    let plain = Array(file.contents[offset..<offset + length / 2])
                    guard
                        let iv = NTAG424Cipher.cbc(counter + [UInt8](repeating: 0, count: 13), key: sessionKeys.encryption, decrypt: false),
                        let encrypted = NTAG424Cipher.cbc(plain, key: sessionKeys.encryption, iv: iv, decrypt: false)
                    else { return nil }
                    put(encrypted, at: offset)
                }
                guard let mac = NTAG424Cipher.truncatedMAC(Array(out[macInput..<macOffset]), key: sessionKeys.mac) else { return nil }
                put(mac, at: macOffset)
            }
        }
        lastRead = Mirror(file: file.number, iso: iso, contents: out)
        return (out, true)
    }

    /// SDM's LRP session in LRP mode (§9.3.9.2): SesSDMFileReadMasterKey = CMAC_LRP(KSDMFileRead,
    /// `00 01 00 80` ‖ UID ‖ SDMReadCtr (each when mirrored) ‖ zeros ‖ `1E E1`, a whole number of
    /// blocks), whose updated key 0 MACs and updated key 1 enciphers file data.
    static func sdmLRPSession(key: [UInt8], uid: [UInt8]?, counter: [UInt8]?) -> NTAG424LRP? {
        var vector: [UInt8] = [0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (counter ?? [])
        while (vector.count + 2) % 16 != 0 { vector.append(0) }
        vector += [0x1E, 0xE1]
        guard let master = NTAG424LRP(key: key, updatedKeyCount: 1)?.cmac(vector) else { return nil }
        return NTAG424LRP(key: master)
    }

    /// Upper-case hex, as the mirrors write it.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
