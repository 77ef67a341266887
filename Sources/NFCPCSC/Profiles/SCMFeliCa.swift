import NFCBytes
import NFCTransport

/// FeliCa frames carried as the FeliCa pseudo-APDUs of Identiv's (formerly SCM Microsystems')
/// readers, read from Identiv's *Reference Manual for the CLOUD 370x F* v1.0 §6.2.13–6.2.18
/// independently of the emulation in `NFCSimulator`. The reader addresses the card it activated,
/// so the IDm a frame carries is not sent; the answers carry it back.
///
/// | frame (JIS X 6319-4 code)      | pseudo-APDU                                         | answer data                          |
/// |--------------------------------|-----------------------------------------------------|--------------------------------------|
/// | Polling `00 SC RC TSN`         | `FF 40 00 00 04 SC RC TSN`                          | IDm PMm [SC]                         |
/// | Request Service `02`           | `FF 42 n 00 2n codes`                               | IDm n versions                       |
/// | Request Response `04`          | `FF 44 00 00 00`                                    | IDm mode                             |
/// | Read Without Encryption `06`   | `FF 46 nSvc nBlk Lc services blocks`                | IDm SF1 SF2 [n data]                 |
/// | Write Without Encryption `08`  | `FF 48 nSvc nBlk Lc services blocks data`           | IDm SF1 SF2                          |
/// | Request System Code `0C`       | `FF 4A 00 00 00`                                    | IDm n codes                          |
///
/// Block list elements are the two-byte form (`8x bb`, §6.2.17: 2·(P1 + P2) bytes of services
/// and blocks); a frame with a three-byte element (block above 255), or any other command, has no
/// pseudo-APDU and is refused by name.
enum SCMFeliCa {
    /// The pseudo-APDU carrying `frame` (a FeliCa command without its LEN byte).
    static func apdu(for frame: [UInt8], reader: String) throws(TransportError) -> [UInt8] {
        func refused(_ why: String) -> TransportError {
            TransportError(.unsupportedCommand, "\(reader) has no pseudo-APDU for \(why) (Identiv CLOUD 370x F manual §6.2.13–6.2.18)")
        }
        guard let code = frame.first else { throw refused("an empty FeliCa frame") }
        switch code {
        case 0x00:
            guard frame.count == 5 else { throw refused("a Polling of \(frame.count) bytes") }
            return [0xFF, 0x40, 0x00, 0x00, 0x04] + frame[1...]
        case 0x02:
            guard frame.count >= 10, Int(frame[9]) * 2 == frame.count - 10, frame[9] >= 1 else {
                throw refused("a malformed Request Service")
            }
            let codes = Array(frame[10...])
            return [0xFF, 0x42, frame[9], 0x00, UInt8(codes.count)] + codes + [0x00]
        case 0x04:
            return [0xFF, 0x44, 0x00, 0x00, 0x00]
        case 0x0C:
            return [0xFF, 0x4A, 0x00, 0x00, 0x00]
        case 0x06, 0x08:
            let (services, blocks, data) = try lists(frame, write: code == 0x08, refused: refused)
            let body = services.flatMap { $0 } + blocks.flatMap { $0 } + data
            guard body.count <= 255 else { throw refused("a frame of \(frame.count) bytes (more than one short APDU)") }
            return [0xFF, code == 0x06 ? 0x46 : 0x48, UInt8(services.count), UInt8(blocks.count), UInt8(body.count)] + body
                + (code == 0x06 ? [0x00] : [])
        default:
            throw refused("FeliCa command \(Hex.encode([code]))")
        }
    }

    /// The services (2 bytes each), block list elements (2 bytes each) and, for a write, the data
    /// of a Read or Write Without Encryption frame (`code IDm(8) m services n blocks [data]`).
    private static func lists(
        _ frame: [UInt8], write: Bool, refused: (String) -> TransportError
    ) throws(TransportError) -> (services: [[UInt8]], blocks: [[UInt8]], data: [UInt8]) {
        guard frame.count >= 10 else { throw refused("a frame of \(frame.count) bytes") }
        let serviceCount = Int(frame[9])
        var index = 10
        guard serviceCount >= 1, index + 2 * serviceCount < frame.count else { throw refused("a malformed service list") }
        let services = (0..<serviceCount).map { Array(frame[(index + 2 * $0)..<(index + 2 * $0 + 2)]) }
        index += 2 * serviceCount
        let blockCount = Int(frame[index])
        index += 1
        guard blockCount >= 1 else { throw refused("a command naming no block") }
        var blocks: [[UInt8]] = []
        for _ in 0..<blockCount {
            guard index < frame.count else { throw refused("a block list cut short") }
            guard frame[index] & 0x80 != 0 else { throw refused("a three-byte block list element (a block above 255)") }
            guard index + 2 <= frame.count else { throw refused("a block list cut short") }
            blocks.append(Array(frame[index..<(index + 2)]))
            index += 2
        }
        let data = Array(frame[index...])
        guard write ? data.count == 16 * blockCount : data.isEmpty else {
            throw refused("a frame whose data is \(data.count) bytes for \(blockCount) block(s)")
        }
        return (services, blocks, data)
    }

    /// The card's frame (without LEN) from the reader's answer to the pseudo-APDU for `frame`:
    /// the response code (command code + 1) and the answer's data. A status word other than
    /// `90 00` is the reader's refusal, named.
    static func answer(_ raw: [UInt8], to frame: [UInt8], reader: String) throws(TransportError) -> [UInt8] {
        let (data, sw) = try PseudoAPDU.split(raw, doing: "FeliCa pseudo-APDU")
        let code = frame.first ?? 0
        guard sw == 0x9000 else {
            if sw == 0x6400 || sw == 0x6401 { throw TransportError(.timeout, "the FeliCa card on \(reader) did not answer") }
            throw TransportError(
                .transmission,
                "\(reader) refused FeliCa command \(Hex.encode([code])) (SW \(Hex.encode([UInt8(sw >> 8), UInt8(sw & 0xFF)])))")
        }
        guard data.count >= 8 else {
            throw TransportError(
                .protocolViolation, "\(reader) answered FeliCa command \(Hex.encode([code])) with \(data.count) byte(s), no IDm")
        }
        return [code &+ 1] + data
    }
}
