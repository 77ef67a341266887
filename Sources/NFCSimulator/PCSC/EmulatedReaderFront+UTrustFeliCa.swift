/// The uTrust 3700 F's FeliCa pseudo-APDUs (Identiv CLOUD 370x F manual v1.0 §6.2.13–6.2.18),
/// turned into FeliCa frames for the card the reader activated (JIS X 6319-4; FeliCa Card User's
/// Manual §4.4) and their answers back, IDm first.
extension EmulatedReaderFront {
    /// `FF 40` Polling (REQC): data system code (2), request code, time slots; answers IDm, PMm and,
    /// for request code `01`, the system code. `FF 42` Request Service: P1 service count, data
    /// 2 bytes a code; answers IDm, count, versions. `FF 44` Request Response: IDm, mode. `FF 46`
    /// Read Without Encryption: P1 services, P2 blocks, data 2·(P1 + P2) bytes of service codes and
    /// two-byte block list elements; answers IDm, status flags and blocks. `FF 48` Write Without
    /// Encryption: the same plus 16 bytes a block; answers IDm and status flags. `FF 4A` Request
    /// System Code: IDm, count, codes. Lengths that disagree are `67 00`, parameters `6B 00`; a
    /// card that is not FeliCa `6A 81`; silence `64 00`.
    mutating func uTrustFeliCa(_ command: SimCommandAPDU) -> [UInt8] {
        guard case .felica = tag.parameters else { return ReaderStatusWord.notSupported }
        let idm = tag.identifier
        let frame: [UInt8]
        let data = command.data
        let p1 = Int(command.p1)
        let p2 = Int(command.p2)
        switch command.ins {
        case 0x40:
            guard p1 == 0, p2 == 0 else { return ReaderStatusWord.wrongParameters }
            guard data.count == 4 else { return ReaderStatusWord.wrongLength }
            frame = [0x00] + data
        case 0x42:
            guard (1...32).contains(p1), p2 == 0 else { return ReaderStatusWord.wrongParameters }
            guard data.count == 2 * p1 else { return ReaderStatusWord.wrongLength }
            frame = [0x02] + idm + [UInt8(p1)] + data
        case 0x44, 0x4A:
            guard p1 == 0, p2 == 0 else { return ReaderStatusWord.wrongParameters }
            guard data.isEmpty else { return ReaderStatusWord.wrongLength }
            frame = [command.ins == 0x44 ? 0x04 : 0x0C] + idm
        default:  // 46 read, 48 write
            guard (1...16).contains(p1), (1...15).contains(p2) else { return ReaderStatusWord.wrongParameters }
            let lists = 2 * (p1 + p2)
            let expected = lists + (command.ins == 0x48 ? 16 * p2 : 0)
            guard data.count == expected else { return ReaderStatusWord.wrongLength }
            let services = Array(data[0..<(2 * p1)])
            let blocks = Array(data[(2 * p1)..<lists])
            frame = [command.ins == 0x46 ? 0x06 : 0x08] + idm + [UInt8(p1)] + services + [UInt8(p2)] + blocks + Array(data[lists...])
        }
        guard case .bytes(let answer) = transmit(frame).reply, answer.count >= 9, answer[0] == frame[0] &+ 1 else {
            reselect()
            return Self.vendorNoAnswer
        }
        return Array(answer.dropFirst()) + ReaderStatusWord.success
    }
}
