/// Where the TLV blocks of a Type 1 or Type 2 data area put the NDEF message, and which bytes they reserve.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.3 (T1TOP §2.3 is the same for Type 1) (TLV blocks: NULL 00h, Lock Control 01h, Memory
/// Control 02h, NDEF Message 03h, Proprietary FDh, Terminator FEh; lengths of 1 byte, or FFh and 2
/// bytes) and §2.2.1–2.2.2 (lock and reserved areas that TLVs describe are not part of any TLV: the
/// bytes of later TLVs and of the NDEF message run around them).
struct TLVAreaLayout: Sendable, Hashable {
    /// The NDEF Message TLV found in the data area.
    struct NDEFTLV: Sendable, Hashable {
        /// The address of its type byte (03h).
        var typeAddress: Int
        /// The addresses of its length bytes: one, or three (FFh and the 16-bit length).
        var lengthAddresses: [Int]
        /// The message length it declares.
        var length: Int
        /// The address of the first message byte (when the length is not 0).
        var valueStart: Int
    }

    /// The dynamic lock bits a Lock Control TLV describes.
    struct LockArea: Sendable, Hashable {
        /// The byte address of the first lock byte.
        var address: Int
        /// The number of lock bits (lock bytes hold them from bit 0 on).
        var bitCount: Int
        /// The bytes each lock bit locks.
        var bytesPerBit: Int
        /// The lock bytes' addresses.
        var byteAddresses: Range<Int> { address..<address + (bitCount + 7) / 8 }
    }

    /// The bytes no TLV may use: lock bytes and reserved memory described by earlier TLVs.
    var skipped: Set<Int> = []
    /// Lock areas from Lock Control TLVs, in order.
    var lockAreas: [LockArea] = []
    /// The NDEF Message TLV, or `nil` when the area has none.
    var ndef: NDEFTLV?
    /// Where the NDEF TLV starts, or where a new one goes: at the Terminator, or after the last
    /// TLV that is not NULL.
    var ndefStart: Int
    /// The first address after the data area.
    var dataAreaEnd: Int

    /// The first usable address at or after `address` (skipping lock and reserved bytes).
    func usable(from address: Int) -> Int {
        var address = address
        while skipped.contains(address) { address += 1 }
        return address
    }

    /// `count` consecutive usable addresses from `start`, or fewer if the data area ends first.
    func addresses(from start: Int, count: Int) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(max(count, 0))
        var address = usable(from: start)
        while result.count < count, address < dataAreaEnd {
            result.append(address)
            address = usable(from: address + 1)
        }
        return result
    }

    /// Usable bytes from `start` to the end of the data area.
    func usableCount(from start: Int) -> Int {
        guard start < dataAreaEnd else { return 0 }
        return (start..<dataAreaEnd).lazy.filter { !skipped.contains($0) }.count
    }

    /// The addresses of the NDEF message bytes.
    func messageAddresses(_ ndef: NDEFTLV) -> [Int] {
        addresses(from: ndef.valueStart, count: ndef.length)
    }

    /// The largest NDEF message the area holds: the usable bytes from the NDEF TLV's start to the
    /// end of the data area, less the TLV header (type and 1-byte length: 2 bytes; type, FFh and a
    /// 2-byte length: 4 bytes, used for 255 bytes and more).
    var capacity: Int {
        let usableBytes = usableCount(from: ndefStart)
        let short = min(usableBytes - 2, 254)
        let long = min(usableBytes - 4, 0xFFFE)
        return max(short, long, 0)
    }

    /// The TLV header for a message of `length` bytes: 03h, then the length in 1 or 3 bytes.
    static func header(length: Int) -> [UInt8] {
        if length < 0xFF { return [0x03, UInt8(length)] }
        return [0x03, 0xFF, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
}
