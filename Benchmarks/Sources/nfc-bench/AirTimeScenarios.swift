import NDEF
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc-bench airtime`: the simulated air time to read a full NDEF message on each tag type,
/// for our engines and for the common pattern (16 bytes per READ, one block per command, READ
/// BINARY of ≤ 251 bytes), against the physical minimum of AIRTIME.md.
enum AirTimeScenarios {
    struct Scenario {
        let name: String
        let makeTag: () throws -> any VirtualTag
        let reader: SimulatedReaderConfiguration
        /// The message size, or `nil` to fill the tag's capacity.
        let messageSize: Int?
        let ours: any NDEFTagEngine
        let common: any NDEFTagEngine
        let commonLabel: String
        /// The physical minimum in microseconds, and where it comes from.
        let minimum: (Double, String)
    }

    static func microseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    static var scenarios: [Scenario] {
        let fastRead888 = microseconds(
            AirTimeModel.duration(of: AirFrame(reader: .bytes(3), tag: .bytes(888)), technology: .iso14443A, bitRate: .kbps106))
        // Addressed Extended Read Multiple Blocks: flags, 33, UID(8), first(2), count(2); answer flags + data.
        func rmb(_ bytes: Int, extended: Bool) -> Double {
            microseconds(
                AirTimeModel.duration(
                    of: AirFrame(reader: .bytes(extended ? 14 : 12), tag: .bytes(1 + bytes)), technology: .iso15693, bitRate: .kbps106))
        }
        let type4 = { try Type4Tag(configuration: Type4Tag.Configuration(ndefFileSize: 8192, extendedLength: true)) as any VirtualTag }
        // Type 1: each command byte in its own frame; RALL answers 122 B, RSEG 129 B.
        func type1(_ command: Int, _ answer: Int) -> Double {
            microseconds(
                AirTimeModel.duration(
                    of: AirFrame(reader: .type1Command(command), tag: .bytes(answer)), technology: .iso14443A, bitRate: .kbps106))
        }
        return [
            Scenario(
                name: "Topaz 96, full message", makeTag: { try VirtualTagKind.topaz96.make() }, reader: .ideal, messageSize: nil,
                ours: Type1Engine(), common: Type1Engine(), commonLabel: "RALL (the only read)",
                minimum: (type1(7, 122), "1 RALL (model)")
            ),
            Scenario(
                name: "Topaz 512, full message", makeTag: { try VirtualTagKind.topaz512.make() }, reader: .ideal, messageSize: nil,
                ours: Type1Engine(), common: Type1Engine(readsSegments: false), commonLabel: "READ8 per block",
                minimum: (type1(7, 122) + 3 * type1(14, 129), "RALL + 3 RSEG (model)")
            ),
            Scenario(
                name: "NTAG216, full message", makeTag: { try VirtualTagKind.ntag216.make() }, reader: .ideal, messageSize: nil,
                ours: Type2Engine(), common: Type2Engine(maximumReadLength: 16), commonLabel: "READ of 16 B",
                minimum: (fastRead888, "1 FAST_READ of 888 B (model)")
            ),
            Scenario(
                name: "Type 4, 8 KB, 106 kbit/s", makeTag: type4, reader: .baseRate, messageSize: nil,
                ours: Type4Engine(), common: Type4Engine(maximumReadLength: 251), commonLabel: "READ BINARY of ≤ 251 B",
                minimum: (721_000, "AIRTIME.md: chained, FSD 256")
            ),
            Scenario(
                name: "Type 4, 8 KB, 848 kbit/s", makeTag: type4, reader: .ideal, messageSize: nil,
                ours: Type4Engine(), common: Type4Engine(maximumReadLength: 251), commonLabel: "READ BINARY of ≤ 251 B",
                minimum: (95_000, "AIRTIME.md")
            ),
            Scenario(
                name: "ISO 15693, 1 KB (ST25DV16K)", makeTag: { try VirtualTagKind.iso15693_2k.make() }, reader: .ideal, messageSize: 1012,
                ours: Type5Engine(), common: Type5Engine(maximumBlocksPerRead: 1), commonLabel: "one block per command",
                minimum: (rmb(1024, extended: true), "1 Read Multiple Blocks of 1 KB (model)")
            ),
            Scenario(
                name: "ISO 15693, 2 KB (ST25DV16K)", makeTag: { try VirtualTagKind.iso15693_2k.make() }, reader: .ideal, messageSize: nil,
                ours: Type5Engine(), common: Type5Engine(maximumBlocksPerRead: 1), commonLabel: "one block per command",
                minimum: (rmb(2048, extended: true), "1 Read Multiple Blocks of 2 KB (model)")
            ),
            Scenario(
                name: "FeliCa Lite-S, 208 B", makeTag: { try VirtualTagKind.felicaLiteS.make() }, reader: .ideal, messageSize: nil,
                ours: Type3Engine(), common: Type3Engine(maximumBlocksPerRead: 1), commonLabel: "one block per command",
                minimum: (16_990, "AIRTIME.md: reads of 4, 4, 4, 1 blocks")
            ),
        ]
    }

    /// An NDEF message of exactly `size` bytes: one MIME record `a/b` with a filler payload.
    static func message(ofSize size: Int) throws -> [UInt8] {
        let shortHeader = 3 + 3
        let payloadLength = size - shortHeader <= 255 ? size - shortHeader : size - shortHeader - 3
        let payload = (0..<max(0, payloadLength)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let bytes = try NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: payload)]).encoded()
        guard bytes.count == size else { throw TagEngineError(.capacityExceeded, "cannot build a message of \(size) bytes") }
        return bytes
    }

    static func measure(_ scenario: Scenario) async throws -> (ours: ExchangeStatistics, common: ExchangeStatistics, size: Int) {
        let field = SimulatedField(configuration: scenario.reader)
        await field.place(try scenario.makeTag())
        let target = try await field.targets(matching: .all)[0]
        let setup = try await field.connect(to: target, meter: AirTimeMeter())
        var size = scenario.messageSize ?? 0
        if scenario.messageSize == nil { size = try await scenario.ours.queryStatus(on: setup).capacity }
        let wanted = try message(ofSize: size)
        try await scenario.ours.writeNDEF(wanted, on: setup)
        var results: [ExchangeStatistics] = []
        for engine in [scenario.ours, scenario.common] {
            let meter = AirTimeMeter()
            let connection = try await field.connect(to: target, meter: meter)
            meter.reset()  // activation is the same for every strategy
            let read = try await engine.readNDEF(on: connection)
            guard read.message == wanted else { throw TagEngineError(.unexpectedResponse, "\(scenario.name): read back different bytes") }
            results.append(meter.statistics)
        }
        return (results[0], results[1], size)
    }

    static func run() async throws {
        print("| scenario | message | ours: commands, air time | common pattern | physical minimum | ours ÷ minimum | common ÷ ours |")
        print("|---|---|---|---|---|---|---|")
        for scenario in scenarios {
            let (ours, common, size) = try await measure(scenario)
            let o = microseconds(ours.airTime) / 1000
            let c = microseconds(common.airTime) / 1000
            let m = scenario.minimum.0 / 1000
            print(
                "| \(scenario.name) | \(size) B | \(ours.commands), \(format(o)) ms | \(scenario.commonLabel): \(common.commands), \(format(c)) ms "
                    + "| \(format(m)) ms (\(scenario.minimum.1)) | \(format(o / m, digits: 3))× | \(format(c / o))× |"
            )
        }
    }

    static func format(_ value: Double, digits: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
