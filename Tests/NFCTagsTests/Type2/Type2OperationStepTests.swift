import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

/// Drives the read operation by hand, answer by answer, with no field: what a driver would do.
@Suite struct Type2OperationStepTests {
    static let ntag213Version = hexBytes("0004040201000F03")
    static let limits = ExchangeLimits(maxCommandLength: 64, maxResponseLength: 256, extendedLengthAPDUs: false, nativeCommands: .all)

    /// The frame a step asks to send, or nil.
    static func frame<T>(_ step: TagStep<T>) -> [UInt8]? {
        if case .transceive(let frame, _) = step { return frame }
        return nil
    }

    @Test func aShortMessageTakesThreeExchanges() throws {
        var operation = Type2ReadNDEFOperation(limits: Self.limits)
        #expect(Self.frame(try operation.start()) == [0x60])
        #expect(Self.frame(try operation.resume(with: .success(Self.ntag213Version))) == [0x3A, 0x02, 0x05])
        // Lock bytes clear, CC E1 10 12 00, an NDEF TLV of 9 bytes: 6 in pages 4–5, 3 in page 6.
        let header = hexBytes("B4480000 E1101200 0309D101 05540265")
        #expect(Self.frame(try operation.resume(with: .success(header))) == [0x3A, 0x06, 0x06])
        // Page 6, then the dynamic lock page.
        #expect(Self.frame(try operation.resume(with: .success(hexBytes("6E6869FE")))) == [0x3A, 0x28, 0x28])
        let last = try operation.resume(with: .success(hexBytes("000000BD")))
        guard case .done(let result) = last else {
            Issue.record("expected the result, got \(last)")
            return
        }
        #expect(result.message == hexBytes("D1010554 02656E6869"))
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 142, messageLength: 9))
    }

    @Test func aTruncatedAnswerIsAnUnexpectedResponse() throws {
        var operation = Type2ReadNDEFOperation(limits: Self.limits)
        _ = try operation.start()
        _ = try operation.resume(with: .success(Self.ntag213Version))
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try operation.resume(with: .success(hexBytes("B4480000 E11012"))) }
    }

    @Test func aNAKReactivatesThenFails() throws {
        var operation = Type2ReadNDEFOperation(limits: Self.limits)
        _ = try operation.start()
        _ = try operation.resume(with: .success(Self.ntag213Version))
        guard case .reactivate = try operation.resume(with: .success([0x00])) else {
            Issue.record("a NAK must reactivate the tag")
            return
        }
        let error = #expect(throws: TagEngineError.self) { try operation.resume(with: .success([])) }
        #expect(error?.code == .tagError)
        #expect(error?.tagStatus == [0x00])
    }

    @Test func silenceToGetVersionFallsBackToREAD() throws {
        var operation = Type2ReadNDEFOperation(limits: Self.limits)
        _ = try operation.start()
        guard case .reactivate = try operation.resume(with: .failure(TransportError(.timeout))) else {
            Issue.record("silence must reactivate the tag")
            return
        }
        #expect(Self.frame(try operation.resume(with: .success([]))) == [0x30, 0x02])
        let answer = try operation.resume(with: .success(hexBytes("B4480000 E1100600 0300FE00 00000000")))
        guard case .done(let result) = answer else {
            Issue.record("expected the result, got \(answer)")
            return
        }
        #expect(result == NDEFReadResult(status: NDEFStatus(state: .readWrite, capacity: 46), message: []))
    }

    @Test func anAnswerOfTheWrongShapeToGetVersionIsTreatedAsNoAnswer() throws {
        var operation = Type2StatusOperation(limits: Self.limits)
        _ = try operation.start()
        guard case .reactivate = try operation.resume(with: .success([0x00, 0x04])) else {
            Issue.record("a malformed version must reactivate the tag")
            return
        }
        #expect(Self.frame(try operation.resume(with: .success([]))) == [0x30, 0x02])
    }
}
