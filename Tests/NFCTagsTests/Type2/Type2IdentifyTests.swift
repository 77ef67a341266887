import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCTags

@Suite struct Type2IdentifyTests {
    @Test(arguments: [
        (VirtualTagKind.ntag213, "NTAG213", 180, "144 B"),
        (.ntag215, "NTAG215", 540, "504 B"),
        (.ntag216, "NTAG216", 924, "888 B"),
        (.ultralight, "MIFARE Ultralight EV1 (MF0UL21)", 164, "128 B"),
        (.ultralightMF0UL11, "MIFARE Ultralight EV1 (MF0UL11)", 80, "48 B"),
    ])
    func namesTheModelFromGetVersion(kind: VirtualTagKind, model: String, memory: Int, user: String) async throws {
        let bench = try await Type2Bench(kind)
        let identity = try await bench.engine.identify(on: bench.connection)
        #expect(identity.family == .type2)
        #expect(identity.model == model)
        #expect(identity.memorySize == memory)
        #expect(identity.details.first { $0.0 == "user memory" }?.1 == user)
        #expect(bench.connection.codes == [0x60])
    }

    @Test(arguments: [false, true])
    func olderChipsAreReactivatedAndDescribedFromTheirCC(nak: Bool) async throws {
        let tag = LegacyType2Tag(try type2Tag(.ultralightMF0UL11), nakUnknown: nak)
        let bench = try await Type2Bench(tag)
        let identity = try await bench.engine.identify(on: bench.connection)
        #expect(identity.model == "MIFARE Ultralight")
        #expect(identity.memorySize == nil)
        #expect(identity.details.first { $0.0 == "GET_VERSION" }?.1 == "not supported")
        #expect(identity.details.first { $0.0 == "data area" }?.1 == "48 B")
        #expect(bench.connection.codes == [0x60, 0x30])
    }

    @Test func readersWithoutNativeCommandsSkipGetVersion() async throws {
        let bench = try await Type2Bench(.ntag215, configuration: .type2ReadAndWriteOnly)
        let identity = try await bench.engine.identify(on: bench.connection)
        #expect(identity.model == "NXP Type 2 tag")
        #expect(identity.details.first { $0.0 == "data area" }?.1 == "496 B")
        #expect(bench.connection.codes == [0x30])
    }

    @Test func unknownNXPProductsAreNamedByFamilyAndStorageSize() throws {
        let ntag = Type2IdentifyOperation.identity(try #require(Type2Version([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0E, 0x03])))
        #expect(ntag.model == "NTAG (unknown model)")
        #expect(ntag.details.last?.1 == "128 B")
        let other = Type2IdentifyOperation.identity(try #require(Type2Version([0x00, 0x05, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])))
        #expect(other.model == "Type 2 tag (vendor 05h)")
        #expect(other.details.last?.1 == "128–256 B")
    }

    @Test(arguments: [
        ("0004040502021303", nil), ("0004040203000F03", nil), ("0004030201000E03", Type2Model.ultralightEV1MF0UL21),
        ("0004040201001103", .ntag215), ("0004040201000F", nil),
    ])
    func onlyKnownVersionsNameAModel(version: String, model: Type2Model?) {
        #expect(Type2Version(hexBytes(version)).flatMap(Type2Model.init(version:)) == model)
    }

    @Test func aTagThatLeavesDuringTheProbeIsLost() async throws {
        let bench = try await Type2Bench(.ntag213)
        await bench.field.inject(.removeAfterCommands(0), into: bench.id)
        await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.identify(on: bench.connection) }
    }
}
