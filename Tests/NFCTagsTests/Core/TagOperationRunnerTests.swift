import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// A two-step operation: READ page 3, and on a NAK reactivate and report it.
struct ReadPageThree: TagOperation {
    enum State { case start, read, reactivating }
    var state = State.start
    var nak: UInt8?

    mutating func start() throws(TagEngineError) -> TagStep<[UInt8]> {
        state = .read
        return .transceive([0x30, 0x03], timeout: .milliseconds(5))
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<[UInt8]> {
        switch state {
        case .start:
            throw TagEngineError(.unexpectedResponse, "not started")
        case .read:
            let answer = try outcome.answer()
            if answer.count == 1 {
                nak = answer[0]
                state = .reactivating
                return .reactivate
            }
            return .done(answer)
        case .reactivating:
            _ = try outcome.answer()
            return .done([])
        }
    }
}

@Suite struct TagOperationRunnerTests {
    @Test func runsAnOperationOverTheSimulator() async throws {
        let field = SimulatedField()
        await field.place(try VirtualTagKind.ntag213.make())
        let connection = try await field.connect(to: try await field.targets(matching: .all)[0], meter: AirTimeMeter())
        let page = try await TagOperationRunner.run(ReadPageThree(), on: connection)
        #expect(page.prefix(4) == [0xE1, 0x10, 0x12, 0x00])
        #expect(TagFamily(connection.target) == .type2)
    }

    @Test func transportFailuresBecomeEngineErrors() async throws {
        let field = SimulatedField()
        let id = await field.place(try VirtualTagKind.ntag213.make())
        let connection = try await field.connect(to: try await field.targets(matching: .all)[0], meter: AirTimeMeter())
        await field.remove(id)
        await #expect(throws: TagEngineError(.tagLost, "")) { try await TagOperationRunner.run(ReadPageThree(), on: connection) }
    }
}
