#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An array of `SCARD_READERSTATE` for `SCardGetStatusChange`, laid out by hand:
/// `{ const char *szReader; void *pvUserData; DWORD dwCurrentState; DWORD dwEventState;
/// DWORD cbAtr; unsigned char rgbAtr[33]; }` — naturally aligned with 8-byte `DWORD`s on
/// Linux (80 bytes per entry), packed with 4-byte `DWORD`s on macOS (61 bytes).
///
/// Used by one thread at a time (the event monitor); not `Sendable`.
final class ReaderStateArray {
    let readers: [String]
    private let names: [UnsafeMutablePointer<CChar>]
    private let buffer: UnsafeMutableRawPointer

    private static let pointerSize = MemoryLayout<UnsafeRawPointer>.size
    private static let dwordSize = MemoryLayout<PCSCABI.DWORD>.size
    private static let currentOffset = 2 * pointerSize
    private static let eventOffset = currentOffset + dwordSize
    private static let atrLengthOffset = eventOffset + dwordSize
    private static let atrOffset = atrLengthOffset + dwordSize
    static let stride: Int = {
        let raw = atrOffset + PCSCABI.maxATRSize
        if PCSCABI.readerStatePacked { return raw }
        let alignment = max(pointerSize, dwordSize)
        return (raw + alignment - 1) / alignment * alignment
    }()

    init(readers: [String]) {
        self.readers = readers
        names = readers.map { name in name.withCString { strdup($0) } ?? UnsafeMutablePointer<CChar>.allocate(capacity: 1) }
        buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, readers.count) * Self.stride, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, readers.count) * Self.stride)
        for (index, name) in names.enumerated() {
            buffer.storeBytes(of: UnsafePointer(name), toByteOffset: index * Self.stride, as: UnsafePointer<CChar>.self)
        }
    }

    deinit {
        for name in names { free(name) }
        buffer.deallocate()
    }

    var count: Int { readers.count }
    var pointer: UnsafeMutableRawPointer { buffer }

    private func dword(_ index: Int, _ offset: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: buffer.loadUnaligned(fromByteOffset: index * Self.stride + offset, as: PCSCABI.DWORD.self))
    }

    /// What the caller believes the state is (`SCARD_STATE_UNAWARE` = 0 at first).
    func setCurrentState(_ index: Int, _ value: UInt32) {
        buffer.storeBytes(of: PCSCABI.DWORD(value), toByteOffset: index * Self.stride + Self.currentOffset, as: PCSCABI.DWORD.self)
    }

    /// The state pcscd reported, event counter in the upper 16 bits.
    func eventState(_ index: Int) -> UInt32 { dword(index, Self.eventOffset) }

    /// The ATR pcscd reported for a present card.
    func atr(_ index: Int) -> [UInt8] {
        let length = min(Int(dword(index, Self.atrLengthOffset)), PCSCABI.maxATRSize)
        let start = buffer.advanced(by: index * Self.stride + Self.atrOffset).assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: start, count: length))
    }
}
