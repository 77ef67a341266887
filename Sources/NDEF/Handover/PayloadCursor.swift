import NFCBytes

/// A ``ByteReader`` over a record payload whose errors are ``NDEFError``s naming the field.
///
/// Used by the Handover, Wi-Fi and Bluetooth views: running out of bytes becomes
/// ``NDEFError/Code/truncated`` with the payload offset and the field that was being read.
struct PayloadCursor {
    private(set) var reader: ByteReader
    /// The record's name for error reasons ("Alternative Carrier", …).
    let context: String

    init(_ bytes: ArraySlice<UInt8>, context: String) {
        self.reader = ByteReader(bytes)
        self.context = context
    }

    var isAtEnd: Bool { reader.isAtEnd }
    var remaining: Int { reader.remaining }
    var offset: Int { reader.offset }

    private func truncated(_ field: String, _ error: ByteReaderError) -> NDEFError {
        NDEFError(.truncated, "\(context): \(field): \(error)", offset: error.offset)
    }

    mutating func uint8(_ field: String) throws(NDEFError) -> UInt8 {
        do { return try reader.readUInt8() } catch { throw truncated(field, error) }
    }

    mutating func uint16(_ field: String) throws(NDEFError) -> UInt16 {
        do { return try reader.readUInt16() } catch { throw truncated(field, error) }
    }

    mutating func uint16LE(_ field: String) throws(NDEFError) -> UInt16 {
        do { return try reader.readUInt16LE() } catch { throw truncated(field, error) }
    }

    mutating func slice(_ count: Int, _ field: String) throws(NDEFError) -> ArraySlice<UInt8> {
        do { return try reader.readSlice(count) } catch { throw truncated(field, error) }
    }

    mutating func bytes(_ count: Int, _ field: String) throws(NDEFError) -> [UInt8] {
        Array(try slice(count, field))
    }

    mutating func rest() -> ArraySlice<UInt8> { reader.readRemaining() }

    /// An ``NDEFError/Code/invalidPayload`` error at the current offset (or a given one).
    func invalid(_ reason: String, at offset: Int? = nil) -> NDEFError {
        NDEFError(.invalidPayload, "\(context): \(reason)", offset: offset ?? reader.offset)
    }

    /// Throws ``NDEFError/Code/invalidPayload`` in strict mode when bytes are left over.
    func expectEnd(strict: Bool, after field: String) throws(NDEFError) {
        if strict && !reader.isAtEnd {
            throw invalid("\(reader.remaining) unexpected byte(s) after the \(field)")
        }
    }
}

/// Appends a one-byte length followed by the bytes, or throws when they exceed 255.
func writeShortLengthPrefixed(
    _ bytes: [UInt8], into writer: inout ByteWriter, field: String
) throws(NDEFError) {
    guard bytes.count <= 255 else {
        throw NDEFError(.fieldTooLong, "\(field) is at most 255 bytes, this one has \(bytes.count)")
    }
    writer.write(UInt8(truncatingIfNeeded: bytes.count))
    writer.write(contentsOf: bytes)
}
