import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Formatting and making read-only: what standard Type 4 commands can do, and `.unsupported`
/// with the reason for the rest.
@Suite("Type4 format and lock")
struct Type4FormatLockTests {
    let engine = Type4Engine()

    @Test("a tag as shipped (INITIALIZED) or holding a message is already formatted")
    func alreadyFormatted() async throws {
        for tag in [try Type4Tag(), try Type4Tag(message: Type4Fixtures.uri("kept"))] {
            let bench = try await Type4Bench(tag)
            let error = await engineError { () async throws(TagEngineError) in try await engine.format(on: bench.connection) }
            #expect(error?.code == .alreadyFormatted)
        }
    }

    @Test("a card without the NDEF application cannot be formatted with standard commands")
    func blankCard() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.type4.make(blank: true))
        let error = await engineError { () async throws(TagEngineError) in try await engine.format(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason.contains("proprietary") == true)
        #expect(error?.tagStatus == [0x6A, 0x82])
    }

    @Test("an invalid CC cannot be rewritten: unsupported")
    func invalidCC() async throws {
        let card = Type4Fixtures.card(cc: Type4Fixtures.capabilityContainer(mle: 1), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0))
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in try await engine.format(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason.contains("MLe") == true)
    }

    @Test("a valid CC over an NLEN out of range: NLEN 0000 is written (INITIALIZED)")
    func repairsLength() async throws {
        let card = Type4Fixtures.card(cc: Type4Fixtures.capabilityContainer(), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0x9999))
        let bench = try await Type4Bench(card)
        try await engine.format(on: bench.connection)
        #expect(try await engine.queryStatus(on: bench.connection) == NDEFStatus(state: .readWrite, capacity: 2046))
    }

    @Test("making read-only: the simulated tag's CC file is write-protected, so unsupported naming 6982")
    func lockRefused() async throws {
        let bench = try await Type4Bench(try Type4Tag(message: Type4Fixtures.uri("lock")))
        let error = await engineError { () async throws(TagEngineError) in try await engine.makeReadOnly(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(error?.tagStatus == [0x69, 0x82])
        #expect(try await engine.queryStatus(on: bench.connection).state == .readWrite)
    }

    @Test("a tag whose CC file accepts UPDATE BINARY: write access FF, then read-only everywhere")
    func lockAccepted() async throws {
        let message = Type4Fixtures.uri("locked")
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: message.count, message: message),
            ccWritable: true
        )
        let bench = try await Type4Bench(card)
        try await engine.makeReadOnly(on: bench.connection)
        let cc = await bench.application()?.file(0xE103)?.contents
        #expect(cc?[14] == 0xFF)
        #expect(try await engine.queryStatus(on: bench.connection).state == .readOnly)
        let error = await engineError { () async throws(TagEngineError) in
            try await engine.writeNDEF(Type4Fixtures.uri("again"), on: bench.connection)
        }
        #expect(error?.code == .readOnly)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
        // Locking again is a no-op.
        bench.meter.reset()
        try await engine.makeReadOnly(on: bench.connection)
        #expect(bench.meter.statistics.commands == 3)
    }

    @Test("a CC that accepts the update but does not keep it: unsupported")
    func lockIgnored() async throws {
        let card = try MisbehavingApplet.card { command, answer in
            command.ins == 0xD6 ? SimResponseAPDU(.success) : nil
        }
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in try await engine.makeReadOnly(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason.contains("reads back 00") == true)
    }

    @Test("a proprietary write condition cannot be changed with standard commands")
    func proprietaryCondition() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(write: 0x83), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0), ccWritable: true)
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in try await engine.makeReadOnly(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(error?.reason.contains("83") == true)
    }
}
