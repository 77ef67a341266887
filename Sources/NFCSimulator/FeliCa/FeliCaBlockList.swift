import NFCBytes

/// One element of a FeliCa block list: which service (by its order in the Service Code List),
/// the access mode, and the block number.
///
/// D0 bit 7 is the length flag (1: a 2-byte element with a 1-byte block number, 0: a 3-byte
/// element with a 2-byte little-endian block number), bits 6–4 the access mode, bits 3–0 the
/// Service Code List order (FeliCa Card User's Manual Excerpted Edition v2.0 §4.3.2, Figure 4-5).
struct FeliCaBlockListElement: Sendable, Hashable {
    var serviceOrder: Int
    var accessMode: UInt8
    var blockNumber: UInt16
    var isThreeByte: Bool

    /// Reads one element (2 or 3 bytes).
    init(parsing reader: inout ByteReader) throws(ByteReaderError) {
        let d0 = try reader.readUInt8()
        serviceOrder = Int(d0 & 0x0F)
        accessMode = (d0 >> 4) & 0x07
        if d0 & 0x80 != 0 {
            isThreeByte = false
            blockNumber = UInt16(try reader.readUInt8())
        } else {
            isThreeByte = true
            blockNumber = try reader.readUInt16LE()
        }
    }
}

/// The Service Code List, block list and (for writes) block data of a Read or Write Without
/// Encryption command, after the IDm.
///
/// Layout: Number of Service (1), Service Code List (2 each, little endian), Number of Block (1),
/// block list (2 or 3 bytes each), then 16 bytes per block for a write (FeliCa Card User's
/// Manual Excerpted Edition v2.0 §4.4.5 and §4.4.6).
struct FeliCaBlockRequest: Sendable, Hashable {
    var serviceCodes: [UInt16]
    var elements: [FeliCaBlockListElement]
    /// One 16-byte block per element (empty for a read).
    var blockData: [[UInt8]]

    /// What parsing a block request leads to.
    enum Outcome: Sendable, Hashable {
        case request(FeliCaBlockRequest)
        /// The card answers with these status flags.
        case status(FeliCaStatus)
        /// The packet's length disagrees with its lists: the card drops it without answering.
        case malformed
    }

    /// Parses the bytes after the IDm, checking Number of Service and Number of Block first as
    /// the card does (a count out of range is answered with `FF A1` / `FF A2` whatever follows).
    static func parse(
        _ body: ArraySlice<UInt8>, serviceLimit: Int, blockLimit: Int, carriesData: Bool
    ) -> Outcome {
        var reader = ByteReader(body)
        do {
            let serviceCount = Int(try reader.readUInt8())
            guard (1...serviceLimit).contains(serviceCount) else {
                return .status(.general(.illegalNumberOfService))
            }
            var services: [UInt16] = []
            for _ in 0..<serviceCount { services.append(try reader.readUInt16LE()) }
            let blockCount = Int(try reader.readUInt8())
            guard (1...blockLimit).contains(blockCount) else {
                return .status(.general(.illegalNumberOfBlock))
            }
            var elements: [FeliCaBlockListElement] = []
            for _ in 0..<blockCount { elements.append(try FeliCaBlockListElement(parsing: &reader)) }
            var data: [[UInt8]] = []
            if carriesData {
                for _ in 0..<blockCount { data.append(try reader.readBytes(16)) }
            }
            guard reader.isAtEnd else { return .malformed }
            return .request(FeliCaBlockRequest(serviceCodes: services, elements: elements, blockData: data))
        } catch {
            return .malformed
        }
    }
}

/// An addressed FeliCa command: code, IDm, parameters (every command but Polling).
struct FeliCaAddressedCommand: Sendable, Hashable {
    var code: UInt8
    var idm: [UInt8]
    var parameters: ArraySlice<UInt8>

    /// Splits a frame (command code first, no LEN, no CRC); `nil` when shorter than code + IDm.
    init?(_ frame: [UInt8]) {
        guard frame.count >= 9 else { return nil }
        code = frame[0]
        idm = Array(frame[1..<9])
        parameters = frame[9...]
    }
}

extension FeliCaStatus {
    /// The response to a block command: response code, IDm, the flags, and on success the data.
    static func response(code: UInt8, idm: [UInt8], status: FeliCaStatus, blocks: [[UInt8]]? = nil) -> [UInt8] {
        var writer = ByteWriter(capacity: 12 + 16 * (blocks?.count ?? 0))
        writer.write(code)
        writer.write(contentsOf: idm)
        writer.write(contentsOf: status.bytes)
        if status.isSuccess, let blocks {
            writer.write(UInt8(truncatingIfNeeded: blocks.count))
            for block in blocks { writer.write(contentsOf: block) }
        }
        return writer.bytes
    }
}
