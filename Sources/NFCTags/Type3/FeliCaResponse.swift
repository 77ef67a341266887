import NFCBytes

/// Parsers for the FeliCa responses the Type 3 engine consumes. Every byte is checked before use:
/// a short, long or foreign answer is `.unexpectedResponse`, status flags other than `00 00` are
/// `.tagError` carrying `[SF1, SF2]`.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §4.4 (response formats) and §4.5 (status
/// flags); FeliCa Lite-S User's Manual §4.4–§4.5.
enum FeliCaResponse {
    /// What a Polling answer tells: `01 IDm(8) PMm(8) [request data(2)]`.
    struct Polling: Sendable, Hashable {
        var idm: [UInt8]
        var pmm: [UInt8]
        /// The system code, when the card appended it (request code `01`).
        var systemCode: UInt16?
    }

    /// Parses a Polling response.
    static func polling(_ answer: [UInt8]) throws(TagEngineError) -> Polling {
        guard answer.count == 17 || answer.count == 19 else {
            throw unexpected("Polling answer of \(answer.count) bytes, expected 17 or 19")
        }
        guard answer[0] == 0x01 else {
            throw unexpected("Polling answer with response code \(hex(answer[0])), expected 01")
        }
        let idm = Array(answer[1..<9])
        let pmm = Array(answer[9..<17])
        let systemCode = answer.count == 19 ? UInt16(answer[17]) << 8 | UInt16(answer[18]) : nil
        return Polling(idm: idm, pmm: pmm, systemCode: systemCode)
    }

    /// Parses a Read Without Encryption response for `blocks` and returns their data in order.
    ///
    /// `07 IDm(8) SF1 SF2 [n data(16 n)]`: the block data follows only when both flags are `00`.
    static func read(_ answer: [UInt8], idm: [UInt8], blocks: [UInt16]) throws(TagEngineError) -> [[UInt8]] {
        let what = "Read Without Encryption of block\(blocks.count == 1 ? "" : "s") \(list(blocks))"
        try header(answer, code: 0x07, idm: idm, what: what)
        guard answer.count >= 12 else {
            throw unexpected("\(what): the answer ends after the status flags (byte 11 missing)")
        }
        let count = Int(answer[11])
        guard count == blocks.count else {
            throw unexpected("\(what): the answer holds \(count) blocks (byte 11), \(blocks.count) were asked for")
        }
        let expected = 12 + 16 * count
        guard answer.count == expected else {
            throw unexpected("\(what): answer of \(answer.count) bytes, expected \(expected)")
        }
        return (0..<count).map { index in Array(answer[(12 + 16 * index)..<(28 + 16 * index)]) }
    }

    /// Checks a Write Without Encryption response: `09 IDm(8) SF1 SF2`.
    static func write(_ answer: [UInt8], idm: [UInt8], blocks: [UInt16]) throws(TagEngineError) {
        let what = "Write Without Encryption of block\(blocks.count == 1 ? "" : "s") \(list(blocks))"
        try header(answer, code: 0x09, idm: idm, what: what)
        guard answer.count == 11 else {
            throw unexpected("\(what): answer of \(answer.count) bytes, expected 11")
        }
    }

    /// Parses a Request System Code response: `0D IDm(8) n codes(2 n, big endian)`.
    static func systemCodes(_ answer: [UInt8], idm: [UInt8]) throws(TagEngineError) -> [UInt16] {
        guard answer.count >= 10 else {
            throw unexpected("Request System Code answer of \(answer.count) bytes, shorter than 10")
        }
        guard answer[0] == 0x0D else {
            throw unexpected("Request System Code answer with response code \(hex(answer[0])), expected 0D")
        }
        guard Array(answer[1..<9]) == idm else {
            throw unexpected("Request System Code answered by IDm \(Hex.encode(answer[1..<9], uppercase: true))")
        }
        let count = Int(answer[9])
        guard answer.count == 10 + 2 * count else {
            throw unexpected("Request System Code: \(count) codes announced (byte 9) in \(answer.count) bytes")
        }
        return (0..<count).map { UInt16(answer[10 + 2 * $0]) << 8 | UInt16(answer[11 + 2 * $0]) }
    }

    // MARK: Helpers

    /// Checks the response code, the IDm and the status flags of a block command's answer.
    private static func header(_ answer: [UInt8], code: UInt8, idm: [UInt8], what: String) throws(TagEngineError) {
        guard answer.count >= 11 else {
            throw unexpected("\(what): answer of \(answer.count) bytes, shorter than the 11-byte header")
        }
        guard answer[0] == code else {
            throw unexpected("\(what): response code \(hex(answer[0])), expected \(hex(code))")
        }
        guard Array(answer[1..<9]) == idm else {
            throw unexpected(
                "\(what): answered by IDm \(Hex.encode(answer[1..<9], uppercase: true)), expected \(Hex.encode(idm, uppercase: true))")
        }
        let flags = [answer[9], answer[10]]
        guard flags == [0x00, 0x00] else {
            throw TagEngineError(
                .tagError, "\(what): status flags \(hex(flags[0])) \(hex(flags[1])) (\(meaning(flags[1])))", tagStatus: flags
            )
        }
    }

    /// What Status Flag 2 says (§4.5, Table 4-4; `B1`/`B2` from the FeliCa Lite-S User's Manual).
    static func meaning(_ flag2: UInt8) -> String {
        switch flag2 {
        case 0x01: "purse value out of range"
        case 0x02: "cashback exceeds the cashback data"
        case 0x70: "memory error"
        case 0x71: "memory write count exceeded"
        case 0xA1: "illegal Number of Service"
        case 0xA2: "illegal Number of Block"
        case 0xA3: "illegal Service Code List order"
        case 0xA4: "illegal Service Code attribute"
        case 0xA5: "access not allowed"
        case 0xA6: "illegal Service Code"
        case 0xA7: "illegal access mode"
        case 0xA8: "illegal block number"
        case 0xA9: "write failed"
        case 0xAF: "too many cyclic writes"
        case 0xB1: "authentication required"
        case 0xB2: "MAC verification failed"
        default: "unknown error"
        }
    }

    private static func unexpected(_ reason: String) -> TagEngineError {
        TagEngineError(.unexpectedResponse, reason)
    }

    private static func hex(_ byte: UInt8) -> String { Hex.encode([byte], uppercase: true) }

    /// Block numbers as people read them: `0, 1, 2, 0x88`.
    static func list(_ blocks: [UInt16]) -> String {
        blocks.map { block in
            if block < 0x80 { return "\(block)" }
            let bytes = block < 0x100 ? [UInt8(block)] : [UInt8(block >> 8), UInt8(block & 0xFF)]
            return "0x" + Hex.encode(bytes, uppercase: true)
        }.joined(separator: ", ")
    }
}
