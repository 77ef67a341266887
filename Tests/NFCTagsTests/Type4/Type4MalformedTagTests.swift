import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Tags that lie or misbehave: every CC field out of range, NLEN beyond the file, files smaller
/// than announced, refused commands — a typed error naming what and where, never a trap.
@Suite("Type4 malformed tags")
struct Type4MalformedTagTests {
    let engine = Type4Engine()

    struct BadCC: Sendable, CustomTestStringConvertible {
        var field: String
        var cc: [UInt8]
        var testDescription: String { field }
    }

    static let badCCs: [BadCC] = [
        BadCC(field: "MLe", cc: Type4Fixtures.capabilityContainer(mle: 0x000E)),
        BadCC(field: "MLc", cc: Type4Fixtures.capabilityContainer(mlc: 0x0000)),
        BadCC(field: "CCLEN", cc: Type4Fixtures.capabilityContainer(ccLength: 0x000E)),
        BadCC(field: "CCLEN", cc: Type4Fixtures.capabilityContainer(ccLength: 0xFFFF)),
        BadCC(field: "mapping version", cc: Type4Fixtures.capabilityContainer(version: 0x40)),
        BadCC(field: "mapping version", cc: Type4Fixtures.capabilityContainer(version: 0x00)),
        BadCC(field: "NDEF File Control TLV", cc: Type4Fixtures.capabilityContainer(tlv: [0x05, 0x06])),
        BadCC(field: "NDEF File Control TLV", cc: Type4Fixtures.capabilityContainer(tlv: [0x04, 0x05])),
        BadCC(field: "NDEF File Control TLV", cc: Type4Fixtures.capabilityContainer(ccLength: 0x0011, tlv: [0x06, 0x08]) + [0x00, 0x00]),
        BadCC(field: "NDEF file identifier", cc: Type4Fixtures.capabilityContainer(fileID: 0xE103)),
        BadCC(field: "NDEF file identifier", cc: Type4Fixtures.capabilityContainer(fileID: 0x3F00)),
        BadCC(field: "NDEF file identifier", cc: Type4Fixtures.capabilityContainer(fileID: 0x0000)),
        BadCC(field: "maximum NDEF file size", cc: Type4Fixtures.capabilityContainer(size: 0x0004)),
        BadCC(field: "maximum NDEF file size", cc: Type4Fixtures.capabilityContainer(size: 0xFFFF)),
        BadCC(field: "read access", cc: Type4Fixtures.capabilityContainer(read: 0x01)),
        BadCC(field: "length", cc: Array(Type4Fixtures.capabilityContainer().prefix(10))),
    ]

