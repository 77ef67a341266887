import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// `nfc dump` for Type 4: the CC file and the NDEF file as rows of 16 bytes.
@Suite("Type4 dump")
struct Type4DumpTests {
    let engine = Type4Engine()

    @Test("the CC file (15 bytes) and the 2 KB NDEF file, labelled by file and offset")
    func dumpsBothFiles() async throws {
        let message = Type4Fixtures.uri("dump")
        let tag = try Type4Tag(message: message)
        let bench = try await Type4Bench(tag)
        let rows = try await engine.dump(on: bench.connection)
        #expect(rows.count == 1 + 128)
        #expect(rows.first?.0 == "E103:0000")
        #expect(rows.first?.1 == (try tag.capabilityContainer().bytes))
        #expect(rows[1].0 == "E104:0000")
        #expect(rows[1].1.prefix(2) == [0x00, UInt8(message.count)])
        #expect(rows.last?.0 == "E104:07F0")
        let ndef = rows.dropFirst().flatMap(\.1)
        #expect(Array(ndef[2..<(2 + message.count)]) == message)
    }

    @Test("a 17-byte CC of mapping 3.0 is read whole; a 40 KB file with B1 beyond 7FFF")
    func extendedFile() async throws {
        let message = Type4Fixtures.message(size: 40_000)
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 40_004), message: message)
        let bench = try await Type4Bench(tag, reader: Type4Fixtures.shortReader())
        let rows = try await engine.dump(on: bench.connection)
        #expect(rows.first?.1.count == 16)
        #expect(rows[1].0 == "E103:0010")
        let ndef = rows.filter { $0.0.hasPrefix("E104") }.flatMap(\.1)
        #expect(ndef.count == 40_004)
        #expect(Array(ndef.dropFirst(4)) == message)
    }

    @Test("a file smaller than its CC says: the dump stops where the tag does")
    func shortFile() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(size: 0x1000), ndefFile: Type4Fixtures.ndefFile(size: 100, nlen: 0))
        let bench = try await Type4Bench(card)
        let rows = try await engine.dump(on: bench.connection)
        #expect(rows.filter { $0.0.hasPrefix("E104") }.flatMap(\.1).count == 100)
    }

    @Test("an invalid CC is still dumped; a card without the application is notFormatted")
    func edges() async throws {
        let card = Type4Fixtures.card(cc: Type4Fixtures.capabilityContainer(mle: 0), ndefFile: Type4Fixtures.ndefFile(size: 64, nlen: 0))
        let rows = try await engine.dump(on: try await Type4Bench(card).connection)
        #expect(rows.count == 1)
        let bare = try await Type4Bench(try VirtualTagKind.iso7816.make())
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.dump(on: bare.connection) }
        #expect(error?.code == .notFormatted)
    }
}
