import NFCBytes
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

@Suite struct ContactlessATRTests {
    @Test(
        "storage-card ATRs give the PC/SC Part 3 standard and card name",
        arguments: [
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

    @Test(
        "malformed ATRs are refused with a reason",
        arguments: [
            "", "3B", "3C00", "3B8F8001804F0CA00000030603000300000000", "3B8F8001804F0CA0000003060300030000000069", "3B80", "3BF0",
        ])
    func malformed(hex: String) {
        #expect(throws: TransportError.self) { try ContactlessATR(atr: hexBytes(hex)) }
    }

    /// A random ATR built by the rules of ISO/IEC 7816-3 §8.2 (TS, T0, interface byte groups
    /// each announced by the previous TD, historical bytes, TCK unless only T=0 is indicated),
    /// with the historical bytes it carries.
    static func randomATR(using generator: inout SeededGenerator) -> (atr: [UInt8], historical: [UInt8], hasTCK: Bool) {
        func byte() -> UInt8 { UInt8.random(in: 0...255, using: &generator) }
        let historical = (0..<Int.random(in: 0...15, using: &generator)).map { _ in byte() }
        var groups = Int.random(in: 0...4, using: &generator)
        var present = UInt8.random(in: 0...7, using: &generator) | (groups > 0 ? 0x8 : 0)
        var atr: [UInt8] = [Bool.random(using: &generator) ? 0x3B : 0x3F, present << 4 | UInt8(historical.count)]
        var hasTCK = false
        while true {
            for bit in 0..<3 where present >> bit & 1 == 1 { atr.append(byte()) }  // TA, TB, TC
            guard present & 0x8 != 0 else { break }
            groups -= 1
            let next = UInt8.random(in: 0...7, using: &generator) | (groups > 0 ? 0x8 : 0)
            let protocolT = Bool.random(using: &generator) ? 0 : UInt8.random(in: 0...15, using: &generator)
            if protocolT != 0 { hasTCK = true }
            atr.append(next << 4 | protocolT)
            present = next
        }
        atr += historical
        if hasTCK { atr.append(atr.dropFirst().reduce(0, ^)) }
        return (atr, historical, hasTCK)
    }

    @Test("20,000 ATRs built by ISO/IEC 7816-3 give back exactly their historical bytes; cut or damaged ones are refused")
    func randomWellFormedATRs() throws {
        var generator = SeededGenerator(seed: 6)
        var withTCK = 0
        for _ in 0..<20_000 {
            let (atr, historical, hasTCK) = Self.randomATR(using: &generator)
            #expect(try ContactlessATR.historicalBytes(of: atr) == historical, "\(Hex.encode(atr))")
            guard hasTCK else { continue }
            withTCK += 1
            // Without its TCK, or with any byte after TS changed, the ATR no longer checks out.
            #expect(throws: TransportError.self, "\(Hex.encode(atr))") { try ContactlessATR.historicalBytes(of: Array(atr.dropLast())) }
            var damaged = atr
            let index = Int.random(in: (atr.count - 1 - historical.count)..<atr.count, using: &generator)
            damaged[index] ^= UInt8.random(in: 1...255, using: &generator)
            #expect(throws: TransportError.self, "\(Hex.encode(damaged))") { try ContactlessATR.historicalBytes(of: damaged) }
        }
        #expect(withTCK > 5_000, "the generator made too few ATRs with a TCK")
    }

    @Test("random contactless ATRs (3B 8n 80 01 …): storage cards by their PC/SC RID, ISO-DEP cards by their historical bytes")
    func randomContactlessATRs() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5_000 {
            let standard = UInt8.random(in: 0...255, using: &generator)
            let name = UInt16.random(in: 0...0xFFFF, using: &generator)
            let storage: [UInt8] = [
                0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, standard, UInt8(name >> 8), UInt8(name & 0xFF), 0, 0, 0, 0,
            ]
            var historical = (0..<Int.random(in: 0...15, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if historical.first == 0x80 { historical[0] = 0x81 }  // keep it unlike a storage card's
            for (bytes, expected) in [
                (storage, ContactlessATR.storage(standard: standard, cardName: name)), (historical, .isoDEP(historicalBytes: historical)),
            ] {
                var atr: [UInt8] = [0x3B, 0x80 | UInt8(bytes.count), 0x80, 0x01] + bytes
                atr.append(atr.dropFirst().reduce(0, ^))
                #expect(try ContactlessATR(atr: atr) == expected, "\(Hex.encode(atr))")
            }
        }
    }

    @Test("random bytes: parsed or refused with protocolViolation, never a trap; what parses is a valid ATR")
    func randomBytes() {
        var generator = SeededGenerator(seed: 8)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x3B }
            do {
                let historical = try ContactlessATR.historicalBytes(of: bytes)
                parsed += 1
                // What parses starts with TS and carries T0's count of historical bytes.
                #expect(bytes[0] == 0x3B || bytes[0] == 0x3F)
                #expect(historical.count == Int(bytes[1] & 0x0F))
            } catch {
                #expect(error.code == .protocolViolation)
                #expect(error.reason.hasPrefix("ATR "))
            }
        }
        #expect(parsed > 0)
    }
}
