import ISO7816
import NFCBytes
import NFCTags
import NFCTransport
import Testing

/// The state machines driven by hand, without a field: the exact APDUs, `61xx` and `6Cxx`
/// completion, and answers no simulated tag would give (truncated, too long, malformed `B1`).
@Suite("Type4 operations by hand")
struct Type4OperationTests {
    typealias Code = TagEngineError.Code
    static let ideal = ExchangeLimits(maxCommandLength: 65_544, maxResponseLength: 65_538, extendedLengthAPDUs: true, nativeCommands: .all)
    static let short = ExchangeLimits(maxCommandLength: 261, maxResponseLength: 258, extendedLengthAPDUs: false, nativeCommands: .all)

    func hex(_ text: String) -> [UInt8] { (try? Hex.decode(text)) ?? [] }

    /// Feeds `answer` and expects the next frame to be `frame` (hex).
    func expectFrame<Output>(_ step: TagStep<Output>, _ frame: String, _ sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .transceive(let bytes, _) = step else {
            Issue.record("expected a frame \(frame)", sourceLocation: sourceLocation)
            return
        }
        #expect(Hex.encode(bytes, uppercase: true) == frame, sourceLocation: sourceLocation)
    }

    @Test("the read procedure's APDUs, byte for byte, with an extended READ BINARY of the whole message")
    func readByHand() throws {
        var operation = Type4Operation(Type4ReadProcedure(limits: Self.ideal), limits: Self.ideal)
        // NDEF Tag Application Select: P2 00, Le 00 (NFC Forum T4T 2.0 §5.4.2).
        expectFrame(try operation.start(), "00A4040007D276000085010100")
        expectFrame(try operation.resume(with: .success(hex("9000"))), "00A4000C02E103")
        expectFrame(try operation.resume(with: .success(hex("9000"))), "00B000000F")
        expectFrame(try operation.resume(with: .success(hex("000F20FFFFFFFF0406E1042000000090 00"))), "00A4000C02E104")
        expectFrame(try operation.resume(with: .success(hex("9000"))), "00B0000002")
        expectFrame(try operation.resume(with: .success(hex("0400 9000"))), "00B00002000400")
        let message = [UInt8](repeating: 0xAB, count: 1024)
        guard case .done(let result) = try operation.resume(with: .success(message + [0x90, 0x00])) else {
            Issue.record("the read did not end")
            return
        }
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 8190, messageLength: 1024))
    }

    @Test("61xx: GET RESPONSE for the rest; 6Cxx: the command again with the exact Le")
    func responseCompletion() throws {
        var reader = Type4Operation(
            Type4FileReader(
                fileID: 0xE104, offset: 2, count: 300, sizes: Type4TransferSizes(readLength: 256, updateLength: 255), offsetObjects: false),
            limits: Self.short
        )
        expectFrame(try reader.start(), "00B0000200")
        expectFrame(try reader.resume(with: .success([UInt8](repeating: 1, count: 100) + hex("619C"))), "00C000009C")
        expectFrame(try reader.resume(with: .success([UInt8](repeating: 2, count: 156) + hex("9000"))), "00B001022C")
        expectFrame(try reader.resume(with: .success(hex("6C10"))), "00B0010210")
        expectFrame(try reader.resume(with: .success([UInt8](repeating: 3, count: 16) + hex("9000"))), "00B001121C")
        guard case .done(let data) = try reader.resume(with: .success([UInt8](repeating: 4, count: 28) + hex("9000"))) else {
            Issue.record("the read did not end")
            return
        }
        #expect(data.count == 300)
        #expect(Array(data.suffix(28)) == [UInt8](repeating: 4, count: 28))
    }

    @Test(
        "answers no tag should give: a typed error each",
        arguments: [
            ("90", Code.unexpectedResponse),  // one status byte
            ("", Code.unexpectedResponse),  // nothing
            (String(repeating: "00", count: 16) + "9000", Code.unexpectedResponse),  // more than Le 15
            ("6C20", Code.unexpectedResponse),  // 6Cxx offering more than asked
            ("000F9000", Code.invalidCapabilityContainer),  // a 2-byte CC
        ])
    func badAnswers(answer: String, code: Code) throws {
        var operation = Type4Operation(Type4Detection(), limits: Self.ideal)
        _ = try operation.start()
        _ = try operation.resume(with: .success(hex("9000")))
        _ = try operation.resume(with: .success(hex("9000")))
        #expect(throws: TagEngineError(code, "")) { try operation.resume(with: .success(hex(answer))) }
    }

    /// A READ BINARY with an odd INS (`B1`) for offsets beyond 0x7FFF (ISO/IEC 7816-4 §11.2.3,
    /// NFC Forum Type 4 Tag 3.0 §5.4.4): the answer is one discretionary data object `53`.
    static func offsetReader() -> Type4Operation<Type4FileReader> {
        Type4Operation(
            Type4FileReader(
                fileID: 0xE104, offset: 0x8000, count: 2, sizes: Type4TransferSizes(readLength: 255, updateLength: 255), offsetObjects: true
            ),
            limits: Self.short
        )
    }

    @Test(
        "READ BINARY B1 answers that are not one 53 object within the answer: unexpectedResponse",
        arguments: [
            "5381049000",  // length says 4, no data
            "54020102 9000",  // wrong tag
            "53849999999999 9000",  // 4-byte BER length
            "5303010203 9000",  // three bytes where two were asked
        ])
    func malformedOffsetObjectAnswers(answer: String) throws {
        var reader = Self.offsetReader()
        expectFrame(try reader.start(), "00B1000005540300800004")
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try reader.resume(with: .success(hex(answer))) }
    }

    @Test("a B1 answer with one byte of the two asked: the next byte is asked for at offset 0x8001")
    func shortOffsetObjectAnswer() throws {
        var reader = Self.offsetReader()
        expectFrame(try reader.start(), "00B1000005540300800004")
        expectFrame(try reader.resume(with: .success(hex("538101AA 9000"))), "00B1000005540300800103")
    }

    @Test("transport failures end the operation with their code")
    func transportFailure() throws {
        var operation = Type4Operation(Type4Detection(), limits: Self.ideal)
        _ = try operation.start()
        #expect(throws: TagEngineError(.tagLost, "")) { try operation.resume(with: .failure(TransportError(.tagLost))) }
    }

    @Test("a command the reader cannot carry is refused before it is sent")
    func tooLongForReader() throws {
        let tiny = ExchangeLimits(maxCommandLength: 8, maxResponseLength: 258, extendedLengthAPDUs: false, nativeCommands: .all)
        var operation = Type4Operation(Type4Detection(), limits: tiny)
        #expect(throws: TagEngineError(.unsupported, "")) { try operation.start() }
    }

    @Test("write plan: ranges already in place are skipped, chunks follow MLc and D7 overhead")
    func updatePlan() throws {
        let sizes = Type4TransferSizes(readLength: 255, updateLength: 100)
        var old = [UInt8](repeating: 0, count: 450)
        var new = old
        new[10] = 1
        new[20] = 2
        new[300] = 3
        old[449] = 9
        let updates = try sizes.updates(writing: new, at: 2, over: old)
        #expect(updates.map { $0.offset } == [12, 302, 451])
        #expect(updates.map { $0.data.count } == [11, 1, 1])
        #expect(try sizes.updates(writing: new, at: 2, over: new).isEmpty)
        // Beyond 7FFF each D7 carries 54 03 xxxxxx 53 L: 93 data bytes in an Nc of 100.
        let far = try sizes.updates(writing: [UInt8](repeating: 7, count: 200), at: 0x8000, over: nil)
        #expect(far.map { $0.data.count } == [93, 93, 14])
    }
}
