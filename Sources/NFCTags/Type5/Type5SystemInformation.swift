import NFCBytes
import NFCTransport

/// What Get System Information (0x2B) or Extended Get System Information (0x3B) reports.
///
/// ISO/IEC 15693-3 §10.4.12: information flags, UID, then DSFID (flag bit 0), AFI (bit 1),
/// memory size (bit 2: number of blocks − 1, block size − 1) and IC reference (bit 3).
/// ISO/IEC 15693-3:2019, Extended Get System Information: the same fields with a 16-bit block
/// count (least significant byte first), then bit 4 (MOI, no field), the 4-byte command list
/// (bit 5) and further fields this engine does not use.
struct Type5SystemInformation: Sendable, Hashable {
    var dsfid: UInt8?
    var afi: UInt8?
    var blockCount: Int?
    var blockSize: Int?
    var icReference: UInt8?
    /// The command list of the extended form (ISO/IEC 15693-3:2019), 4 bytes, when asked for.
    var commandList: [UInt8]?

    /// The parameter request field this engine sends with Extended Get System Information:
    /// DSFID, AFI, memory size, IC reference and the command list (bits 0–3 and 5).
    static let extendedRequestField: UInt8 = 0x2F

    /// Parses the payload of an answer (after the response flags).
    ///
    /// - Parameters:
    ///   - payload: information flags, UID, fields.
    ///   - extended: the answer is to Extended Get System Information.
    ///   - wireUID: the UID the request addressed, least significant byte first; the answer must repeat it.
    /// - Throws: `.unexpectedResponse` naming the field that is missing or wrong.
    init(parsing payload: ArraySlice<UInt8>, extended: Bool, wireUID: [UInt8]) throws(TagEngineError) {
        let command = extended ? "Extended Get System Information" : "Get System Information"
        var reader = ByteReader(payload)
        do {
            let flags = try reader.readUInt8()
            let uid = try reader.readBytes(8)
            guard uid == wireUID else {
                throw TagEngineError(
                    .unexpectedResponse, "\(command) answered for UID \(Hex.encode(uid.reversed(), uppercase: true)), not the addressed tag"
                )
            }
            if flags & 0x01 != 0 { dsfid = try reader.readUInt8() }
            if flags & 0x02 != 0 { afi = try reader.readUInt8() }
            if flags & 0x04 != 0 {
                let blocks = extended ? Int(try reader.readUInt16LE()) : Int(try reader.readUInt8())
                blockCount = blocks + 1
                blockSize = Int(try reader.readUInt8() & 0x1F) + 1
            }
            if flags & 0x08 != 0 { icReference = try reader.readUInt8() }
            if extended, flags & 0x20 != 0 { commandList = try reader.readBytes(4) }
        } catch let error as ByteReaderError {
            throw TagEngineError(
                .unexpectedResponse,
                "\(command) answer of \(payload.count + 1) bytes is truncated: the field at byte \(error.offset) needs more")
        } catch let error as TagEngineError {
            throw error
        } catch {
            throw TagEngineError(.unexpectedResponse, "\(command): \(error)")
        }
    }

    init(
        dsfid: UInt8? = nil, afi: UInt8? = nil, blockCount: Int? = nil, blockSize: Int? = nil, icReference: UInt8? = nil,
        commandList: [UInt8]? = nil
    ) {
        self.dsfid = dsfid
        self.afi = afi
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.icReference = icReference
        self.commandList = commandList
    }

    /// Whether the command list says the tag implements Lock Block (byte 1 bit 2) — `nil` when
    /// the tag did not send a command list.
    var supportsLockBlock: Bool? {
        guard let first = commandList?.first else { return nil }
        return first & 0x04 != 0
    }

    /// Whether the command list says the tag implements Read Multiple Blocks (byte 1 bit 3).
    var supportsReadMultipleBlocks: Bool? {
        guard let first = commandList?.first else { return nil }
        return first & 0x08 != 0
    }
}

extension Type5SystemInformation {
    /// Why the memory size is unknown, then `consequence`: a reader that carries only READ and
    /// WRITE (PC/SC pseudo-APDUs) never sends Get System Information, so that reader is named.
    static func noMemorySize(limits: ExchangeLimits, _ consequence: String) -> String {
        if case .readAndWriteOnly = limits.nativeCommands {
            return
                "\(limits.readerPhrase) carries READ and WRITE only, so Get System Information cannot be sent: the memory size is unknown, \(consequence)"
        }
        return "the tag reports no memory size (Get System Information and its extended form), \(consequence)"
    }
}
