import NFCBytes

/// Decodes NDEF messages from bytes, reassembling chunked records.
///
/// NFC Forum NDEF 1.0 §3.2 (record layout), §2.3.3 and §3.2.3 (chunking), §2.5 (a parser must
/// reject what it cannot interpret). Offsets in errors are indices of the input; for a message
/// nested in a record (Smart Poster, Handover) they are offsets within that record's payload.
public struct NDEFDecoder: Sendable {
    /// The mode and limits in force.
    public let options: NDEFDecodingOptions

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
        var type: [UInt8]
        var identifier: [UInt8]
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
        var reader = ByteReader(bytes)
        var records: [NDEFRecord] = []
        var pending: PendingChunk? = nil
        var rawCount = 0

        while true {
            let start = reader.offset
            let index = records.count
            rawCount += 1
            if rawCount > options.maxRecordCount {
                throw NDEFError(
                    .limitExceeded, "more than \(options.maxRecordCount) records", offset: start,
                    recordIndex: index)
            }
            let header: UInt8
            let typeLength: Int
            let payloadLength: Int
            var identifierLength = 0
            do {
                header = try reader.readUInt8()
                typeLength = Int(try reader.readUInt8())
                if header & NDEFRecordFlags.shortRecord.rawValue != 0 {
                    payloadLength = Int(try reader.readUInt8())
                } else {
                    payloadLength = Int(try reader.readUInt32())
                }
                if header & NDEFRecordFlags.identifierLength.rawValue != 0 {
                    identifierLength = Int(try reader.readUInt8())
                }
            } catch {
                throw NDEFError(.truncated, "record header: \(error)", offset: error.offset, recordIndex: index)
            }
            let flags = NDEFRecordFlags(rawValue: header)
            var format = NDEFTypeNameFormat(rawValue: header & 0x07) ?? .reserved
            let typeOffset = reader.offset
            let type: ArraySlice<UInt8>
            let identifier: ArraySlice<UInt8>
            let payload: ArraySlice<UInt8>
            do {
                type = try reader.readSlice(typeLength)
                identifier = try reader.readSlice(identifierLength)
                payload = try reader.readSlice(payloadLength)
            } catch {
                throw NDEFError(
                    .truncated, "record fields (type \(typeLength), id \(identifierLength), payload \(payloadLength) bytes): \(error)",
                    offset: error.offset, recordIndex: index)
            }

            // MB: only on the first record (§3.2.1).
            if strict {
                if rawCount == 1 && !flags.contains(.messageBegin) {
                    throw NDEFError(.missingMessageBegin, "first record lacks the MB flag", offset: start, recordIndex: index)
                }
                if rawCount > 1 && flags.contains(.messageBegin) {
                    throw NDEFError(.unexpectedMessageBegin, "MB flag on a record after the first", offset: start, recordIndex: index)
                }
            }
            if format == .reserved {
                if strict {
                    throw NDEFError(.reservedTypeNameFormat, "TNF 7 is reserved", offset: start, recordIndex: index)
                }
                format = .unknown
            }

            if var chunk = pending {
                // A middle or terminating chunk (§2.3.3): TNF unchanged, no type, no IL.
                guard format == .unchanged else {
                    throw NDEFError(
                        .invalidChunk, "a later chunk must have TNF 6 (unchanged), found \(format)",
                        offset: start, recordIndex: index)
                }
                guard typeLength == 0 else {
                    throw NDEFError(.invalidChunk, "a later chunk must have no type", offset: typeOffset, recordIndex: index)
                }
                guard !flags.contains(.identifierLength) || identifierLength == 0 else {
                    throw NDEFError(.invalidChunk, "a later chunk must have no identifier", offset: start, recordIndex: index)
                }
                if strict && flags.contains(.identifierLength) {
                    throw NDEFError(.invalidChunk, "a later chunk must not set IL", offset: start, recordIndex: index)
                }
                chunk.payload.append(contentsOf: payload)
                if flags.contains(.chunk) {
                    if flags.contains(.messageEnd) {
                        throw NDEFError(.invalidChunk, "ME flag on a middle chunk", offset: start, recordIndex: index)
                    }
                    pending = chunk
                } else {
                    records.append(
                        NDEFRecord(
                            typeNameFormat: chunk.typeNameFormat, type: chunk.type,
                            identifier: chunk.identifier, payload: chunk.payload))
                    pending = nil
                }
            } else {
                var type = type
                switch format {
                case .unchanged:
                    throw NDEFError(
                        .invalidChunk, "TNF 6 (unchanged) outside a chunked record", offset: start, recordIndex: index)
                case .empty:
                    if typeLength != 0 || identifierLength != 0 || payloadLength != 0 {
                        throw NDEFError(
                            .fieldNotAllowed, "an empty record (TNF 0) must have zero type, id and payload lengths",
                            offset: start, recordIndex: index)
                    }
                    if flags.contains(.chunk) {
                        throw NDEFError(.invalidChunk, "an empty record cannot be chunked", offset: start, recordIndex: index)
                    }
                case .unknown:
                    if typeLength != 0 {
                        if strict {
                            throw NDEFError(
                                .fieldNotAllowed, "an unknown record (TNF 5) must have no type", offset: typeOffset,
                                recordIndex: index)
                        }
                        type = []
                    }
                case .wellKnown, .media, .absoluteURI, .external:
                    if typeLength == 0 && strict {
                        throw NDEFError(.missingType, "a \(format) record needs a type", offset: start, recordIndex: index)
                    }
                case .reserved:
                    break  // mapped to unknown above
                }
                if flags.contains(.chunk) {
                    if flags.contains(.messageEnd) {
                        throw NDEFError(.invalidChunk, "ME flag on the first chunk", offset: start, recordIndex: index)
                    }
                    pending = PendingChunk(
                        typeNameFormat: format, type: Array(type), identifier: Array(identifier),
                        payload: Array(payload))
                } else {
                    records.append(
                        NDEFRecord(
                            typeNameFormat: format, type: type.isEmpty ? [] : Array(type),
                            identifier: identifier.isEmpty ? [] : Array(identifier),
                            payload: payload.isEmpty ? [] : Array(payload)))
                }
            }

            if flags.contains(.messageEnd) {
                break
            }
            if reader.isAtEnd {
                if pending != nil {
                    throw NDEFError(
                        .truncated, "the input ends inside a chunked record", offset: reader.offset,
                        recordIndex: records.count)
                }
                if strict {
                    throw NDEFError(
                        .truncated, "the input ends before a record with the ME flag", offset: reader.offset,
                        recordIndex: records.count)
                }
                break
            }
        }
        if !reader.isAtEnd && strict {
            throw NDEFError(
                .trailingBytes, "\(reader.remaining) bytes follow the record with the ME flag",
                offset: reader.offset, recordIndex: records.count)
        }
        return records
    }
}
