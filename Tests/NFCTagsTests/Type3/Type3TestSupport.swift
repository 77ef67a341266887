import NFCSimulator
import NFCTags
import NFCTransport

/// A simulated field holding one FeliCa card, for the Type 3 suites.
struct Type3Bench {
    let field: SimulatedField
    let id: VirtualTagID

    init(_ tag: some VirtualTag, configuration: SimulatedReaderConfiguration = .ideal) async {
        field = SimulatedField(configuration: configuration)
        id = await field.place(tag)
    }

    init(_ kind: VirtualTagKind, blank: Bool = false, configuration: SimulatedReaderConfiguration = .ideal) async throws {
        await self.init(try kind.make(blank: blank), configuration: configuration)
    }

    /// Connects to the card (putting it back in the field first if it left), with the meter reset
    /// after activation.
    func connect(meter: AirTimeMeter = AirTimeMeter()) async throws -> any TagConnection {
        if await !field.isPresent(id) { await field.reinsert(id) }
        let targets = try await field.targets(matching: .felica)
        guard let target = targets.first(where: { $0.handle == id.rawValue }) else {
            throw TransportError(.noSuchTarget, "the FeliCa card is not in the field")
        }
        let connection = try await field.connect(to: target, meter: meter)
        meter.reset()
        return connection
    }

    /// The card as a FeliCa Lite-S.
    var liteS: FeliCaLiteSTag? { get async { await field.tag(id, as: FeliCaLiteSTag.self) } }
}

/// Frames and messages the Type 3 suites build by hand, from the FeliCa manuals' formats.
enum Type3Frames {
    /// Read Without Encryption of 2-byte-element blocks of one service.
    static func read(_ idm: [UInt8], blocks: [UInt16], service: UInt16 = 0x000B) -> [UInt8] {
        var frame: [UInt8] = [0x06] + idm + [0x01, UInt8(service & 0xFF), UInt8(service >> 8), UInt8(blocks.count)]
        for block in blocks { frame += [0x80, UInt8(block)] }
        return frame
    }

    /// Write Without Encryption of one block of one service.
    static func write(_ idm: [UInt8], block: UInt16, data: [UInt8], service: UInt16 = 0x0009) -> [UInt8] {
        [0x08] + idm + [0x01, UInt8(service & 0xFF), UInt8(service >> 8), 0x01, 0x80, UInt8(block)] + data
    }

    /// A read answer: `07 IDm 00 00 n data…`.
    static func readAnswer(_ idm: [UInt8], _ blocks: [[UInt8]]) -> [UInt8] {
        [0x07] + idm + [0x00, 0x00, UInt8(blocks.count)] + blocks.flatMap { $0 }
    }

    /// A write answer: `09 IDm 00 00`.
    static func writeAnswer(_ idm: [UInt8]) -> [UInt8] { [0x09] + idm + [0x00, 0x00] }

    /// An attribute block with any field values, checksum computed unless given.
    static func attribute(
        version: UInt8 = 0x10, nbr: UInt8 = 4, nbw: UInt8 = 1, nmaxb: UInt16 = 13, writeF: UInt8 = 0, rwFlag: UInt8 = 1,
        ln: Int = 0, checksum: UInt16? = nil
    ) -> [UInt8] {
        var block: [UInt8] = [version, nbr, nbw, UInt8(nmaxb >> 8), UInt8(nmaxb & 0xFF), 0, 0, 0, 0, writeF, rwFlag]
        block += [UInt8((ln >> 16) & 0xFF), UInt8((ln >> 8) & 0xFF), UInt8(ln & 0xFF)]
        let sum = checksum ?? block.reduce(UInt16(0)) { $0 &+ UInt16($1) }
        return block + [UInt8(sum >> 8), UInt8(sum & 0xFF)]
    }

    /// A well-formed one-record NDEF message (a Text record) of exactly `length` bytes (5–259).
    static func message(length: Int, fill: UInt8 = 0x61) -> [UInt8] {
        let payload = max(1, length - 4)
        let text = [UInt8](repeating: fill, count: max(0, payload - 3))
        return Array(([0xD1, 0x01, UInt8(payload & 0xFF), 0x54, 0x02, 0x65, 0x6E] + text).prefix(length))
    }

    /// A zero block.
    static let zeros = [UInt8](repeating: 0, count: 16)
}
