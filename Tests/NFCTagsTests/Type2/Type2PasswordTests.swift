import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2PasswordTests {
    static let password: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    static let pack: [UInt8] = [0xAA, 0xBB]

    @Test(arguments: VirtualTagKind.type2Kinds)
    func readProtectionNeedsThePasswordAndCanBeRemoved(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind)
        let message = type2Message(length: 20)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        bench.connection.clear()
        try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 4, protectReads: true, on: bench.connection)
        let chip = try #require(await bench.chip())
        let model = chip.model
        #expect(chip.page(model.passwordPage) == Self.password)
        #expect(chip.page(model.packPage) == Self.pack + [0, 0])
        #expect(chip.page(model.configurationPage1)[0] & 0x80 != 0)
        #expect(chip.page(model.configurationPage0)[3] == 0x04)
        // AUTH0 last.
        let writes = bench.connection.frames.filter { $0.first == 0xA2 }.map { Int($0[1]) }
        #expect(writes == [model.passwordPage, model.packPage, model.configurationPage1, model.configurationPage0])

        let locked = try await Type2Bench.connect(bench.field, bench.id)
        let refused = await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: locked) }
        #expect(refused?.code == .tagError)
        let wrong = await #expect(throws: TagEngineError.self) { try await bench.engine.authenticate(password: [0, 0, 0, 0], on: locked) }
        #expect(wrong?.code == .authenticationFailed)
        #expect(wrong?.tagStatus == [0x00])
        // The wrong attempt left the tag reactivated: the right password works on the same connection.
        #expect(try await bench.engine.authenticate(password: Self.password, expectedPACK: Self.pack, on: locked) == Self.pack)
        #expect(try await bench.engine.readNDEF(on: locked).message == message)

        try await bench.engine.removePassword(currentPassword: Self.password, on: locked)
        let open = try await Type2Bench.connect(bench.field, bench.id)
        #expect(try await bench.engine.readNDEF(on: open).message == message)
        #expect(await bench.chip()?.page(model.configurationPage0)[3] == 0xFF)
    }

    @Test func writeOnlyProtectionLeavesReadsOpen() async throws {
        let bench = try await Type2Bench(.ntag216)
        try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 0x10, protectReads: false, on: bench.connection)
        let connection = try await Type2Bench.connect(bench.field, bench.id)
        #expect(try await bench.engine.readNDEF(on: connection).message == [])
        #expect(await bench.chip()?.page(0xE4)[0] == 0x00)
    }

    /// The chip reads AUTH0 at activation, and a PC/SC reader keeps the tag activated between
    /// connections: the engine reactivates it, so the protection holds on the same connection
    /// (and its removal too), not only after the tag left the field.
    @Test func theProtectionHoldsOnTheSameConnection() async throws {
        let bench = try await Type2Bench(.ntag216)
        try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 4, protectReads: false, on: bench.connection)
        let refused = await #expect(throws: TagEngineError.self) {
            try await bench.engine.writeNDEF(type2Message(length: 10), on: bench.connection)
        }
        #expect(refused?.code == .tagError)
        try await bench.engine.removePassword(currentPassword: Self.password, on: bench.connection)
        try await bench.engine.writeNDEF(type2Message(length: 10), on: bench.connection)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == type2Message(length: 10))
    }

    @Test func anUnexpectedPACKFails() async throws {
        let bench = try await Type2Bench(.ntag213)
        try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 0xFF, protectReads: false, on: bench.connection)
        let error = await #expect(throws: TagEngineError.self) {
            try await bench.engine.authenticate(password: Self.password, expectedPACK: [0x12, 0x34], on: bench.connection)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.tagStatus == nil)
    }

    @Test func removingWithTheWrongPasswordFails() async throws {
        let bench = try await Type2Bench(.ntag215)
        try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 4, protectReads: false, on: bench.connection)
        let connection = try await Type2Bench.connect(bench.field, bench.id)
        await #expect(throws: TagEngineError(.authenticationFailed, "")) {
            try await bench.engine.removePassword(currentPassword: [9, 9, 9, 9], on: connection)
        }
        #expect(await bench.chip()?.page(0x83)[3] == 0x04)
    }

    @Test func theSignatureIsTheChips() async throws {
        let bench = try await Type2Bench(.ntag216)
        let signature = try await bench.engine.readSignature(on: bench.connection)
        #expect(signature.count == 32)
        #expect(await signature == bench.chip()?.signature)
    }

    @Test func olderChipsHaveNoPasswordNorSignature() async throws {
        let bench = try await Type2Bench(LegacyType2Tag(try type2Tag(.ntag213)))
        await #expect(throws: TagEngineError(.unsupported, "")) { try await bench.engine.readSignature(on: bench.connection) }
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await bench.engine.authenticate(password: Self.password, on: bench.connection)
        }
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await bench.engine.setPassword(Self.password, pack: Self.pack, protectFrom: 4, protectReads: false, on: bench.connection)
        }
        // Still answering after all those refusals.
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == [])
    }

    @Test func readersWithoutNativeCommandsCannotAuthenticate() async throws {
        let bench = try await Type2Bench(.ntag213, configuration: .type2ReadAndWriteOnly)
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await bench.engine.authenticate(password: Self.password, on: bench.connection)
        }
        await #expect(throws: TagEngineError(.unsupported, "")) { try await bench.engine.readSignature(on: bench.connection) }
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await bench.engine.removePassword(currentPassword: Self.password, on: bench.connection)
        }
        #expect(bench.connection.frames.isEmpty)
    }

    @Test(arguments: [([UInt8](repeating: 1, count: 3), [UInt8]([1, 2]), 4), ([1, 2, 3, 4], [1], 4), ([1, 2, 3, 4], [1, 2], 256)])
    func badArgumentsAreRefusedBeforeAnyCommand(password: [UInt8], pack: [UInt8], page: Int) async throws {
        let bench = try await Type2Bench(.ntag213)
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await bench.engine.setPassword(password, pack: pack, protectFrom: page, protectReads: false, on: bench.connection)
        }
        if page == 4 {
            await #expect(throws: TagEngineError(.unsupported, "")) {
                try await bench.engine.authenticate(password: password, expectedPACK: pack, on: bench.connection)
            }
        }
        #expect(bench.connection.frames.isEmpty)
    }
}
