import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2DumpTests {
    /// The memory as READ shows it: PWD and PACK as zeros.
    static func readable(_ chip: Type2Tag) -> [[UInt8]] {
        (0..<chip.model.pageCount).map { page in
            page == chip.model.passwordPage || page == chip.model.packPage ? [0, 0, 0, 0] : chip.page(page)
        }
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func knownModelsAreReadWholeInOneFastRead(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind)
        let rows = try await bench.engine.dump(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(rows.map(\.1) == Self.readable(chip))
        #expect(rows.first?.0 == "00h")
        #expect(rows.count == chip.model.pageCount)
        #expect(bench.connection.codes == [0x60, 0x3A])
    }

    @Test func aCapSplitsTheReads() async throws {
        let bench = try await Type2Bench(.ntag213, engine: Type2Engine(maximumReadLength: 16))
        let rows = try await bench.engine.dump(on: bench.connection)
        #expect(rows.count == 45)
        #expect(bench.connection.count(0x3A) == 12)
    }

    @Test(arguments: [VirtualTagKind.ntag213, .ntag216])
    func readOnlyReadersFindTheEndDespiteRollOver(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind, configuration: .type2ReadAndWriteOnly)
        let rows = try await bench.engine.dump(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(rows.map(\.1) == Self.readable(chip))
        #expect(rows.last?.0 == Type2Bench.hex(chip.model.pageCount - 1))
    }

    @Test func olderChipsAreReadUntilTheyRefuse() async throws {
        let bench = try await Type2Bench(LegacyType2Tag(try type2Tag(.ultralightMF0UL11)))
        let rows = try await bench.engine.dump(on: bench.connection)
        #expect(rows.count == 20)
    }

    @Test func aReadProtectedAreaEndsTheDump() async throws {
        let tag = try type2Tag(.ntag216) { memory in
            memory[0xE3 * 4 + 3] = 0x10  // AUTH0
            memory[0xE4 * 4] = 0x80  // PROT
        }
        let bench = try await Type2Bench(tag)
        let rows = try await bench.engine.dump(on: bench.connection)
        #expect(rows.count == 0x10)
        #expect(bench.connection.frames.count < 30)
    }
}

extension Type2Bench {
    static func hex(_ page: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[page >> 4], digits[page & 0x0F]]) + "h"
    }
}
