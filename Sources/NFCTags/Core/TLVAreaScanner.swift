import NFCBytes

/// The bytes of a tag's memory read so far, by address (`nil` for a byte not read yet).
protocol TLVAreaBytes {
    /// The byte at a memory address, or `nil` when it has not been read.
    func byte(at address: Int) -> UInt8?
}

/// Walks the TLV blocks of a Type 1 or Type 2 data area over the memory read so far.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.3 and §6.4.1 (NDEF detection), and Type 1 Tag
/// Operation 1.1 (T1TOP) §2.3 and §6.3, which define the same TLV blocks: TLVs are read from the
/// start of the data area (byte 16, page 4, on Type 2; byte 12, after the CC in block 1, on Type 1)
/// until the NDEF Message TLV, a Terminator TLV or the end of the data area. NULL TLVs are single
/// bytes; Lock Control and Memory Control TLVs (3-byte values) mark bytes that later TLVs skip;
/// Proprietary and unknown TLVs are stepped over by their length without reading their value.
enum TLVAreaScanner {
    /// The outcome of a walk.
    enum Outcome: Sendable, Hashable {
        /// The structure is known up to the NDEF TLV (or its absence).
        case complete(TLVAreaLayout)
        /// The walk needs the byte at this address, not read yet.
        case needsByte(at: Int)
    }

    /// Walks the data area the CC declares.
    /// - Parameters:
    ///   - dataAreaStart: the first byte of the data area (16 on Type 2, 12 on Type 1).
    ///   - reserved: bytes the data area never uses, whatever the TLVs say (Type 1's static
    ///     reserved and lock blocks 0Dh and 0Eh, T1TOP §2.2).
    ///   - addressableBytes: the bytes the tag's commands address; a TLV describing an area
    ///     beyond them is invalid.
    ///   - stopAtNDEF: stop at the NDEF Message TLV's type byte without reading its length (a
    ///     write in progress may have left it half written); the layout then has no ``TLVAreaLayout/ndef``.
    /// - Throws: `invalidNDEFArea` for a TLV that runs past the data area, a Lock or Memory Control TLV
    ///   whose length is not 3 or whose area lies beyond what the commands address, a 3-byte length of FFFFh.
    static func scan(
        _ memory: some TLVAreaBytes, dataAreaStart: Int = 16, dataAreaEnd: Int, reserved: Set<Int> = [], addressableBytes: Int = 1024,
        stopAtNDEF: Bool = false
    ) throws(TagEngineError) -> Outcome {
        var layout = TLVAreaLayout(ndefStart: dataAreaStart, dataAreaEnd: dataAreaEnd)
        layout.skipped = reserved
        var cursor = dataAreaStart
        var afterLastTLV = dataAreaStart
        while true {
            cursor = layout.usable(from: cursor)
            guard cursor < dataAreaEnd else {
                layout.ndefStart = layout.usable(from: afterLastTLV)
                return .complete(layout)
            }
            guard let type = memory.byte(at: cursor) else { return .needsByte(at: cursor) }
            switch type {
            case 0x00:
                cursor += 1
                continue
            case 0xFE:
                layout.ndefStart = cursor
                return .complete(layout)
            case 0x03 where stopAtNDEF:
                layout.ndefStart = cursor
                return .complete(layout)
            default:
                break
            }
            let name = tlvName(type)
            let typeAddress = cursor
            // The length: one byte, or FFh and two more.
            var lengthAddresses = [layout.usable(from: cursor + 1)]
            guard let first = lengthAddresses.last, first < dataAreaEnd else {
                throw TagEngineError(
                    .invalidNDEFArea,
                    "\(name) at byte \(typeAddress) has no length byte inside the data area (which ends at byte \(dataAreaEnd))")
            }
            guard let l0 = memory.byte(at: first) else { return .needsByte(at: first) }
            var length = Int(l0)
            if l0 == 0xFF {
                lengthAddresses.append(layout.usable(from: first + 1))
                lengthAddresses.append(layout.usable(from: lengthAddresses[1] + 1))
                guard lengthAddresses[2] < dataAreaEnd else {
                    throw TagEngineError(
                        .invalidNDEFArea,
                        "\(name) at byte \(typeAddress) has a 3-byte length running past the data area (which ends at byte \(dataAreaEnd))")
                }
                guard let high = memory.byte(at: lengthAddresses[1]) else { return .needsByte(at: lengthAddresses[1]) }
                guard let low = memory.byte(at: lengthAddresses[2]) else { return .needsByte(at: lengthAddresses[2]) }
                length = Int(high) << 8 | Int(low)
                guard length != 0xFFFF else {
                    throw TagEngineError(.invalidNDEFArea, "\(name) at byte \(typeAddress) has length FFFFh, which is reserved")
                }
            }
            let valueStart = layout.usable(from: lengthAddresses[lengthAddresses.count - 1] + 1)
            let value = layout.addresses(from: valueStart, count: length)
            guard value.count == length else {
                throw TagEngineError(
                    .invalidNDEFArea,
                    "\(name) at byte \(typeAddress) declares \(length) bytes, the data area holds \(value.count) from byte \(valueStart) to its end at byte \(dataAreaEnd)"
                )
            }
            switch type {
            case 0x03:
                layout.ndefStart = typeAddress
                layout.ndef = .init(typeAddress: typeAddress, lengthAddresses: lengthAddresses, length: length, valueStart: valueStart)
                return .complete(layout)
            case 0x01, 0x02:
                guard length == 3 else {
                    throw TagEngineError(.invalidNDEFArea, "\(name) at byte \(typeAddress) has length \(length), expected 3")
                }
                var bytes: [UInt8] = []
                for address in value {
                    guard let byte = memory.byte(at: address) else { return .needsByte(at: address) }
                    bytes.append(byte)
                }
                try record(type: type, value: bytes, at: typeAddress, into: &layout, addressableBytes: addressableBytes)
            default:
                break  // Proprietary (FDh) and unknown TLVs: stepped over.
            }
            cursor = (value.last ?? lengthAddresses[lengthAddresses.count - 1]) + 1
            afterLastTLV = cursor
        }
    }

