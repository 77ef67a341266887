import NDEF
import NFCSimulator
import NFCTags
import NFCTransport

/// Tap-read-write cycles on the simulated field across every tag kind that holds NDEF: the tag
/// enters the field, is connected, a message of varying size is written and read back (and
/// compared), the connection is closed and the tag leaves. The tags are reused (taken out and
/// tapped again under the same identity), so the field holds a fixed number of tags and any
/// growth is a leak.
enum SimulatedSoak {
    /// Every NDEF-capable kind, with its engine's family.
    static let kinds: [(VirtualTagKind, TagFamily)] = [
        (.ntag213, .type2), (.ntag215, .type2), (.ntag216, .type2), (.ultralight, .type2), (.ultralightMF0UL11, .type2),
        (.type4, .type4), (.slix2, .type5), (.iso15693_2k, .type5), (.felicaLiteS, .type3), (.felica, .type3),
    ]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A MIME record `a/b` with `length` bytes of payload that depend on the cycle.
    static func message(cycle: Int) throws -> [UInt8] {
        let length = 1 + cycle % 24
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ cycle) }
        return try NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: payload)]).encoded()
    }

    static func run(cycles: Int, samples: Int) async throws -> (SampleLog, Double) {
        let field = SimulatedField()
        var ids: [VirtualTagID] = []
        for (kind, _) in kinds {
            let id = await field.place(try kind.make())
            await field.remove(id)
            ids.append(id)
        }
        var log = SampleLog(phase: "tap-read-write")
        log.take(after: 0)
        let every = max(1, cycles / max(1, samples))
        let clock = ContinuousClock()
        let start = clock.now
        for cycle in 0..<cycles {
            let slot = cycle % kinds.count
            let (kind, family) = kinds[slot]
            let id = ids[slot]
            guard await field.reinsert(id) else { throw Failure(description: "cycle \(cycle): \(kind) could not be tapped again") }
            guard let target = try await field.targets(matching: .all).first(where: { $0.handle == id.rawValue }) else {
                throw Failure(description: "cycle \(cycle): \(kind) not found in the field")
            }
            let connection = try await field.connect(to: target, meter: AirTimeMeter())
            let engine = TagEngines.engine(for: family)
            let wanted = try message(cycle: cycle)
            try await engine.writeNDEF(wanted, on: connection)
            let read = try await engine.readNDEF(on: connection)
            guard read.message == wanted else { throw Failure(description: "cycle \(cycle): \(kind) read back different bytes") }
            await connection.disconnect()
            await field.remove(id)
            _ = await field.resetStatistics()
            if (cycle + 1) % every == 0 { log.take(after: cycle + 1) }
        }
        let seconds = start.duration(to: clock.now) / .seconds(1)
        return (log, Double(cycles) / seconds)
    }
}
