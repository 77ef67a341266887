/// An append-only byte buffer for building frames and encodings.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    @inlinable public var bytes: [UInt8] { storage }
    @usableFromInline var storage: [UInt8]

    /// Creates an empty writer, reserving room for `capacity` bytes.
    @inlinable
    public init(capacity: Int = 0) {
        storage = []
        if capacity > 0 { storage.reserveCapacity(capacity) }
    }

    /// How many bytes have been written.
    @inlinable
    public var count: Int { bytes.count }

    /// Reserves room for `extra` more bytes.
    @inlinable
    public mutating func reserve(_ extra: Int) {
        storage.reserveCapacity(bytes.count + extra)
    }

    /// Appends one byte.
    @inlinable
    public mutating func write(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends a big-endian 16-bit integer.
    @inlinable
    public mutating func write(_ value: UInt16) {
        storage.append(UInt8(truncatingIfNeeded: value >> 8))
        storage.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a little-endian 16-bit integer.
    @inlinable
    public mutating func writeLE(_ value: UInt16) {
        write(value.byteSwapped)
    }

    /// Appends a big-endian 32-bit integer.
    @inlinable
    public mutating func write(_ value: UInt32) {
        storage.append(UInt8(truncatingIfNeeded: value >> 24))
        storage.append(UInt8(truncatingIfNeeded: value >> 16))
        storage.append(UInt8(truncatingIfNeeded: value >> 8))
        storage.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a little-endian 32-bit integer.
    @inlinable
    public mutating func writeLE(_ value: UInt32) {
        write(value.byteSwapped)
    }

    /// Appends a sequence of bytes.
    @inlinable
    public mutating func write<S: Sequence>(contentsOf source: S) where S.Element == UInt8 {
        storage.append(contentsOf: source)
    }

    /// Overwrites one already-written byte (used for back-patched length fields).
    ///
    /// - Precondition: `index` is below ``count``: this is a caller's rule, not outside input.
    @inlinable
    public mutating func set(_ byte: UInt8, at index: Int) {
        storage[index] = byte
    }
}
