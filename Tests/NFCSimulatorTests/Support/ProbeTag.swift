import NFCSimulator
import NFCTransport

/// A minimal Type A storage tag for testing the field itself (not a model of any chip):
/// `30 a` reads page a (4 bytes), `A2 a d0 d1 d2 d3` writes it (ACK after 4.1 ms), `FF` is never
/// answered, anything else gets NAK 0.
struct ProbeTag: VirtualTag {
    var identifier: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    var technology14443 = true
    var pages: [[UInt8]] = Array(repeating: [0, 0, 0, 0], count: 16)
    var powerOns = 0
    var activations = 0

    var parameters: TargetInfo.Parameters {
        technology14443 ? .iso14443A(.init(atqa: 0x0044, sak: 0x00)) : .iso15693(.init(dsfid: 0))
    }

    mutating func powerOn() { powerOns += 1 }

    mutating func activate(context: ExchangeContext) -> [AirFrame] {
        activations += 1
        return [AirFrame(reader: .bits(7), tag: .bytes(2, crc: false))]
    }

    mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        switch command.first {
        case 0x30 where command.count == 2 && Int(command[1]) < pages.count:
            return .bytes(pages[Int(command[1])])
        case 0xA2 where command.count == 6 && Int(command[1]) < pages.count:
            pages[Int(command[1])] = Array(command[2...5])
            return TagAnswer(.ack, processingTime: .microseconds(4100), writesMemory: true)
        case 0xFF:
            return .mute
        default:
            return .nak(0)
        }
    }
}
