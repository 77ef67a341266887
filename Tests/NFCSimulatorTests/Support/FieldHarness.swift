import NFCSimulator
import NFCTransport

/// A field with one tag placed and connected, for tests that send raw commands.
struct FieldHarness {
    let field: SimulatedField
    let id: VirtualTagID
    let connection: any TagConnection
    let meter: AirTimeMeter

    init(_ tag: some VirtualTag, configuration: SimulatedReaderConfiguration = .ideal) async throws {
        field = SimulatedField(configuration: configuration)
        id = await field.place(tag)
        let targets = try await field.targets(matching: .all)
        meter = AirTimeMeter()
        guard let target = targets.first else { throw TransportError(.noSuchTarget, "no tag after place") }
        connection = try await field.connect(to: target, meter: meter)
        meter.reset()
    }

    /// Sends a command with a generous timeout and returns the answer.
    func send(_ command: [UInt8], timeout: Duration = .milliseconds(100)) async throws -> [UInt8] {
        try await connection.transceive(command, timeout: timeout)
    }

    /// The tag's current state as its concrete type.
    func tag<T: VirtualTag>(as type: T.Type) async -> T? { await field.tag(id, as: type) }
}
