import NFCSimulator
import NFCTransport
import Testing

/// Air time of ISO/IEC 15693 exchanges through a real field, against the formula of AIRTIME.md:
/// 113.28 + 302.08·n_req + 4352/fc + t_proc + 302.08 + 302.08·n_rsp + 4192/fc µs (CRC included).
@Suite("ISO15693 air time")
struct ISO15693AirTimeTests {
    typealias S = ISO15693TestSupport
    static let t1 = 4352 / 13.56
    static let t2 = 4192 / 13.56

    /// Sends one command through a fresh field and returns the answer and its air time in µs.
    private func measure(_ tag: ISO15693Tag, _ command: [UInt8], timeout: Duration = .milliseconds(100)) async throws -> ([UInt8], Double) {
        let harness = try await FieldHarness(tag)
        let answer = try await harness.send(command, timeout: timeout)
        return (answer, S.microseconds(harness.meter.statistics.airTime))
    }

    @Test("Read Single Block: 3-byte request, 5-byte answer, within 1 µs of the formula")
    func singleBlockRead() async throws {
        let (answer, time) = try await measure(.formatted(.icodeSLIX2), [0x02, 0x20, 0x00])
        #expect(answer == [0x00, 0xE1, 0x40, 0x27, 0x01])
        let expected = S.exchangeMicroseconds(request: 3, response: 5)
        #expect(abs(time - expected) < 1)
        #expect(abs(expected - 4670.41) < 0.01)
    }

    @Test("Addressed Read Single Block carries the 8-byte UID")
    func addressedSingleBlockRead() async throws {
        let (_, time) = try await measure(.formatted(.icodeSLIX2), [0x22, 0x20] + S.slix2Wire + [0x00])
        #expect(abs(time - S.exchangeMicroseconds(request: 11, response: 5)) < 1)
    }

    @Test("1 KB in one addressed Read Multiple Blocks ≈ 316 ms")
    func oneKilobyte() async throws {
        let (answer, time) = try await measure(.formatted(.st25dv16k), [0x22, 0x23] + S.st25Wire + [0x00, 0xFF], timeout: .seconds(1))
        #expect(answer.count == 1 + 1024)
        #expect(abs(time - S.exchangeMicroseconds(request: 12, response: 1025)) < 1)
        #expect(time > 315_000 && time < 317_000)
    }

    @Test("2 KB in one addressed Extended Read Multiple Blocks ≈ 625 ms")
    func twoKilobytes() async throws {
        let command = [0x22, 0x33] + S.st25Wire + [0x00, 0x00, 0xFF, 0x01]
        let (answer, time) = try await measure(.formatted(.st25dv16k), command, timeout: .seconds(1))
        #expect(answer.count == 1 + 2048)
        #expect(abs(time - S.exchangeMicroseconds(request: 14, response: 2049)) < 1)
        #expect(time > 620_000 && time < 630_000)
    }

    @Test("Fast Extended Read Multiple Blocks: the tag's frame takes half the time, SOF and EOF included")
    func fastTwoKilobytes() async throws {
        let command = [0x22, 0xC5, 0x02] + S.st25Wire + [0x00, 0x00, 0xFF, 0x01]
        let (answer, time) = try await measure(.formatted(.st25dv16k), command, timeout: .seconds(1))
        #expect(answer.count == 1 + 2048)
        let expected = 113.28 + 302.08 * Double(15 + 2) + Self.t1 + 151.04 * Double(2049 + 3) + Self.t2
        #expect(abs(time - expected) < 1)
        #expect(time < 0.51 * S.exchangeMicroseconds(request: 14, response: 2049))
    }

    @Test("Low data rate (flags 0x00): the tag's frame takes four times as long")
    func lowDataRate() async throws {
        let (answer, time) = try await measure(.formatted(.icodeSLIX2), [0x00, 0x20, 0x00])
        #expect(answer == [0x00, 0xE1, 0x40, 0x27, 0x01])
        let expected = 113.28 + 302.08 * 5 + Self.t1 + 4 * 302.08 * Double(5 + 3) + Self.t2
        #expect(abs(time - expected) < 1)
    }

    @Test("Write Single Block: programming rounded up to 17 × 4096/fc")
    func write() async throws {
        let (answer, time) = try await measure(.blank(.icodeSLIX2), [0x02, 0x21, 0x05, 1, 2, 3, 4])
        #expect(answer == [0x00])
        #expect(abs(time - S.exchangeMicroseconds(request: 7, response: 1, processing: 17 * 4096 / 13.56)) < 1)
    }

    @Test("Write with the option flag: the answer follows the reader's EOF 20 ms later")
    func optionWrite() async throws {
        let (answer, time) = try await measure(.blank(.st25dv16k), [0x42, 0x21, 0x05, 1, 2, 3, 4])
        #expect(answer == [0x00])
        #expect(abs(time - S.exchangeMicroseconds(request: 7, response: 1, processing: 20_037.76)) < 1)
    }

    @Test("Inventory with 16 slots: the request, 15 EOFs and the tag's answer in its slot")
    func sixteenSlots() async throws {
        let (answer, time) = try await measure(.blank(.icodeSLIX2), [0x06, 0x01, 0x00])
        #expect(answer == [0x00, 0x00] + S.slix2Wire)
        let expected = 113.28 + 302.08 * 5 + 16 * (Self.t1 + Self.t2) + 15 * 37.76 + 302.08 * Double(10 + 3)
        #expect(abs(time - expected) < 1)
    }

    @Test("A silent tag costs the request and the reader's timeout")
    func silence() async throws {
        let harness = try await FieldHarness(ISO15693Tag.blank(.icodeSLIX2))
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send([0x22, 0x20] + S.st25Wire + [0x00], timeout: .milliseconds(5))
        }
        let time = S.microseconds(harness.meter.statistics.airTime)
        #expect(abs(time - (113.28 + 302.08 * 13 + Self.t1 + Self.t2 + 5000)) < 1)
    }
}
