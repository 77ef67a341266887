import NFCBytes
import NFCCommandSets

/// ISO/IEC 15693-3 request frames and response parsing, as `TagConnection` carries them: the
/// request from its flags byte up to its parameters and the response from its flags byte, both
/// without CRC.
///
/// Every request the engine sends is addressed (flag 0x20, the UID least significant byte first)
/// at the high data rate (flag 0x02), so a second tag in the field never answers in its place.
enum Type5Frame {
    /// Request flags (ISO/IEC 15693-3 §7.3.1, Tables 3 and 4).
    enum RequestFlag {
        static let highDataRate: UInt8 = 0x02
        static let address: UInt8 = 0x20
        /// Reads: return the block security status with each block; writes and locks: answer
        /// after the reader's EOF (the T5T "special frame").
        static let option: UInt8 = 0x40
    }

    /// Response flag bit 0: an error code follows (ISO/IEC 15693-3 §7.4.1, Table 6).
    static let errorFlag: UInt8 = 0x01

    /// Command codes (ISO/IEC 15693-3:2019 §10.4, the extended forms with 16-bit block numbers
    /// included), from the shared command set.
    typealias Code = ISO15693CommandCode

    /// An addressed request: flags, command code, [leading parameter], UID (wire order), parameters.
    ///
    /// - Parameters:
    ///   - code: the command code.
    ///   - wireUID: the UID least significant byte first.
    ///   - option: the option flag.
    ///   - leading: a byte between the command code and the UID (Extended Get System Information's
    ///     parameter request field).
    ///   - parameters: what follows the UID.
    static func request(
        _ code: UInt8, wireUID: [UInt8], option: Bool = false, leading: UInt8? = nil, parameters: [UInt8] = []
    ) -> [UInt8] {
        var frame: [UInt8] = [RequestFlag.highDataRate | RequestFlag.address | (option ? RequestFlag.option : 0), code]
        if let leading { frame.append(leading) }
        frame += wireUID
        frame += parameters
        return frame
    }

    /// A block number as a request carries it: one byte, or two least significant first.
    static func blockNumber(_ number: Int, wide: Bool) -> [UInt8] {
        wide ? [UInt8(truncatingIfNeeded: number), UInt8(truncatingIfNeeded: number >> 8)] : [UInt8(truncatingIfNeeded: number)]
    }

    /// The payload of a response (what follows the flags byte), or the tag's error as a
    /// ``TagEngineError`` `.tagError` whose `tagStatus` is `[flags, error code]`.
    ///
    /// - Parameter command: what was asked, for the error's reason (`"Read Multiple Blocks 4–79"`).
    /// - Throws: `.unexpectedResponse` for an empty answer or an error flag without its code;
    ///   `.tagError` for an error response (ISO/IEC 15693-3 §7.4.2).
    static func payload(of answer: [UInt8], for command: String) throws(TagEngineError) -> ArraySlice<UInt8> {
        guard let flags = answer.first else {
            throw TagEngineError(.unexpectedResponse, "empty answer to \(command)")
        }
        if flags & errorFlag != 0 {
            guard answer.count >= 2 else {
                throw TagEngineError(
                    .unexpectedResponse, "answer to \(command) sets the error flag but carries no error code", tagStatus: [flags])
            }
            let code = answer[1]
            throw TagEngineError(
                .tagError, "\(command) refused: \(errorDescription(code)) (error 0x\(Hex.encode([code], uppercase: true)))",
                tagStatus: [flags, code]
            )
        }
        return answer.dropFirst()
    }

    /// The ISO 15693 error code in a `.tagError`, if that is what the error is.
    static func errorCode(of error: TagEngineError) -> UInt8? {
        guard error.code == .tagError, let status = error.tagStatus, status.count == 2 else { return nil }
        return status[1]
    }

    /// Error codes of ISO/IEC 15693-3 §7.4.2, Table 7.
    enum ErrorCode {
        static let notSupported: UInt8 = 0x01
        static let notRecognized: UInt8 = 0x02
        static let optionNotSupported: UInt8 = 0x03
        static let blockNotAvailable: UInt8 = 0x10
        static let alreadyLocked: UInt8 = 0x11
        static let lockedContent: UInt8 = 0x12
        static let notProgrammed: UInt8 = 0x13
        static let notLocked: UInt8 = 0x14
    }

    /// What an error code means (ISO/IEC 15693-3 §7.4.2, Table 7).
    static func errorDescription(_ code: UInt8) -> String {
        switch code {
        case 0x01: "the command is not supported"
        case 0x02: "the command is not recognised (format error)"
        case 0x03: "the option is not supported"
        case 0x0F: "unknown error"
        case 0x10: "the block is not available (does not exist)"
        case 0x11: "the block is already locked"
        case 0x12: "the block is locked and its content cannot be changed"
        case 0x13: "the block was not successfully programmed"
        case 0x14: "the block was not successfully locked"
        case 0xA0...0xDF: "custom command error"
        default: "reserved error code"
        }
    }

    /// A block or a range of blocks for messages: `4` or `4–79`.
    static func describe(blocks first: Int, count: Int) -> String {
        count == 1 ? "\(first)" : "\(first)–\(first + count - 1)"
    }
}
