import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Writing NDEF: the T4T update order, skipping bytes already in place, limits of the CC and the
/// reader, read-only and full tags.
@Suite("Type4 write")
struct Type4WriteTests {
    let engine = Type4Engine()

    @Test("write then read back; the tag stores NLEN and the message")
    func writeAndRead() async throws {
        let message = Type4Fixtures.uri("written")
        let bench = try await Type4Bench(try VirtualTagKind.type4.make())
        try await engine.writeNDEF(message, on: bench.connection)
        #expect(await bench.type4Tag()?.ndefMessage == message)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
    }

    @Test("on an empty tag: no comparison read, no NLEN 0000 first (it is already 0), the message, then NLEN")
    func emptyTagOrder() async throws {
        let message = Type4Fixtures.uri("order")
        let bench = try await Type4Bench(try VirtualTagKind.type4.make())
        try await engine.writeNDEF(message, on: bench.connection)
        // Detection (5), UPDATE message, UPDATE NLEN: nothing to compare with on an empty tag.
        #expect(bench.meter.statistics.commands == 7)
    }

    @Test("rewriting the stored message writes nothing")
    func sameMessage() async throws {
        let message = Type4Fixtures.message(size: 1500)
        let bench = try await Type4Bench(try Type4Tag(configuration: .init(extendedLength: true), message: message))
        try await engine.writeNDEF(message, on: bench.connection)
        #expect(bench.meter.statistics.commands == 6)  // detection and the comparison read only
        #expect(await bench.type4Tag()?.ndefMessage == message)
    }

    @Test("a message that differs in one byte: NLEN 0000, one short UPDATE, NLEN")
    func oneByteChanged() async throws {
        let old = Type4Fixtures.message(size: 1500)
        var new = old
        new[1000] ^= 0xFF
        let bench = try await Type4Bench(try Type4Tag(configuration: .init(extendedLength: true), message: old))
        try await engine.writeNDEF(new, on: bench.connection)
        #expect(bench.meter.statistics.commands == 6 + 3)
        #expect(await bench.type4Tag()?.ndefMessage == new)
    }

    @Test("a prefix of the stored message needs only the new NLEN")
    func prefixMessage() async throws {
        let old = Type4Fixtures.message(size: 300)
        let bench = try await Type4Bench(try Type4Tag(message: old))
        try await engine.writeNDEF(Array(old.prefix(200)), on: bench.connection)
        #expect(bench.meter.statistics.commands == 6 + 1)
        #expect(await bench.type4Tag()?.ndefMessage == Array(old.prefix(200)))
    }

    @Test("the empty message: NLEN 0000 only")
    func emptyMessage() async throws {
        let bench = try await Type4Bench(try Type4Tag(message: Type4Fixtures.uri("gone")))
        try await engine.writeNDEF([], on: bench.connection)
        #expect(bench.meter.statistics.commands == 5 + 1)
        #expect(await bench.type4Tag()?.ndefMessage == [])
    }

    @Test(
        "UPDATE BINARY chunks follow MLc and the reader",
        arguments: [
            (Type4Tag.Configuration(ndefFileSize: 8192, extendedLength: true), true, 1),
            (Type4Tag.Configuration(ndefFileSize: 8192, extendedLength: true), false, 33),
            (Type4Tag.Configuration(ndefFileSize: 8192, maxUpdateLength: 100), true, 82),
        ])
    func chunks(configuration: Type4Tag.Configuration, extendedReader: Bool, updates: Int) async throws {
        let message = Type4Fixtures.message(size: 8190, seed: 9)
        let reader = extendedReader ? SimulatedReaderConfiguration.ideal : Type4Fixtures.shortReader()
        let bench = try await Type4Bench(try Type4Tag(configuration: configuration), reader: reader)
        try await engine.writeNDEF(message, on: bench.connection)
        #expect(await bench.type4Tag()?.ndefMessage == message)
        #expect(bench.meter.statistics.commands == 5 + updates + 1)
    }

    @Test("a 40 KB message into a mapping 3.0 file: ENLEN, UPDATE BINARY D6 then D7 (ODO)", arguments: [false, true])
    func extendedFile(extendedReader: Bool) async throws {
        let message = Type4Fixtures.message(size: 40_000, seed: 3)
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 65_536, extendedLength: extendedReader))
        let reader = extendedReader ? SimulatedReaderConfiguration.ideal : Type4Fixtures.shortReader()
        let bench = try await Type4Bench(tag, reader: reader)
        try await engine.writeNDEF(message, on: bench.connection)
        #expect(await bench.type4Tag()?.ndefMessage == message)
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status.messageLength == 40_000)
    }

    @Test("write access FF: readOnly before any UPDATE")
    func readOnly() async throws {
        let bench = try await Type4Bench(try Type4Tag(configuration: .init(writeProtected: true)))
        let error = await engineError { () async throws(TagEngineError) in
            try await engine.writeNDEF(Type4Fixtures.uri("x"), on: bench.connection)
        }
        #expect(error?.code == .readOnly)
        #expect(bench.meter.statistics.commands == 5)
    }

    @Test("a file that refuses UPDATE BINARY though its CC grants write access: readOnly with SW 6982")
    func fileRefuses() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0), ndefWritable: false)
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in
            try await engine.writeNDEF(Type4Fixtures.uri("x"), on: bench.connection)
        }
        #expect(error?.code == .readOnly)
        #expect(error?.tagStatus == [0x69, 0x82])
    }

    @Test("a message beyond the capacity: capacityExceeded, nothing written")
    func tooLong() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.type4.make())
        let error = await engineError { () async throws(TagEngineError) in
            try await engine.writeNDEF(Type4Fixtures.message(size: 2047), on: bench.connection)
        }
        #expect(error?.code == .capacityExceeded)
        #expect(bench.meter.statistics.commands == 5)
        try await engine.writeNDEF(Type4Fixtures.message(size: 2046), on: bench.connection)
        #expect(await bench.type4Tag()?.ndefMessage?.count == 2046)
    }
}
