/// Decodes NDEF messages from bytes, reassembling chunked records.
///
/// NFC Forum NDEF 1.0 §3.2 (record layout), §2.3.3 and §3.2.3 (chunking), §2.5 (a parser must
/// reject what it cannot interpret). Offsets in errors are indices of the input; for a message
/// nested in a record (Smart Poster, Handover) they are offsets within that record's payload.
public struct NDEFDecoder: Sendable {
    /// The mode and limits in force.
    public let options: NDEFDecodingOptions

    /// A decoder with `options` (by default strict, with the default limits).
    @inlinable
    public init(options: NDEFDecodingOptions = .strict) {
        self.options = options
    }

    /// Decodes a whole message.
    public func decode(_ bytes: [UInt8]) throws(NDEFError) -> NDEFMessage {
        NDEFMessage(records: try decodeRecords(bytes[...]))
    }

    /// A chunked record being reassembled.
    private struct PendingChunk {
        var typeNameFormat: NDEFTypeNameFormat
        var type: ArraySlice<UInt8>
        var identifier: ArraySlice<UInt8>
        var payload: [UInt8]
    }

    /// Decodes the records of a message (nested `options.depth` levels deep).
    public func decodeRecords(_ bytes: ArraySlice<UInt8>) throws(NDEFError) -> [NDEFRecord] {
        let strict = options.isStrict
        guard options.depth <= options.maxNestingDepth else {
            throw NDEFError(
                .limitExceeded, "messages nested more than \(options.maxNestingDepth) deep",
                offset: bytes.startIndex)
        }
        guard bytes.count <= options.maxMessageSize else {
            throw NDEFError(
                .limitExceeded,
                "message of \(bytes.count) bytes exceeds the limit of \(options.maxMessageSize)",
                offset: bytes.startIndex)
        }
        if bytes.isEmpty {
            if strict { throw NDEFError(.emptyMessage, "no records", offset: bytes.startIndex) }
            return []
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(NDEFError) -> [NDEFRecord] in
            try decode(buffer, viewing: bytes, strict: strict)
        }
    }

