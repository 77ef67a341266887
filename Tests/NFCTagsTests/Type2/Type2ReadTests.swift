import NDEF
import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2ReadTests {
    @Test(arguments: VirtualTagKind.type2Kinds)
    func anEmptyTagReadsAsAnEmptyMessage(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == [])
        #expect(result.status.state == .readWrite)
    }

    @Test func aShortMessageInThePagesOfTheFirstReadTakesOneRead() async throws {
        let message = try NDEFMessage(NDEFRecord(typeNameFormat: .empty)).encoded()  // 3 bytes
        let tag = try type2Tag(.ntag213) { type2Put([0x03, 0x03] + message + [0xFE], at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        // GET_VERSION, pages 2–5, the dynamic lock page.
        #expect(bench.connection.frames == [[0x60], [0x3A, 0x02, 0x05], [0x3A, 0x28, 0x28]])
    }

    @Test func nullTLVsAndAProprietaryTLVComeBeforeTheMessage() async throws {
        let message = type2Message(length: 40)
        let tag = try type2Tag(.ntag215) {
            type2Put([0x00, 0x00, 0xFD, 0x04, 0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x03, 40] + message + [0xFE], at: 16, in: &$0)
        }
        let bench = try await Type2Bench(tag)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 496 - 9 - 4, messageLength: 40))
    }

    @Test func theMessageRunsAroundReservedAndLockBytes() async throws {
        // Memory Control TLV: 6 reserved bytes at byte 40; Lock Control TLV: 2 lock bytes at byte 60
        // (page 3 × 16 B + 12), 12 lock bits. The message bytes skip both.
        let message = type2Message(length: 60, fill: 0x77)
        var expected: [UInt8] = []
        let tag = try type2Tag(.ntag213) { memory in
            type2Put(hexBytes("0203 2806 04  0103 3C0C 34"), at: 16, in: &memory)
            var stream = [UInt8(0x03), UInt8(message.count)] + message + [0xFE]
            var address = 26
            while !stream.isEmpty {
                if (40..<46).contains(address) {
                    memory[address] = 0xEE  // reserved
                } else if (60..<62).contains(address) {
                    memory[address] = 0x00  // lock bits, clear
                } else {
                    memory[address] = stream.removeFirst()
                }
                address += 1
            }
            expected = memory
        }
        let bench = try await Type2Bench(tag)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 144 - 10 - 6 - 2 - 2, messageLength: 60))
        #expect(await bench.memory() == expected)
    }

    @Test func aTerminatorWithoutNDEFTLVIsAnEmptyWritableArea() async throws {
        let tag = try type2Tag(.ntag213) { type2Put([0xFE, 0x00, 0x00, 0x00], at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result == NDEFReadResult(status: NDEFStatus(state: .readWrite, capacity: 142), message: []))
    }

    @Test func blankTagsAreNotFormatted() async throws {
        let bench = try await Type2Bench(.ultralight, blank: true)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await bench.engine.readNDEF(on: bench.connection) }
    }

    @Test(arguments: [
        ("E1201200", TagEngineError.Code.invalidCapabilityContainer),
        ("E1101300", .invalidCapabilityContainer),
        ("00000001", .notFormatted),
        ("E1101280", .unsupported),
    ])
    func unusableCapabilityContainersAreTypedErrors(cc: String, code: TagEngineError.Code) async throws {
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes(cc), at: 12, in: &$0) }
        let bench = try await Type2Bench(tag)
        let error = await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: bench.connection) }
        #expect(error?.code == code)
    }

    @Test(arguments: [
        ("03 FF 01 00", "NDEF Message TLV at byte 16 declares 256 bytes"),
        ("03 FF FF FF", "length FFFFh"),
        ("01 04 A00C3400", "expected 3"),
        ("02 03 F0 10 0F", "beyond the 1024 bytes"),
        ("FD 90", "Proprietary TLV at byte 16 declares 144 bytes"),
    ])
    func lyingTLVsAreInvalidNDEFAreas(tlvs: String, reason: String) async throws {
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes(tlvs), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        let error = await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .invalidNDEFArea)
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
    }

    @Test func aTLVRunningIntoTheEndOfTheDataAreaIsInvalid() async throws {
        // NULLs to the last byte, then a type byte with no room for its length.
        let tag = try type2Tag(.ultralightMF0UL11) { memory in
            type2Put([UInt8](repeating: 0, count: 47) + [0xFD], at: 16, in: &memory)
        }
        let bench = try await Type2Bench(tag)
        let error = await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .invalidNDEFArea)
        #expect(error?.reason.contains("byte 63 has no length byte") == true)
    }

    @Test func anAreaOfNULLsIsWalkedInGrowingReads() async throws {
        let tag = try type2Tag(.ntag216) { type2Put([UInt8](repeating: 0, count: 16), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == [])
        #expect(result.status.capacity == 868)
        // Pages 2–5, then 4, 8, 16… pages as the walk needs them.
        let spans = bench.connection.frames.filter { $0.first == 0x3A }.map { Int($0[2]) - Int($0[1]) + 1 }
        #expect(spans.prefix(4) == [4, 4, 8, 16])
    }

    @Test func aReadProtectedTagIsATagErrorAndIsReactivated() async throws {
        let tag = try type2Tag(.ntag213) { memory in
            memory[0x29 * 4 + 3] = 0x04  // AUTH0 = page 4
            memory[0x2A * 4] = 0x80  // PROT
        }
        let bench = try await Type2Bench(tag)
        let error = await #expect(throws: TagEngineError.self) { try await bench.engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .tagError)
        #expect(error?.tagStatus == [0x00])
        // Reactivated: the tag answers again on the same connection.
        #expect(try await bench.engine.identify(on: bench.connection).model == "NTAG213")
    }

    @Test func transportFailuresKeepTheirCodes() async throws {
        let crc = try await Type2Bench(.ntag213)
        await crc.field.inject(.corruptResponse(command: 2, .crcError), into: crc.id)
        await #expect(throws: TagEngineError(.transport, "")) { try await crc.engine.readNDEF(on: crc.connection) }

        let slow = try await Type2Bench(.ntag213)
        await slow.field.inject(.delayResponse(command: 2, by: .milliseconds(50)), into: slow.id)
        await #expect(throws: TagEngineError(.timeout, "")) { try await slow.engine.readNDEF(on: slow.connection) }

        let gone = try await Type2Bench(.ntag213)
        await gone.field.inject(.removeAfterCommands(1), into: gone.id)
        await #expect(throws: TagEngineError(.tagLost, "")) { try await gone.engine.readNDEF(on: gone.connection) }
    }

    @Test func flippedBitsInTheCCAreCaught() async throws {
        let bench = try await Type2Bench(.ntag213)
        // Answer 2 is pages 2–5; byte 4 is the CC magic number.
        await bench.field.inject(.corruptResponse(command: 2, .flipBits(byte: 4, mask: 0x01)), into: bench.id)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await bench.engine.readNDEF(on: bench.connection) }
    }
}
