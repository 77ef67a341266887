import NFCSimulator

/// A tiny applet for host tests: it counts selections and answers a few made-up instructions.
///
/// - `01`: echoes the command data.
/// - `02`: returns P1·256 + P2 bytes counting up from 0 (for Le and `61xx` tests).
/// - `03`: answers 4 bytes when Le is 4, else `6Cxx` with the exact length (04).
/// - `04`: adds 3 ms of processing and reports a memory write.
/// Anything else: `6D00`. Proprietary class `80` works with INS `01` only.
struct ISO7816TestApplet: ISO7816Applet {
    var aid: [UInt8]
    var selectCount = 0
    var deselectCount = 0
    var resetCount = 0
    var lastCommand: SimCommandAPDU?
    /// The status word SELECT answers (`9000` selects).
    var selectStatus = SimStatusWord.success

    init(aid: [UInt8]) { self.aid = aid }

    mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        selectCount += 1
        return SimResponseAPDU(data: [0x6F, 0x02, 0x84, 0x00], status: selectStatus)
    }

    mutating func deselect() { deselectCount += 1 }

    mutating func reset() { resetCount += 1 }

    mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        lastCommand = command
        switch (command.cla, command.ins) {
        case (_, 0x01):
            return SimResponseAPDU(data: command.data)
        case (0x00, 0x02):
            let count = Int(command.p1) << 8 | Int(command.p2)
            return SimResponseAPDU(data: (0..<count).map { UInt8(truncatingIfNeeded: $0) })
        case (0x00, 0x03):
            guard command.ne == 4 else { return SimResponseAPDU(.wrongLe(exact: 4)) }
            return SimResponseAPDU(data: [0xCA, 0xFE, 0xBA, 0xBE])
        case (0x00, 0x04):
            return SimResponseAPDU(additionalProcessingTime: .milliseconds(3), writesMemory: true)
        case (0x80...0xFE, _):
            return SimResponseAPDU(.classNotSupported)
        default:
            return SimResponseAPDU(.instructionNotSupported)
        }
    }

    var appletImage: ISO7816AppletImage? { nil }
}
