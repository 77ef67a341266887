import NFCTestSupport
import NFCTransport
import Testing
@testable import NFCPCSC

@Suite struct ContactlessATRTests {
    @Test("storage-card ATRs give the PC/SC Part 3 standard and card name", arguments: [
        ("3B8F8001804F0CA0000003060300030000000068", UInt8(0x03), UInt16(0x0003)),
        ("3B8F8001804F0CA00000030611003B0000000042", UInt8(0x11), UInt16(0x003B)),
        ("3B8F8001804F0CA0000003060B00140000000077", UInt8(0x0B), UInt16(0x0014)),
    ])
    func storage(hex: String, standard: UInt8, name: UInt16) throws {
        #expect(try ContactlessATR(atr: hexBytes(hex)) == .storage(standard: standard, cardName: name))
    }

    @Test func isoDEPCardGivesItsHistoricalBytes() throws {
        // 3B 8n 80 01 + historical bytes + TCK (PC/SC Part 3 §3.1.3.2.3.2).
        var atr: [UInt8] = [0x3B, 0x84, 0x80, 0x01, 0x01, 0x02, 0x03, 0x04]
        atr.append(atr.dropFirst().reduce(0, ^))
        #expect(try ContactlessATR(atr: atr) == .isoDEP(historicalBytes: [1, 2, 3, 4]))
    }

    @Test("malformed ATRs are refused with a reason", arguments: [
        "", "3B", "3C00", "3B8F8001804F0CA00000030603000300000000", "3B8F8001804F0CA0000003060300030000000069", "3B80", "3BF0",
    ])
    func malformed(hex: String) {
        #expect(throws: TransportError.self) { try ContactlessATR(atr: hexBytes(hex)) }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SeededGenerator(seed: 6)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x3B }
            _ = try? ContactlessATR(atr: bytes)
        }
    }
}
