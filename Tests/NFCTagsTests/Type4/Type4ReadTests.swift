import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// NDEF detection and reading through the simulated field: the default tag, empty and read-only
/// tags, readers without extended APDUs or with small buffers, mapping 1.0 and 3.0 tags.
@Suite("Type4 read")
struct Type4ReadTests {
    let engine = Type4Engine()

    @Test("reads a message with the detection procedure plus one READ BINARY")
    func readsMessage() async throws {
        let message = Type4Fixtures.uri("read")
        let bench = try await Type4Bench(try Type4Tag(message: message))
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 2046, messageLength: message.count))
        // SELECT app, SELECT CC, READ CC, SELECT NDEF, READ NLEN, READ message.
        #expect(bench.meter.statistics.commands == 6)
    }

    @Test("an INITIALIZED tag (NLEN 0000) reads as empty; its status is read-write with the capacity")
    func emptyTag() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.type4.make())
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message.isEmpty)
        #expect(try await engine.queryStatus(on: bench.connection) == NDEFStatus(state: .readWrite, capacity: 2046))
    }

    @Test("write access FF reads as read-only")
    func readOnlyStatus() async throws {
        let message = Type4Fixtures.uri("ro")
        let tag = try Type4Tag(configuration: .init(writeProtected: true), message: message)
        let bench = try await Type4Bench(tag)
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status.state == .readOnly)
    }

    @Test("proprietary write access (80) counts as read-only")
    func proprietaryWriteAccess() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(write: 0x80), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0))
        let bench = try await Type4Bench(card)
        #expect(try await engine.queryStatus(on: bench.connection).state == .readOnly)
    }

    @Test("a card without the NDEF application: notSupported, and reading says notFormatted")
    func noApplication() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.iso7816.make())
        #expect(try await engine.queryStatus(on: bench.connection) == .notSupported)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .notFormatted)
        #expect(error?.tagStatus == [0x6A, 0x82])
    }

    @Test("a Type 2 target is refused before any command")
    func notISODEP() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.ntag213.make())
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(bench.meter.statistics.commands == 0)
    }

    @Test("8 KB through a reader without extended APDUs: READ BINARY of 256 bytes (Le 00)")
    func shortAPDUReader() async throws {
        let message = Type4Fixtures.message(size: 8190)
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 8192, extendedLength: true), message: message)
        let bench = try await Type4Bench(tag, reader: Type4Fixtures.shortReader())
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
        #expect(bench.meter.statistics.commands == 5 + 32)  // ⌈8190 / 256⌉ reads after detection
    }

    @Test("a reader whose answers hold at most 64 bytes gets READ BINARY of 62")
    func smallResponseBuffer() async throws {
        let message = Type4Fixtures.message(size: 1000)
        let bench = try await Type4Bench(try Type4Tag(message: message), reader: Type4Fixtures.shortReader(maxResponse: 64))
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
        #expect(bench.meter.statistics.commands == 5 + 17)  // ⌈1000 / 62⌉
    }

    @Test("maximumReadLength caps every READ BINARY")
    func capped() async throws {
        let message = Type4Fixtures.message(size: 8190)
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 8192, extendedLength: true), message: message)
        let bench = try await Type4Bench(tag)
        #expect(try await Type4Engine(maximumReadLength: 251).readNDEF(on: bench.connection).message == message)
        #expect(bench.meter.statistics.commands == 5 + 33)  // ⌈8190 / 251⌉
    }

    @Test("a tag whose buffer is smaller than its CC's MLe: short answers are continued")
    func shortAnswers() async throws {
        let message = Type4Fixtures.message(size: 600)
        var tag = try Type4Tag(message: message)
        tag.card.updateApplet(NDEFApplication.self) { $0.maxReadLength = 100 }
        let bench = try await Type4Bench(tag)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
    }

    @Test("a card that answers 61xx beyond its response buffer is followed with GET RESPONSE")
    func getResponseChain() async throws {
        let message = Type4Fixtures.message(size: 3000)
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 4096, extendedLength: true), message: message)
        tag.card.configuration.maxResponseDataLength = 1000
        let bench = try await Type4Bench(tag)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
        #expect(bench.meter.statistics.commands == 5 + 3)  // READ BINARY then two GET RESPONSE
    }

    @Test("mapping 1.0: SELECT of D2760000850100 after 6A82, file SELECT with P2 00")
    func version1() async throws {
        let message = Type4Fixtures.uri("v1")
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(version: 0x10, mle: 0x00F6, mlc: 0x00F6),
            ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: message.count, message: message),
            aid: NDEFApplication.version1ApplicationIdentifier
        )
        let bench = try await Type4Bench(card)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
        #expect(bench.meter.statistics.commands == 7)
    }

    @Test("mapping 3.0, 64 KB file: ENLEN, one extended READ BINARY, or B0 then B1 (ODO) reads with short APDUs", arguments: [false, true])
    func extendedFile(extendedReader: Bool) async throws {
        let message = Type4Fixtures.message(size: 40_000)
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 65_536, extendedLength: extendedReader), message: message)
        let reader = extendedReader ? SimulatedReaderConfiguration.ideal : Type4Fixtures.shortReader()
        let bench = try await Type4Bench(tag, reader: reader)
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 65_532, messageLength: 40_000))
        // Extended: CC in two reads, then one READ BINARY. Short: MLe 255, so B0 reads of 255
        // bytes up to offset 7FFF, then B1 reads of 252 data bytes (plus the 53 82 xx header).
        var reads = 1
        if !extendedReader {
            reads = 0
            var offset = 4
            while offset < 40_004 {
                offset += offset > 0x7FFF ? 252 : 255
                reads += 1
            }
        }
        #expect(bench.meter.statistics.commands == 6 + reads)
    }
}
