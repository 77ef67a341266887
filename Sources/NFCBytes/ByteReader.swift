/// The error a ``ByteReader`` throws when its input ends too early.
public struct ByteReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// The input ended before a read was complete.
        public static let truncated = Code("truncated")
    }

    /// What went wrong.
    public let code: Code
    /// The offset at which the input ran out.
    public let offset: Int
    /// How many more bytes the read needed there.
    public let needed: Int

    /// The input ended at byte offset `at` while `needed` more bytes were expected there.
    public static func truncated(at offset: Int, needed: Int) -> ByteReaderError {
        ByteReaderError(code: .truncated, offset: offset, needed: needed)
    }

    /// The text for people.
    public var description: String {
        "input truncated at offset \(offset) (\(needed) more byte\(needed == 1 ? "" : "s") expected)"
    }
}

/// A forward-only cursor over bytes from outside the process.
///
/// Every read checks its bounds and throws ``ByteReaderError/truncated(at:needed:)`` instead of
/// trapping. Offsets are the indices of the underlying slice, so a reader over a sub-slice of a
/// larger buffer reports offsets in that buffer.
public struct ByteReader: Sendable {
    /// The bytes still to be read, starting at ``offset``.
    @inlinable public var remainingBytes: ArraySlice<UInt8> { storage }
    @usableFromInline var storage: ArraySlice<UInt8>

    /// Creates a reader over a whole array; offsets start at 0.
    @inlinable
    public init(_ bytes: [UInt8]) {
        self.storage = bytes[...]
    }

    /// Creates a reader over a slice; offsets are the slice's own indices.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        self.storage = bytes
    }

    /// The offset of the next byte to be read.
    @inlinable
    public var offset: Int { remainingBytes.startIndex }

    /// How many bytes are left.
    @inlinable
    public var remaining: Int { remainingBytes.count }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { remainingBytes.isEmpty }

    /// Throws unless at least `count` bytes are left.
    @inlinable
    public func require(_ count: Int) throws(ByteReaderError) {
        guard count >= 0, remainingBytes.count >= count else {
            throw .truncated(at: offset, needed: count - remainingBytes.count)
        }
    }

    /// The next byte, without consuming it.
    @inlinable
    public func peekUInt8() throws(ByteReaderError) -> UInt8 {
        guard let first = remainingBytes.first else { throw .truncated(at: offset, needed: 1) }
        return first
    }

    /// Reads one byte.
    @inlinable
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        guard let first = storage.popFirst() else { throw .truncated(at: offset, needed: 1) }
        return first
    }

    /// Reads a big-endian (network order) 16-bit integer.
    @inlinable
    public mutating func readUInt16() throws(ByteReaderError) -> UInt16 {
        try require(2)
        let i = remainingBytes.startIndex
        let value = UInt16(remainingBytes[i]) << 8 | UInt16(remainingBytes[i + 1])
        storage = remainingBytes[(i + 2)...]
        return value
    }

    /// Reads a little-endian 16-bit integer.
    @inlinable
    public mutating func readUInt16LE() throws(ByteReaderError) -> UInt16 {
        let value = try readUInt16()
        return value.byteSwapped
    }

    /// Reads a big-endian 24-bit integer.
    @inlinable
    public mutating func readUInt24() throws(ByteReaderError) -> UInt32 {
        try require(3)
        let i = remainingBytes.startIndex
        let value =
            UInt32(remainingBytes[i]) << 16 | UInt32(remainingBytes[i + 1]) << 8
            | UInt32(remainingBytes[i + 2])
        storage = remainingBytes[(i + 3)...]
        return value
    }

    /// Reads a big-endian 32-bit integer.
    @inlinable
    public mutating func readUInt32() throws(ByteReaderError) -> UInt32 {
        try require(4)
        let i = remainingBytes.startIndex
        let value =
            UInt32(remainingBytes[i]) << 24 | UInt32(remainingBytes[i + 1]) << 16
            | UInt32(remainingBytes[i + 2]) << 8 | UInt32(remainingBytes[i + 3])
        storage = remainingBytes[(i + 4)...]
        return value
    }

    /// Reads a little-endian 32-bit integer.
    @inlinable
    public mutating func readUInt32LE() throws(ByteReaderError) -> UInt32 {
        try readUInt32().byteSwapped
    }

    /// Reads `count` bytes as a slice that shares storage with the input (no copy).
    @inlinable
    public mutating func readSlice(_ count: Int) throws(ByteReaderError) -> ArraySlice<UInt8> {
        try require(count)
        let start = remainingBytes.startIndex
        let end = start + count
        let slice = remainingBytes[start..<end]
        storage = remainingBytes[end...]
        return slice
    }

    /// Reads `count` bytes into a new array.
    @inlinable
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        count == 0 ? [] : Array(try readSlice(count))
    }

    /// Reads everything that is left.
    @inlinable
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        let rest = remainingBytes
        storage = remainingBytes[remainingBytes.endIndex...]
        return rest
    }

    /// Skips `count` bytes.
    @inlinable
    public mutating func skip(_ count: Int) throws(ByteReaderError) {
        _ = try readSlice(count)
    }
}
