import NFCTransport

/// The answer to a Transparent Exchange (PC/SC Part 3 §3.2.2.1.9): BER-TLV data objects —
/// `C0` generic error status (status byte, SW1, SW2), `92` response bit framing (valid bits
/// in the last byte), `96` response status, `97` the tag's frame — then `90 00`.
enum TransparentExchangeAnswer: Equatable {
    /// The tag's frame (without CRC); a 4-bit ACK/NAK is one byte holding the 4 bits.
    case frame([UInt8])
    /// The tag did not answer in time.
    case noResponse
    /// The reader reports an error with this status byte and status word.
    case readerError(status: UInt8, sw: UInt16)

    init(_ data: [UInt8]) throws(TransportError) {
        var objects: [(tag: UInt16, value: [UInt8])] = []
        var index = 0
        func bad(_ what: String) -> TransportError {
            TransportError(.protocolViolation, "transparent exchange answer, byte \(index): \(what)")
        }
        while index < data.count {
            var tag = UInt16(data[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < data.count else { throw bad("two-byte tag cut short") }
                tag = tag << 8 | UInt16(data[index])
                index += 1
            }
            guard index < data.count else { throw bad("length missing for tag \(String(tag, radix: 16))") }
            var length = Int(data[index])
            index += 1
            if length == 0x81 || length == 0x82 {
                let width = length - 0x80
                guard index + width <= data.count else { throw bad("long length cut short") }
                length = data[index..<(index + width)].reduce(0) { $0 << 8 | Int($1) }
                index += width
            } else if length > 0x80 {
                throw bad("length form \(length) unsupported")
            }
            guard index + length <= data.count else { throw bad("value of \(length) bytes runs past the end") }
            objects.append((tag, Array(data[index..<(index + length)])))
            index += length
        }
        func object(_ tag: UInt16) -> [UInt8]? {
            for entry in objects where entry.tag == tag { return entry.value }
            return nil
        }
        guard let status = object(0xC0), status.count == 3 else {
            throw TransportError(.protocolViolation, "transparent exchange answer without a 3-byte generic status (C0)")
        }
        let sw = UInt16(status[1]) << 8 | UInt16(status[2])
        guard status[0] == 0 else {
            // `64 01`: no answer from the tag within the time limit.
            self = sw == 0x6401 ? .noResponse : .readerError(status: status[0], sw: sw)
            return
        }
        if let responseStatus = object(0x96), responseStatus.contains(where: { $0 != 0 }) {
            // Bits of the response status: CRC, collision, parity, framing errors.
            self = .readerError(status: 0x02, sw: UInt16(responseStatus.first ?? 0) << 8 | UInt16(responseStatus.dropFirst().first ?? 0))
            return
        }
        var reply = object(0x97) ?? []
        if let framing = object(0x92)?.first, framing & 0x07 != 0, reply.count == 1 {
            reply[0] &= UInt8((1 << Int(framing & 0x07)) - 1)
        }
        self = .frame(reply)
    }
}
