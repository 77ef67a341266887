import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2StatusTests {
    @Test(arguments: [
        (VirtualTagKind.ntag213, 142), (.ntag215, 492), (.ntag216, 868), (.ultralight, 126), (.ultralightMF0UL11, 46),
    ])
    func formattedTagsAreWritableWithTheirCapacity(kind: VirtualTagKind, capacity: Int) async throws {
        let bench = try await Type2Bench(kind)
        let status = try await bench.engine.queryStatus(on: bench.connection)
        #expect(status == NDEFStatus(state: .readWrite, capacity: capacity, messageLength: 0))
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func blankTagsAreNotSupported(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind, blank: true)
        #expect(try await bench.engine.queryStatus(on: bench.connection) == .notSupported)
    }

    @Test(arguments: [
        ("00101200", "no magic"), ("E2101200", "another magic"), ("E1201200", "version 2.0"),
        ("E1101300", "data area past user memory"), ("E1101280", "read access proprietary"), ("E1100000", "empty data area"),
    ])
    func unusableCapabilityContainersAreNotSupported(cc: String, why: String) async throws {
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes(cc), at: 12, in: &$0) }
        let bench = try await Type2Bench(tag)
        #expect(try await bench.engine.queryStatus(on: bench.connection) == .notSupported, "\(why)")
    }

    @Test func writeAccessFhIsReadOnly() async throws {
        let tag = try type2Tag(.ntag215) { $0[15] = 0x0F }
        let bench = try await Type2Bench(tag)
        let status = try await bench.engine.queryStatus(on: bench.connection)
        #expect(status.state == .readOnly)
        #expect(status.capacity == 492)
        // Read-only by the CC: the dynamic lock bytes are not needed.
        #expect(bench.connection.codes == [0x60, 0x3A])
    }

    @Test func aStaticLockBitOnADataPageIsReadOnly() async throws {
        let tag = try type2Tag(.ntag213) { $0[11] = 0x01 }  // L8: page 8
        let bench = try await Type2Bench(tag)
        #expect(try await bench.engine.queryStatus(on: bench.connection).state == .readOnly)
    }

    @Test(arguments: [(VirtualTagKind.ntag213, 0x28), (.ntag215, 0x82), (.ntag216, 0xE2), (.ultralight, 0x24)])
    func aDynamicLockBitIsReadOnly(kind: VirtualTagKind, lockPage: Int) async throws {
        let open = try await Type2Bench(kind)
        #expect(try await open.engine.queryStatus(on: open.connection).state == .readWrite)
        #expect(open.connection.frames.last == [0x3A, UInt8(lockPage), UInt8(lockPage)])
        let tag = try type2Tag(kind) { $0[lockPage * 4] = 0x02 }
        let bench = try await Type2Bench(tag)
        #expect(try await bench.engine.queryStatus(on: bench.connection).state == .readOnly)
    }

    @Test func aLockControlTLVMovesTheNDEFTLVAndShrinksTheCapacity() async throws {
        // NTAG213 as some tools format it: 12 lock bits at page 28h (A0h × 16 / 16), 8 bytes per bit.
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes("0103A00C34 0300FE"), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        #expect(try await bench.engine.queryStatus(on: bench.connection) == NDEFStatus(state: .readWrite, capacity: 137))
    }

    @Test func reservedBytesInsideTheDataAreaDoNotCount() async throws {
        // A Memory Control TLV reserving 8 bytes at page 08h (page 2 × 16 B/page = byte 32).
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes("0203 200804 0300FE"), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        #expect(try await bench.engine.queryStatus(on: bench.connection).capacity == 144 - 5 - 8 - 2)
    }

    @Test func aMessageReportsItsLength() async throws {
        let bench = try await Type2Bench(.ntag216)
        try await bench.engine.writeNDEF(type2Message(length: 300), on: bench.connection)
        let status = try await bench.engine.queryStatus(on: bench.connection)
        #expect(status == NDEFStatus(state: .readWrite, capacity: 868, messageLength: 300))
    }

    @Test func aTLVAreaThatLiesIsAnError() async throws {
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes("03 FF 01 00"), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        await #expect(throws: TagEngineError(.invalidNDEFArea, "")) { try await bench.engine.queryStatus(on: bench.connection) }
    }
}

extension VirtualTagKind {
    static let type2Kinds: [VirtualTagKind] = [.ntag213, .ntag215, .ntag216, .ultralight, .ultralightMF0UL11]
}
