import NFCSimulator

/// A test applet for the authenticator's exchanges: long answers (split by the card into
/// `61xx` + GET RESPONSE), `6Cxx` for a wrong Le, a checksum of long (chained or extended)
/// command data, and a log of every command in the order it arrived.
struct ProbeApplet: ISO7816Applet {
    static let aid: [UInt8] = [0xF0, 0x71, 0x75, 0x65, 0x75, 0x65, 0x01]
    static let aidHex = "F0717565756501"

    var aid: [UInt8] { Self.aid }
    var appletImage: ISO7816AppletImage? { nil }
    /// The data of every LOG command, in arrival order.
    var log: [[UInt8]] = []

    enum Instruction {
        /// `10`: answers P1P2 bytes (0, 1, 2, … mod 256).
        static let give: UInt8 = 0x10
        /// `20`: answers exactly P2 bytes; any other Le gets `6C P2`.
        static let exact: UInt8 = 0x20
        /// `30`: answers the data length (2 bytes) and the sum of the data bytes (2 bytes).
        static let sum: UInt8 = 0x30
        /// `40`: logs the data and answers it back.
        static let log: UInt8 = 0x40
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0) } }

    mutating func select(command: SimCommandAPDU) -> SimResponseAPDU { SimResponseAPDU(.success) }

    mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case Instruction.give:
            return SimResponseAPDU(data: Self.pattern(Int(command.p1) << 8 | Int(command.p2)))
        case Instruction.exact:
            let wanted = Int(command.p2)
            guard command.ne == wanted else { return SimResponseAPDU(SimStatusWord(0x6C, command.p2)) }
            return SimResponseAPDU(data: Self.pattern(wanted))
        case Instruction.sum:
            let count = command.data.count
            let sum = command.data.reduce(0) { ($0 + Int($1)) & 0xFFFF }
            return SimResponseAPDU(data: [UInt8(count >> 8), UInt8(count & 0xFF), UInt8(sum >> 8), UInt8(sum & 0xFF)])
        case Instruction.log:
            log.append(command.data)
            return SimResponseAPDU(data: command.data)
        default:
            return SimResponseAPDU(SimStatusWord(0x6D, 0x00))
        }
    }

    /// A card holding the probe: short APDUs only and a 100-byte response buffer (long answers
    /// come as `61xx`), or extended length.
    static func card(uid: [UInt8], extendedLength: Bool = false) -> ISO7816Card {
        ISO7816Card(
            uid: uid,
            configuration: ISO7816Card.Configuration(extendedLength: extendedLength, maxResponseDataLength: extendedLength ? nil : 100),
            applets: [ProbeApplet()])
    }
}