    @Test("a CC field out of range: invalidCapabilityContainer naming it; the status is notSupported", arguments: badCCs)
    func invalidCC(bad: BadCC) async throws {
        let card = Type4Fixtures.card(cc: bad.cc, ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0))
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .invalidCapabilityContainer)
        #expect(error?.reason.contains("CC \(bad.field)") == true, "\(String(describing: error))")
        #expect(try await engine.queryStatus(on: bench.connection) == .notSupported)
    }

    @Test("a CC file the application lacks, and an NDEF file the CC names but the tag lacks")
    func missingFiles() async throws {
        var application = try #require(try Type4Tag().ndefApplication)
        application.files.removeAll { $0.id == 0xE104 }
        let noNDEF = try await Type4Bench(ISO7816Card(applets: [application]))
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: noNDEF.connection) }
        #expect(error?.code == .invalidCapabilityContainer)
        #expect(error?.tagStatus == [0x6A, 0x82])

        application.files.removeAll()
        let noCC = try await Type4Bench(ISO7816Card(applets: [application]))
        #expect(try await engine.queryStatus(on: noCC.connection) == .notSupported)
    }

    @Test("proprietary read access: authenticationFailed, status notSupported")
    func readProtected() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(read: 0x80), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: 0))
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .authenticationFailed)
        #expect(try await engine.queryStatus(on: bench.connection) == .notSupported)
    }

    @Test("NLEN beyond the capacity, or 1–2: invalidNDEFArea on read and status; a write repairs it", arguments: [2047, 0xFFFF, 1])
    func lyingNLEN(nlen: Int) async throws {
        let card = Type4Fixtures.card(cc: Type4Fixtures.capabilityContainer(), ndefFile: Type4Fixtures.ndefFile(size: 2048, nlen: nlen))
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .invalidNDEFArea)
        #expect(error?.reason.contains("NLEN \(nlen)") == true)
        let status = await engineError { () async throws(TagEngineError) in _ = try await engine.queryStatus(on: bench.connection) }
        #expect(status?.code == .invalidNDEFArea)
        let message = Type4Fixtures.uri("fixed")
        try await engine.writeNDEF(message, on: bench.connection)
        #expect(try await engine.readNDEF(on: bench.connection).message == message)
    }

    @Test("a CC that promises more than the file holds: the read past its end fails with 6B00")
    func fileSmallerThanCC() async throws {
        let message = Type4Fixtures.message(size: 400)
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(size: 0x1000),
            ndefFile: Type4Fixtures.ndefFile(size: 300, nlen: 1000, message: Array(message.prefix(298)))
        )
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .invalidNDEFArea)
        #expect(error?.tagStatus == [0x6B, 0x00])
        #expect(error?.reason.contains("offset 300") == true)
    }

    @Test(
        "a status word the spec does not expect: tagError carrying it",
        arguments: [
            (UInt8(0xB0), [UInt8(0x6F), 0x00], TagEngineError.Code.tagError),
            (UInt8(0xB0), [UInt8(0x65), 0x81], TagEngineError.Code.tagError),
            (UInt8(0xB0), [UInt8(0x69), 0x82], TagEngineError.Code.authenticationFailed),
            (UInt8(0xD6), [UInt8(0x65), 0x81], TagEngineError.Code.tagError),
        ])
    func wrongStatus(instruction: UInt8, status: [UInt8], code: TagEngineError.Code) async throws {
        let card = try MisbehavingApplet.card { command, answer in
            // Leave the CC and NLEN alone: fail the message read or the update.
            let offset = Int(command.p1) << 8 | Int(command.p2)
            guard command.ins == instruction, offset >= 2 else { return nil }
            return SimResponseAPDU(SimStatusWord(status[0], status[1]))
        }
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in
            if instruction == 0xB0 {
                _ = try await engine.readNDEF(on: bench.connection)
            } else {
                try await engine.writeNDEF(Type4Fixtures.message(size: 100), on: bench.connection)
            }
        }
        #expect(error?.code == code)
        #expect(error?.tagStatus == status)
    }

    @Test("READ BINARY answered 9000 with no data: unexpectedResponse, not a loop")
    func emptyAnswers() async throws {
        let card = try MisbehavingApplet.card { command, answer in
            command.ins == 0xB0 && command.p2 >= 2 ? SimResponseAPDU(.success) : nil
        }
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .unexpectedResponse)
        #expect(bench.meter.statistics.commands == 6)
    }

    @Test("NLEN answered in one byte: unexpectedResponse")
    func truncatedNLEN() async throws {
        let card = try MisbehavingApplet.card { command, answer in
            command.ins == 0xB0 && command.ne == 2 ? SimResponseAPDU(data: [0x00]) : nil
        }
        let bench = try await Type4Bench(card)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .unexpectedResponse)
        #expect(error?.reason.contains("NLEN") == true)
    }

    /// What one answer with a byte flipped (`mask` FF, CRC recomputed, so the reader cannot tell)
    /// must produce. The read procedure (NFC Forum Type 4 Tag 3.0 §5.4.1) is six commands:
    /// 1 SELECT the NDEF Tag Application, 2 SELECT the CC file, 3 READ BINARY of the 15-byte CC,
    /// 4 SELECT the NDEF file, 5 READ BINARY of NLEN, 6 READ BINARY of the message. A SELECT
    /// answers only its status word (bytes 0–1), so a flip at byte 2 or 3 changes nothing.
    struct Flip: Sendable, CustomTestStringConvertible {
        enum Outcome: Sendable {
            /// Refused with this code, after this many commands, naming the damaged status word.
            case refused(TagEngineError.Code, commands: Int, status: [UInt8]?)
            /// The message as stored (the flip missed the answer, or left it valid).
            case unchanged
            /// The stored message with this byte flipped.
            case flipped(Int)
            /// NLEN's low byte flipped from 0x15 to 0xEA: 234 bytes read, the stored message then
            /// the file's zero padding.
            case longer(Int)
        }
        var command: Int
        var byte: Int
        var outcome: Outcome
        var testDescription: String { "command \(command) byte \(byte)" }
    }

    static let flips: [Flip] = [
        // SELECT application: 90 00 → 6F 00 / 90 FF is a refusal.
        Flip(command: 1, byte: 0, outcome: .refused(.notFormatted, commands: 1, status: [0x6F, 0x00])),
        Flip(command: 1, byte: 1, outcome: .refused(.notFormatted, commands: 1, status: [0x90, 0xFF])),
        Flip(command: 1, byte: 2, outcome: .unchanged),
        Flip(command: 1, byte: 3, outcome: .unchanged),
        Flip(command: 2, byte: 0, outcome: .refused(.invalidCapabilityContainer, commands: 2, status: [0x6F, 0x00])),
        Flip(command: 2, byte: 1, outcome: .refused(.invalidCapabilityContainer, commands: 2, status: [0x90, 0xFF])),
        Flip(command: 2, byte: 2, outcome: .unchanged),
        Flip(command: 2, byte: 3, outcome: .unchanged),
        // The CC: CCLEN 000F → FF0F or 00F0 and MLe 00xx → FFxx stay in their ranges (§5.1);
        // mapping version 20 → DF (13.15) is one the engine must not read.
        Flip(command: 3, byte: 0, outcome: .unchanged),
        Flip(command: 3, byte: 1, outcome: .unchanged),
        Flip(command: 3, byte: 2, outcome: .refused(.invalidCapabilityContainer, commands: 3, status: nil)),
        Flip(command: 3, byte: 3, outcome: .unchanged),
        Flip(command: 4, byte: 0, outcome: .refused(.invalidCapabilityContainer, commands: 4, status: [0x6F, 0x00])),
        Flip(command: 4, byte: 1, outcome: .refused(.invalidCapabilityContainer, commands: 4, status: [0x90, 0xFF])),
        Flip(command: 4, byte: 2, outcome: .unchanged),
        Flip(command: 4, byte: 3, outcome: .unchanged),
        // NLEN 0015: FF15 is beyond the file; 00EA is within it; bytes 2–3 are the status word.
        Flip(command: 5, byte: 0, outcome: .refused(.invalidNDEFArea, commands: 5, status: nil)),
        Flip(command: 5, byte: 1, outcome: .longer(0xEA)),
        Flip(command: 5, byte: 2, outcome: .refused(.tagError, commands: 5, status: [0x6F, 0x00])),
        Flip(command: 5, byte: 3, outcome: .refused(.tagError, commands: 5, status: [0x90, 0xFF])),
        // The message itself: the engine hands over the bytes it read, flipped (the NDEF codec
        // above it judges them).
        Flip(command: 6, byte: 0, outcome: .flipped(0)),
        Flip(command: 6, byte: 1, outcome: .flipped(1)),
        Flip(command: 6, byte: 2, outcome: .flipped(2)),
        Flip(command: 6, byte: 3, outcome: .flipped(3)),
    ]

    @Test("a byte flipped in an answer (valid CRC): the typed error its field calls for, or exactly the flipped bytes", arguments: flips)
    func flippedBits(flip: Flip) async throws {
        let stored = Type4Fixtures.uri("flip")
        #expect(stored.count == 0x15, "the table above assumes NLEN 0015")
        let bench = try await Type4Bench(try Type4Tag(message: stored))
        await bench.field.inject(.corruptResponse(command: flip.command, .flipBits(byte: flip.byte, mask: 0xFF)), into: bench.id)
        switch flip.outcome {
        case .refused(let code, let commands, let status):
            let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
            #expect(error?.code == code, "\(String(describing: error))")
            #expect(error?.tagStatus == status)
            #expect(bench.meter.statistics.commands == commands)
        case .unchanged:
            #expect(try await engine.readNDEF(on: bench.connection).message == stored)
        case .flipped(let index):
            var expected = stored
            expected[index] ^= 0xFF
            #expect(try await engine.readNDEF(on: bench.connection).message == expected)
        case .longer(let length):
            let message = try await engine.readNDEF(on: bench.connection).message
            #expect(message == stored + [UInt8](repeating: 0, count: length - stored.count))
        }
    }

    @Test("an answer later than the engine waits: timeout")
    func lateAnswer() async throws {
        let bench = try await Type4Bench(try Type4Tag(message: Type4Fixtures.uri("late")))
        await bench.field.inject(.delayResponse(command: 6, by: .seconds(30)), into: bench.id)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .timeout)
    }

    @Test("a CRC error in an answer is a transport error")
    func crcError() async throws {
        let bench = try await Type4Bench(try Type4Tag(message: Type4Fixtures.uri("crc")))
        await bench.field.inject(.corruptResponse(command: 3, .crcError), into: bench.id)
        let error = await engineError { () async throws(TagEngineError) in _ = try await engine.readNDEF(on: bench.connection) }
        #expect(error?.code == .transport)
        #expect(error?.transport?.code == .transmission)
    }
}
