import NFCBytes

/// Encodes NDEF messages, optionally chunking long payloads.
///
/// NFC Forum NDEF 1.0 §3.2: the short-record form is used whenever a payload (or chunk) is
/// under 256 bytes; IL is set only when there is an identifier.
public struct NDEFEncoder: Sendable {
    /// Records whose payload is longer than this are sent as chunks of this size; `nil` never chunks.
    public let chunkSize: Int?

    /// An encoder that chunks payloads longer than `chunkSize` bytes (`nil`, the default, never chunks;
    /// a size of 0 or less makes encoding throw ``NDEFError/Code/invalidValue``).
    public init(chunkSize: Int? = nil) {
        self.chunkSize = chunkSize
    }

    /// Encodes a message of one or more records.
    public func encode(_ message: NDEFMessage) throws(NDEFError) -> [UInt8] {
        let records = message.records
        guard !records.isEmpty else {
            throw NDEFError(.emptyMessage, "an NDEF message has at least one record")
        }
        var writer = ByteWriter(capacity: records.reduce(0) { $0 + $1.encodedLength(chunkSize: chunkSize) })
        let last = records.count - 1
        for (i, record) in records.enumerated() {
            do {
                try record.encode(into: &writer, messageBegin: i == 0, messageEnd: i == last, chunkSize: chunkSize)
            } catch {
                throw error.at(record: i)
            }
        }
        return writer.bytes
    }
}

extension NDEFRecord {
    /// The number of bytes this record takes on the wire when chunked at `chunkSize`.
    public func encodedLength(chunkSize: Int?) -> Int {
        func header(_ payload: Int) -> Int { 2 + (payload < 256 ? 1 : 4) }
        let idPart = identifierBytes.isEmpty ? 0 : 1 + identifierBytes.count
        if let size = chunkSize, size > 0, payloadBytes.count > size {
            let full = payloadBytes.count / size
            let rest = payloadBytes.count % size
            var total = typeBytes.count + idPart + payloadBytes.count
            total += full * header(size)
            if rest > 0 { total += header(rest) }
            return total
        }
        return header(payloadBytes.count) + typeBytes.count + idPart + payloadBytes.count
    }

    /// Appends this record's encoding.
    ///
    /// - Parameters:
    ///   - writer: the buffer the record's bytes are appended to.
    ///   - messageBegin: set MB (the first record of the message).
    ///   - messageEnd: set ME (the last record of the message).
    ///   - chunkSize: if the payload is longer, emit it as chunks of this many bytes (§2.3.3).
    public func encode(
        into writer: inout ByteWriter, messageBegin: Bool, messageEnd: Bool, chunkSize: Int? = nil
    ) throws(NDEFError) {
        try validate()
        if let size = chunkSize, size <= 0 {
            throw NDEFError(.invalidValue, "chunk size must be positive, got \(size)")
        }
        if let size = chunkSize, payloadBytes.count > size {
            var start = 0
            var first = true
            while start < payloadBytes.count {
                let end = min(start + size, payloadBytes.count)
                let isLast = end == payloadBytes.count
                var flags: NDEFRecordFlags = []
                if first && messageBegin { flags.insert(.messageBegin) }
                if isLast && messageEnd { flags.insert(.messageEnd) }
                if !isLast { flags.insert(.chunk) }
                if first {
                    Self.writeRecord(
                        into: &writer, flags: flags, format: typeNameFormat, type: typeBytes,
                        identifier: identifierBytes,
                        payload: payloadBytes[(payloadBytes.startIndex + start)..<(payloadBytes.startIndex + end)])
                } else {
                    Self.writeRecord(
                        into: &writer, flags: flags, format: .unchanged, type: [], identifier: [],
                        payload: payloadBytes[(payloadBytes.startIndex + start)..<(payloadBytes.startIndex + end)])
                }
                first = false
                start = end
            }
            return
        }
        var flags: NDEFRecordFlags = []
        if messageBegin { flags.insert(.messageBegin) }
        if messageEnd { flags.insert(.messageEnd) }
        Self.writeRecord(
            into: &writer, flags: flags, format: typeNameFormat, type: typeBytes, identifier: identifierBytes,
            payload: payloadBytes)
    }

    @inline(__always)
    private static func writeRecord(
        into writer: inout ByteWriter, flags: NDEFRecordFlags, format: NDEFTypeNameFormat,
        type: ArraySlice<UInt8>, identifier: ArraySlice<UInt8>, payload: ArraySlice<UInt8>
    ) {
        var flags = flags
        let short = payload.count < 256
        if short { flags.insert(.shortRecord) }
        if !identifier.isEmpty { flags.insert(.identifierLength) }
        writer.write(flags.rawValue | format.rawValue)
        writer.write(UInt8(truncatingIfNeeded: type.count))
        if short {
            writer.write(UInt8(truncatingIfNeeded: payload.count))
        } else {
            writer.write(UInt32(truncatingIfNeeded: payload.count))
        }
        if !identifier.isEmpty { writer.write(UInt8(truncatingIfNeeded: identifier.count)) }
        writer.write(contentsOf: type)
        writer.write(contentsOf: identifier)
        writer.write(contentsOf: payload)
    }
}