    /// The record loop over raw memory: every read is bounds-checked against `buffer.count` by hand
    /// (no retain/release per field, which dominated the cost of slice-based reading). `buffer`
    /// holds the bytes of `input`; each record's fields are slices of `input` (views of its
    /// array, no copies), a chunked record's reassembled payload excepted.
    private func decode(_ buffer: UnsafeBufferPointer<UInt8>, viewing input: ArraySlice<UInt8>, strict: Bool) throws(NDEFError)
        -> [NDEFRecord]
    {
        let base = input.startIndex
        let count = buffer.count
        var p = 0
        var records: [NDEFRecord] = []
        var pending: PendingChunk? = nil
        var rawCount = 0

        @inline(__always) func view(_ from: Int, _ length: Int) -> ArraySlice<UInt8> {
            input[(base + from)..<(base + from + length)]
        }

        while true {
            let start = p
            let index = records.count
            rawCount += 1
            if rawCount > options.maxRecordCount {
                throw NDEFError(
                    .limitExceeded, "more than \(options.maxRecordCount) records", offset: base + start,
                    recordIndex: index)
            }
            // Header: flags+TNF, TYPE_LENGTH, PAYLOAD_LENGTH (1 or 4 bytes), ID_LENGTH if IL.
            guard p + 2 <= count else {
                throw NDEFError(.truncated, "record header: input ends at offset \(base + count)", offset: base + count, recordIndex: index)
            }
            let header = buffer[p]
            let typeLength = Int(buffer[p + 1])
            p += 2
            let short = header & NDEFRecordFlags.shortRecord.rawValue != 0
            let hasID = header & NDEFRecordFlags.identifierLength.rawValue != 0
            let lengthBytes = (short ? 1 : 4) + (hasID ? 1 : 0)
            guard p + lengthBytes <= count else {
                throw NDEFError(.truncated, "record header: input ends at offset \(base + count)", offset: base + count, recordIndex: index)
            }
            let payloadLength: Int
            if short {
                payloadLength = Int(buffer[p])
                p += 1
            } else {
                payloadLength = Int(buffer[p]) << 24 | Int(buffer[p + 1]) << 16 | Int(buffer[p + 2]) << 8 | Int(buffer[p + 3])
                p += 4
            }
            var identifierLength = 0
            if hasID {
                identifierLength = Int(buffer[p])
                p += 1
            }
            let typeOffset = p
            let fieldsLength = typeLength + identifierLength + payloadLength
            guard fieldsLength <= count - p else {
                throw NDEFError(
                    .truncated,
                    "record fields (type \(typeLength), id \(identifierLength), payload \(payloadLength) bytes) need \(fieldsLength) bytes, \(count - p) remain",
                    offset: base + typeOffset, recordIndex: index)
            }
            let identifierOffset = typeOffset + typeLength
            let payloadOffset = identifierOffset + identifierLength
            p = payloadOffset + payloadLength
            let flags = NDEFRecordFlags(rawValue: header)
            var format = NDEFTypeNameFormat(rawValue: header & 0x07) ?? .reserved

            // MB: only on the first record (§3.2.1).
            if strict {
                if rawCount == 1 && !flags.contains(.messageBegin) {
                    throw NDEFError(.missingMessageBegin, "first record lacks the MB flag", offset: base + start, recordIndex: index)
                }
                if rawCount > 1 && flags.contains(.messageBegin) {
                    throw NDEFError(
                        .unexpectedMessageBegin, "MB flag on a record after the first", offset: base + start, recordIndex: index)
                }
            }
            if format == .reserved {
                if strict {
                    throw NDEFError(.reservedTypeNameFormat, "TNF 7 is reserved", offset: base + start, recordIndex: index)
                }
                format = .unknown
            }

            if var chunk = pending {
                // A middle or terminating chunk (§2.3.3): TNF unchanged, no type, no IL.
                guard format == .unchanged else {
                    throw NDEFError(
                        .invalidChunk, "a later chunk must have TNF 6 (unchanged), found \(format)",
                        offset: base + start, recordIndex: index)
                }
                guard typeLength == 0 else {
                    throw NDEFError(.invalidChunk, "a later chunk must have no type", offset: base + typeOffset, recordIndex: index)
                }
                guard identifierLength == 0 else {
                    throw NDEFError(.invalidChunk, "a later chunk must have no identifier", offset: base + start, recordIndex: index)
                }
                if strict && hasID {
                    throw NDEFError(.invalidChunk, "a later chunk must not set IL", offset: base + start, recordIndex: index)
                }
                pending = nil  // release the buffer's second reference so appending does not copy
                chunk.payload.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[payloadOffset..<(payloadOffset + payloadLength)]))
                if flags.contains(.chunk) {
                    if flags.contains(.messageEnd) {
                        throw NDEFError(.invalidChunk, "ME flag on a middle chunk", offset: base + start, recordIndex: index)
                    }
                    pending = chunk
                } else {
                    records.append(
                        NDEFRecord(
                            typeNameFormat: chunk.typeNameFormat, typeBytes: chunk.type,
                            identifierBytes: chunk.identifier, payloadBytes: chunk.payload[...]))
                }
            } else {
                var keepType = true
                switch format {
                case .unchanged:
                    throw NDEFError(
                        .invalidChunk, "TNF 6 (unchanged) outside a chunked record", offset: base + start, recordIndex: index)
                case .empty:
                    if typeLength != 0 || identifierLength != 0 || payloadLength != 0 {
                        throw NDEFError(
                            .fieldNotAllowed, "an empty record (TNF 0) must have zero type, id and payload lengths",
                            offset: base + start, recordIndex: index)
                    }
                    if flags.contains(.chunk) {
                        throw NDEFError(.invalidChunk, "an empty record cannot be chunked", offset: base + start, recordIndex: index)
                    }
                case .unknown:
                    if typeLength != 0 {
                        if strict {
                            throw NDEFError(
                                .fieldNotAllowed, "an unknown record (TNF 5) must have no type", offset: base + typeOffset,
                                recordIndex: index)
                        }
                        keepType = false
                    }
                case .wellKnown, .media, .absoluteURI, .external:
                    if typeLength == 0 && strict {
                        throw NDEFError(.missingType, "a \(format) record needs a type", offset: base + start, recordIndex: index)
                    }
                case .reserved:
                    break  // mapped to unknown above
                }
                let type = keepType ? view(typeOffset, typeLength) : []
                let identifier = view(identifierOffset, identifierLength)
                if flags.contains(.chunk) {
                    if flags.contains(.messageEnd) {
                        throw NDEFError(.invalidChunk, "ME flag on the first chunk", offset: base + start, recordIndex: index)
                    }
                    // The chunks' payloads are reassembled into an array of the record's own.
                    let first = Array(UnsafeBufferPointer(rebasing: buffer[payloadOffset..<(payloadOffset + payloadLength)]))
                    pending = PendingChunk(typeNameFormat: format, type: type, identifier: identifier, payload: first)
                } else {
                    records.append(
                        NDEFRecord(
                            typeNameFormat: format, typeBytes: type, identifierBytes: identifier,
                            payloadBytes: view(payloadOffset, payloadLength)))
                }
            }

            if flags.contains(.messageEnd) {
                break
            }
            if p == count {
                if pending != nil {
                    throw NDEFError(
                        .truncated, "the input ends inside a chunked record", offset: base + p,
                        recordIndex: records.count)
                }
                if strict {
                    throw NDEFError(
                        .truncated, "the input ends before a record with the ME flag", offset: base + p,
                        recordIndex: records.count)
                }
                break
            }
        }
        if p != count && strict {
            throw NDEFError(
                .trailingBytes, "\(count - p) bytes follow the record with the ME flag",
                offset: base + p, recordIndex: records.count)
        }
        return records
    }
}
