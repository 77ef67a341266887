import NDEF
import NFCSimulator
import NFCTags
import NFCTransport

/// A simulated field holding one Topaz, for the Type 1 suites.
struct Type1Bench {
    let field: SimulatedField
    let id: VirtualTagID
    let engine: Type1Engine

    init(_ tag: Type1Tag, configuration: SimulatedReaderConfiguration = .ideal, engine: Type1Engine = Type1Engine()) async {
        field = SimulatedField(configuration: configuration)
        id = await field.place(tag)
        self.engine = engine
    }

    init(_ model: Type1Tag.Model, blank: Bool = false, configuration: SimulatedReaderConfiguration = .ideal) async {
        await self.init(Type1Tag(model: model, blank: blank), configuration: configuration)
    }

    /// Connects (putting the tag back first if it left), with the meter reset after activation.
    func connect(meter: AirTimeMeter = AirTimeMeter()) async throws -> any TagConnection {
        if await !field.isPresent(id) { await field.reinsert(id) }
        let targets = try await field.targets(matching: .iso14443A)
        guard let target = targets.first(where: { $0.handle == id.rawValue }) else {
            throw TransportError(.noSuchTarget, "the Topaz is not in the field")
        }
        let connection = try await field.connect(to: target, meter: meter)
        meter.reset()
        return connection
    }

    /// The tag as the field holds it now.
    var tag: Type1Tag? { get async { await field.tag(id, as: Type1Tag.self) } }
}

/// A well-formed one-record NDEF message (a MIME record `a/b`) of exactly `length` bytes (6 or more).
func type1Message(length: Int, fill: UInt8 = 0x61) -> [UInt8] {
    let short = length - 6 <= 255
    let payload = [UInt8](repeating: fill, count: length - (short ? 6 : 9))
    let record = NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: payload)
    return (try? NDEFMessage(records: [record]).encoded()) ?? []
}
