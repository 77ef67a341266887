import ISO7816

/// The exchange with an eMRTD chip: plain until access control succeeds, then every command
/// through ``SecureMessaging``. Reads files with SELECT (P1 `02`, by file identifier, no answer
/// data) and READ BINARY (ICAO Doc 9303 Part 10 §3.6, Part 11 §9.8).
package struct PassportChannel: Sendable {
    /// The link to the chip.
    package let transmitter: any APDUTransmitter
    /// The secure-messaging session, once access control has opened one.
    package var secureMessaging: SecureMessaging?
    /// The most bytes one READ BINARY asks for: 223 (`DF`) with short APDUs, so that the protected
    /// answer fits 256 bytes; more with extended length.
    package var chunkSize: Int

    /// A channel over `transmitter`, plain until ``secureMessaging`` is set.
    package init(transmitter: any APDUTransmitter) {
        self.transmitter = transmitter
        chunkSize = transmitter.supportsExtendedLength ? 0x0F00 : 0xDF
    }

    /// Sends `command` (protected when a session is open) and returns the plain answer.
    /// - Throws: ``EMRTDError`` `.transport` or `.secureMessaging`.
    package mutating func send(_ command: CommandAPDU) async throws(EMRTDError) -> ResponseAPDU {
        guard var session = secureMessaging else { return try await PlainExchange.send(command, over: transmitter) }
        let protected = try session.protect(command)
        let raw: ResponseAPDU
        do {
            raw = try await PlainExchange.send(protected, over: transmitter)
        } catch {
            secureMessaging = session
            throw error
        }
        defer { secureMessaging = session }
        return try session.unprotect(raw.bytes)
    }

    /// Selects the eMRTD application (SELECT by DF name, no answer data: Part 10 §3.6.2), protected
    /// when PACE has opened a session.
    /// - Throws: ``EMRTDError`` `.notAPassport` when the chip refuses it.
    package mutating func selectApplication() async throws(EMRTDError) {
        let answer = try await send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: LDSFile.applicationIdentifier))
        guard answer.statusWord == .success else {
            throw EMRTDError(.notAPassport, statusWord: answer.statusWord, "the chip has no eMRTD application (A0000002471001)")
        }
    }

    /// EF.CardAccess's PACEInfos, read plainly from the MF (ICAO Doc 9303 Part 10 §3.11.3), or
    /// `nil` when the chip has no EF.CardAccess (a BAC-only chip).
    /// - Throws: ``EMRTDError`` `.malformedFile`, `.transport`.
    package mutating func readCardAccess() async throws(EMRTDError) -> [PACEInfo]? {
        do {
            return try PACEInfo.parse(cardAccess: try await read(.cardAccess))
        } catch  where error.code == .fileNotFound || error.code == .securityStatusNotSatisfied || error.code == .unexpectedStatus {
            return nil
        }
    }

    /// Reads the whole of `file`: SELECT, the first four bytes for the length of its TLV, then the rest.
    /// - Throws: ``EMRTDError`` `.fileNotFound`, `.securityStatusNotSatisfied`, `.malformedFile`, …
    package mutating func read(_ file: LDSFile) async throws(EMRTDError) -> [UInt8] {
        let fid = file.fileIdentifier
        let selected = try await send(
            CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(fid >> 8), UInt8(fid & 0xFF)]))
        try Self.check(selected.statusWord, file: file, step: "SELECT")
        var content = try await readBinary(file, offset: 0, length: 4)
        guard content.count >= 2 else {
            throw EMRTDError(
                .malformedFile, file: file.description, "the file starts with \(content.count) byte(s), not a tag and a length")
        }
        let total = try Self.encodedLength(content, file: file)
        while content.count < total {
            let part = try await readBinary(file, offset: content.count, length: min(chunkSize, total - content.count))
            guard !part.isEmpty else {
                throw EMRTDError(.malformedFile, file: file.description, "the chip gave no data at offset \(content.count) of \(total)")
            }
            content += part
        }
        return Array(content.prefix(total))
    }

    /// One READ BINARY: P1-P2 holds offsets up to 32 767; beyond, the odd instruction `B1` with
    /// the offset in `DO'54'` and the data in `DO'53'` (ISO/IEC 7816-4 §11.2.3).
    mutating func readBinary(_ file: LDSFile, offset: Int, length: Int) async throws(EMRTDError) -> [UInt8] {
        if offset <= 0x7FFF {
            let answer = try await send(
                CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length))
            if answer.statusWord == .endOfFileReached { return answer.data }
            try Self.check(answer.statusWord, file: file, step: "READ BINARY at \(offset)")
            return answer.data
        }
        let offsetBytes = [
            UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset),
        ]
        let answer = try await send(
            CommandAPDU(ins: 0xB1, data: BERTLV(tag: 0x54, value: offsetBytes).encoded, expectedLength: min(length + 4, 256)))
        if answer.statusWord != .endOfFileReached { try Self.check(answer.statusWord, file: file, step: "READ BINARY at \(offset)") }
        do {
            guard let data = try BERTLV.parseAll(answer.data).first(tag: 0x53) else {
                throw EMRTDError(.malformedFile, file: file.description, "READ BINARY (B1) answered without DO'53'")
            }
            return data.value
        } catch let error as BERTLVError {
            throw EMRTDError(.malformedFile, file: file.description, "READ BINARY (B1): \(error)")
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw EMRTDError(.malformedFile, file: file.description, "\(error)")
        }
    }

    /// The whole length of a TLV from its first bytes: tag, length field and value.
    static func encodedLength(_ head: [UInt8], file: LDSFile) throws(EMRTDError) -> Int {
        guard head[0] == file.tag else {
            throw EMRTDError(.malformedFile, file: file.description, "the file starts with tag \(hex(head[0])), not \(hex(file.tag))")
        }
        let first = head[1]
        if first < 0x80 { return 2 + Int(first) }
        let count = Int(first & 0x7F)
        guard (1...3).contains(count), head.count >= 2 + count else {
            throw EMRTDError(.malformedFile, file: file.description, "length byte \(hex(first)) is not a definite length of 1-3 bytes")
        }
        return 2 + count + head[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Turns a refusal into its error.
    static func check(_ status: StatusWord, file: LDSFile, step: String) throws(EMRTDError) {
        switch status {
        case .success: return
        case StatusWord(rawValue: 0x6A82):
            throw EMRTDError(.fileNotFound, file: file.description, statusWord: status, "\(step): the document has no \(file)")
        case StatusWord(rawValue: 0x6982):
            throw EMRTDError(
                .securityStatusNotSatisfied, file: file.description, statusWord: status,
                "\(step): the chip requires further access rights (extended access control) for \(file)")
        default:
            throw EMRTDError(.unexpectedStatus, file: file.description, statusWord: status, "\(step) was refused")
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
