import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

/// Interrupts writes at every command, with both tear outcomes and with the tag pulled out, and
/// checks what a reader finds after the tag comes back: the old message, the new one, or empty.
@Suite struct Type2TearingTests {
    enum Interruption: CaseIterable, CustomStringConvertible {
        case tearKeepingOldData, tearKeepingNewData, removal
        func fault(at command: Int) -> FieldFault {
            switch self {
            case .tearKeepingOldData: .tear(command: command, outcome: .oldData)
            case .tearKeepingNewData: .tear(command: command, outcome: .newData)
            case .removal: .removeAfterCommands(command - 1)
            }
        }
        var description: String {
            switch self {
            case .tearKeepingOldData: "tear/old"
            case .tearKeepingNewData: "tear/new"
            case .removal: "removal"
            }
        }
    }

    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var kind: VirtualTagKind
        /// The TLV area before the old message is written (nil: as shipped).
        var tlvs: [UInt8]?
        var oldLength: Int
        var newLength: Int
        var description: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "empty → 60 B", kind: .ntag213, oldLength: 0, newLength: 60),
        Scenario(name: "100 B → 40 B", kind: .ntag213, oldLength: 100, newLength: 40),
        Scenario(name: "1-byte → 3-byte length", kind: .ntag216, oldLength: 200, newLength: 300),
        Scenario(name: "3-byte → 1-byte length", kind: .ntag216, oldLength: 300, newLength: 20),
        Scenario(name: "length across pages 5–6", kind: .ntag215, tlvs: hexBytes("0103A00C34 0300FE"), oldLength: 260, newLength: 290),
        Scenario(name: "no NDEF TLV yet", kind: .ntag213, tlvs: hexBytes("00 FE"), oldLength: -1, newLength: 50),
        Scenario(name: "new NDEF TLV across pages 4–5", kind: .ntag213, tlvs: hexBytes("000000 FE"), oldLength: -1, newLength: 50),
        Scenario(name: "same length", kind: .ultralightMF0UL11, oldLength: 40, newLength: 40),
    ]

    /// A tag holding the scenario's old message (written by the engine on a scratch field).
    static func prepared(_ scenario: Scenario) async throws -> Type2Tag {
        let tag = try type2Tag(scenario.kind) { memory in
            if let tlvs = scenario.tlvs { type2Put(tlvs, at: 16, in: &memory) }
        }
        guard scenario.oldLength > 0 else { return tag }
        let bench = try await Type2Bench(tag)
        try await bench.engine.writeNDEF(type2Message(length: scenario.oldLength, fill: 0x11), on: bench.connection)
        guard let chip = await bench.chip() else { throw TransportError(.noSuchTarget, "tag vanished") }
        return chip
    }

    @Test(arguments: scenarios)
    func everyInterruptedWriteLeavesOldNewOrEmpty(scenario: Scenario) async throws {
        let tag = try await Self.prepared(scenario)
        let old = scenario.oldLength > 0 ? type2Message(length: scenario.oldLength, fill: 0x11) : []
        let new = type2Message(length: scenario.newLength, fill: 0x22)

        let clean = try await Type2Bench(tag)
        try await clean.engine.writeNDEF(new, on: clean.connection)
        let commands = clean.connection.frames.count
        #expect(clean.connection.count(0xA2) > 2)

        for interruption in Interruption.allCases {
            for command in 1...commands {
                let bench = try await Type2Bench(tag)
                await bench.field.inject(interruption.fault(at: command), into: bench.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.writeNDEF(new, on: bench.connection) }
                let connection = try await bench.reinsertAndConnect()
                let found = try await bench.engine.readNDEF(on: connection).message
                #expect(found == old || found == new || found == [], "\(scenario) \(interruption) at command \(command): \(found.count) B")
            }
        }
    }

    @Test func aRetriedWriteAfterAnInterruptionCompletes() async throws {
        let scenario = Self.scenarios[2]
        let bench = try await Type2Bench(try await Self.prepared(scenario))
        let new = type2Message(length: scenario.newLength, fill: 0x22)
        await bench.field.inject(.tear(command: 30, outcome: .newData), into: bench.id)
        await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.writeNDEF(new, on: bench.connection) }
        let connection = try await bench.reinsertAndConnect()
        try await bench.engine.writeNDEF(new, on: connection)
        #expect(try await bench.engine.readNDEF(on: connection).message == new)
        // Pages written before the tear already hold the new bytes and are skipped.
        #expect(connection.count(0xA2) < clean(scenario))
    }

    private func clean(_ scenario: Scenario) -> Int { (scenario.newLength + 4) / 4 + 2 }
}
