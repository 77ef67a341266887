/// A frame of the PN532 host protocol (NXP UM0701-02, *PN532 User Manual*, §6.2.1).
///
/// On the wire every frame is `PREAMBLE 00`, `START CODE 00 FF`, a length, its checksum, the
/// frame's bytes, and `POSTAMBLE 00`:
/// - an information frame carries a frame identifier (TFI: `D4` host to PN532, `D5` PN532 to
///   host) and the command or response bytes, with a length checksum (LEN + LCS = 0 mod 256)
///   and a data checksum (TFI + data + DCS = 0 mod 256) — the *normal* frame (§6.2.1.1) for up
///   to 254 data bytes, the *extended* frame (§6.2.1.2: `00 FF FF FF LENM LENL LCS`) beyond;
/// - ACK `00 00 FF 00 FF 00` and NACK `00 00 FF FF 00 00` (§6.2.1.3, §6.2.1.4);
/// - the error frame `00 00 FF 01 FF 7F 81 00` the PN532 sends for a frame it could not accept
///   (§6.2.1.5, "syntax error").
package enum PN532Frame: Sendable, Hashable {
    /// An information frame: `tfi` and the command or response bytes after it.
    case information(tfi: UInt8, data: [UInt8])
    /// The acknowledgement of a received information frame.
    case ack
    /// A request to send the last frame again.
    case nack
    /// The PN532's application-level error frame (the frame it received was not acceptable).
    case syntaxError

    /// TFI of a frame from the host to the PN532.
    package static let hostToPN532: UInt8 = 0xD4
    /// TFI of a frame from the PN532 to the host.
    package static let pn532ToHost: UInt8 = 0xD5
    /// The most an information frame carries, TFI included (the PN532's buffer, UM0701-02 §6.2.1.2).
    package static let maximumLength = 265

    /// The frame as it goes on the wire, preamble and postamble included.
    package var bytes: [UInt8] {
        switch self {
        case .ack: return [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
        case .nack: return [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        case .syntaxError: return [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
        case .information(let tfi, let data):
            let body = [tfi] + data
            let sum = body.reduce(UInt8(0), &+)
            let dcs = 0 &- sum
            if body.count <= 0xFF {
                let length = UInt8(body.count)
                return [0x00, 0x00, 0xFF, length, 0 &- length] + body + [dcs, 0x00]
            }
            let high = UInt8(body.count >> 8)
            let low = UInt8(truncatingIfNeeded: body.count)
            return [0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, 0 &- (high &+ low)] + body + [dcs, 0x00]
        }
    }

    /// A command frame from the host: `D4`, the command code, its parameters.
    package static func command(_ code: UInt8, _ parameters: [UInt8] = []) -> PN532Frame {
        .information(tfi: hostToPN532, data: [code] + parameters)
    }

    /// A response frame from the PN532: `D5`, the command code plus one, the response's bytes.
    package static func response(to code: UInt8, _ bytes: [UInt8] = []) -> PN532Frame {
        .information(tfi: pn532ToHost, data: [code &+ 1] + bytes)
    }
}
