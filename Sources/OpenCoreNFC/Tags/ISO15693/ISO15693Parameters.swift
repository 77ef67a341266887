import Foundation

/// Checks of the caller's parameters before anything goes on air, and the splitting of
/// multiple-block answers.
@available(iOS 13.0, *)
extension ISO15693TagObject {
    /// The first block and count of a range: the count must be at least 1, the blocks must exist in
    /// a block number field of `wide` (2 bytes) or 1 byte, and the count fit the number-of-blocks
    /// field (count − 1, same width; ISO/IEC 15693-3 §10.4.3).
    static func blocks(_ range: NSRange, wide: Bool) throws(NFCReaderError) -> (first: Int, count: Int) {
        let limit = wide ? 0x10000 : 0x100
        guard range.length > 0 else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "a block range needs at least one block")
        }
        guard range.location >= 0, range.location < limit, range.length <= limit - range.location else {
            throw NFCReaderError(
                .readerErrorParameterOutOfBound,
                reason: "blocks \(range.location)…\(range.location + range.length - 1) lie beyond block \(limit - 1)")
        }
        return (range.location, range.length)
    }

    /// A block number of one byte, or two least significant first (extended commands).
    static func blockNumber(_ number: Int, wide: Bool) throws(NFCReaderError) -> [UInt8] {
        guard number >= 0, number < (wide ? 0x10000 : 0x100) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, reason: "block number \(number) is out of range")
        }
        return wide ? [UInt8(number & 0xFF), UInt8(number >> 8)] : [UInt8(number)]
    }

    /// The parameters of a multiple-block command: first block, number of blocks − 1.
    static func rangeParameters(_ range: NSRange, wide: Bool) throws(NFCReaderError) -> [UInt8] {
        let (first, count) = try blocks(range, wide: wide)
        return try blockNumber(first, wide: wide) + blockNumber(count - 1, wide: wide)
    }

    /// A value that must fit one byte.
    static func byte(_ value: Int, _ name: String) throws(NFCReaderError) -> UInt8 {
        guard let byte = UInt8(exactly: value) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, reason: "\(name) \(value) does not fit one byte")
        }
        return byte
    }

    /// A block of data to write: not empty, and of the block size when Get System Information has
    /// told it.
    func checkedBlock(_ data: Data) throws(NFCReaderError) -> [UInt8] {
        let known = learntBlockSize.withLock { $0 }
        guard !data.isEmpty, known == nil || data.count == known else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "a data block of \(data.count) bytes")
        }
        return [UInt8](data)
    }

    /// The blocks to write: as many as the range holds, all of one non-zero size.
    func checkedBlocks(_ blocks: [Data], count: Int) throws(NFCReaderError) -> [UInt8] {
        guard blocks.count == count else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "\(blocks.count) data blocks for a range of \(count)")
        }
        var bytes: [UInt8] = []
        for block in blocks {
            let checked = try checkedBlock(block)
            guard checked.count == blocks[0].count else {
                throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "data blocks of different sizes")
            }
            bytes += checked
        }
        return bytes
    }

    /// Splits a multiple-block answer of at most `count` blocks into blocks, each with its security
    /// status byte first when `option` is set. The block size is the one Get System Information
    /// told, or the answer's length over `count`; a length that does not divide is an error.
    func split(_ payload: [UInt8], count: Int, option: Bool) throws(NFCReaderError) -> [Data] {
        let status = option ? 1 : 0
        let stride: Int
        if let known = learntBlockSize.withLock({ $0 }) {
            stride = known + status
        } else {
            guard payload.count % count == 0 else { throw Self.badLength(payload.count, count) }
            stride = payload.count / count
        }
        guard stride > status, !payload.isEmpty, payload.count % stride == 0, payload.count / stride <= count else {
            throw Self.badLength(payload.count, count)
        }
        return Swift.stride(from: 0, to: payload.count, by: stride).map { Data(payload[$0..<($0 + stride)]) }
    }

    static func badLength(_ length: Int, _ count: Int) -> NFCReaderError {
        NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "an answer of \(length) bytes does not hold \(count) block(s)")
    }
}