    /// Records the area a Lock Control or Memory Control TLV describes (T2TOP §2.3.2–2.3.3, T1TOP §2.3.2–2.3.3): byte 0
    /// holds the page address (high nibble) and byte offset (low nibble), byte 1 the size (lock bits,
    /// or reserved bytes; 0 means 256), byte 2 the bytes locked per lock bit (2ⁿ, high nibble) and the
    /// bytes per page (2ⁿ, low nibble). The area starts at page × bytes per page + offset.
    static func record(
        type: UInt8, value: [UInt8], at typeAddress: Int, into layout: inout TLVAreaLayout, addressableBytes: Int
    ) throws(TagEngineError) {
        let pageAddress = Int(value[0] >> 4)
        let byteOffset = Int(value[0] & 0x0F)
        let size = value[1] == 0 ? 256 : Int(value[1])
        let bytesPerPage = 1 << Int(value[2] & 0x0F)
        let address = pageAddress * bytesPerPage + byteOffset
        let byteCount = type == 0x01 ? (size + 7) / 8 : size
        guard address + byteCount <= addressableBytes else {
            throw TagEngineError(
                .invalidNDEFArea,
                "\(tlvName(type)) at byte \(typeAddress) describes bytes \(address)–\(address + byteCount - 1), beyond the \(addressableBytes) bytes the tag's commands address"
            )
        }
        layout.skipped.formUnion(address..<address + byteCount)
        if type == 0x01 {
            layout.lockAreas.append(.init(address: address, bitCount: size, bytesPerBit: 1 << Int(value[2] >> 4)))
        }
    }

    /// A TLV's name for error reasons.
    static func tlvName(_ type: UInt8) -> String {
        switch type {
        case 0x01: "Lock Control TLV"
        case 0x02: "Memory Control TLV"
        case 0x03: "NDEF Message TLV"
        case 0xFD: "Proprietary TLV"
        default: "TLV \(Hex.encode([type], uppercase: true))h"
        }
    }
}
