import NFCBytes
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

/// FeliCa frames as the uTrust 3700 F's pseudo-APDUs (Identiv CLOUD 370x F manual v1.0
/// §6.2.13–6.2.18), the driver's reading.
@Suite struct SCMFeliCaTests {
    static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xDE, 0x06, 0x12, 0x34, 0x56]

    @Test("Polling is FF 40 with system code, request code and slots; its answer gains the response code 01")
    func polling() throws {
        #expect(try SCMFeliCa.apdu(for: [0x00, 0x12, 0xFC, 0x01, 0x00], reader: "R") == hexBytes("FF 40 00 00 04 12 FC 01 00"))
        let pmm = [UInt8](repeating: 0xAA, count: 8)
        let answer = try SCMFeliCa.answer(Self.idm + pmm + [0x12, 0xFC, 0x90, 0x00], to: [0x00, 0x12, 0xFC, 0x01, 0x00], reader: "R")
        #expect(answer == [0x01] + Self.idm + pmm + [0x12, 0xFC])
    }

    @Test("Read Without Encryption is FF 46 nSvc nBlk with services and two-byte block elements; no IDm sent")
    func read() throws {
        let frame = [0x06] + Self.idm + hexBytes("01 0B 00 02 80 00 80 01")
        #expect(try SCMFeliCa.apdu(for: frame, reader: "R") == hexBytes("FF 46 01 02 06 0B 00 80 00 80 01 00"))
        let data = [UInt8](repeating: 7, count: 32)
        let answer = try SCMFeliCa.answer(Self.idm + [0, 0, 2] + data + [0x90, 0x00], to: frame, reader: "R")
        #expect(answer == [0x07] + Self.idm + [0, 0, 2] + data)
    }

    @Test("Write Without Encryption is FF 48 with the blocks' data after the lists; no Le")
    func write() throws {
        let block = [UInt8](0..<16)
        let frame = [0x08] + Self.idm + hexBytes("01 09 00 01 80 05") + block
        #expect(try SCMFeliCa.apdu(for: frame, reader: "R") == hexBytes("FF 48 01 01 14 09 00 80 05") + block)
    }

    @Test("Request Service, Request Response and Request System Code")
    func others() throws {
        #expect(
            try SCMFeliCa.apdu(for: [0x02] + Self.idm + hexBytes("02 0B 00 09 10"), reader: "R")
                == hexBytes("FF 42 02 00 04 0B 00 09 10 00"))
        #expect(try SCMFeliCa.apdu(for: [0x04] + Self.idm, reader: "R") == hexBytes("FF 44 00 00 00"))
        #expect(try SCMFeliCa.apdu(for: [0x0C] + Self.idm, reader: "R") == hexBytes("FF 4A 00 00 00"))
    }

    @Test(
        "frames without a pseudo-APDU are refused by name and reason, never sent",
        arguments: [
            ([0x10] + idm, "FeliCa command 10"),  // Authentication1
            ([0x06] + idm + hexBytes("01 0B 00 01 00 00 01"), "three-byte block list element"),
            ([0x08] + idm + hexBytes("01 09 00 01 00 05 00") + [UInt8](repeating: 0, count: 16), "three-byte block list element"),
            ([0x06] + idm + hexBytes("01 0B 00 02 80 00"), "block list cut short"),
            ([0x08] + idm + hexBytes("01 09 00 01 80 05 01 02"), "data is 2 bytes for 1 block"),
            ([0x00, 0x12], "Polling of 2 bytes"),
            ([], "empty FeliCa frame"),
        ])
    func refused(frame: [UInt8], why: String) {
        do {
            _ = try SCMFeliCa.apdu(for: frame, reader: "Identiv uTrust 3700 F CL Reader")
            Issue.record("accepted \(Hex.encode(frame))")
        } catch {
            #expect(error.code == .unsupportedCommand && error.reason.contains("Identiv uTrust 3700 F CL Reader"))
            #expect(error.reason.contains(why), "\(error.reason)")
        }
    }

    @Test("answers: 64 00 is a time-out, another status word a refusal, a short answer a protocol violation")
    func badAnswers() {
        let frame = [0x04] + Self.idm
        #expect(throws: TransportError.self) { try SCMFeliCa.answer([0x64, 0x00], to: frame, reader: "R") }
        do { _ = try SCMFeliCa.answer([0x64, 0x00], to: frame, reader: "R") } catch { #expect(error.code == .timeout) }
        do { _ = try SCMFeliCa.answer([0x6A, 0x81], to: frame, reader: "R") } catch { #expect(error.code == .transmission) }
        do { _ = try SCMFeliCa.answer([0x01, 0x90, 0x00], to: frame, reader: "R") } catch { #expect(error.code == .protocolViolation) }
        do { _ = try SCMFeliCa.answer([0x90], to: frame, reader: "R") } catch { #expect(error.code == .protocolViolation) }
    }
}
