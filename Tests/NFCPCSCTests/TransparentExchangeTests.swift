import NFCBytes
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

@Suite struct TransparentExchangeTests {
    @Test func transceiveCarriesTheTimeLimitAndTheFrame() throws {
        let apdu = try #require(PseudoAPDU.transceive([0x30, 0x04], timeout: .milliseconds(5)))
        // FF C2 00 01 Lc | 5F46 04 <5000 µs LE> | 95 02 30 04 | Le
        #expect(apdu == hexBytes("ffc200010b5f460488130000950230 0400".replacingOccurrences(of: " ", with: "")))
        #expect(PseudoAPDU.transceive([UInt8](repeating: 0, count: 250), timeout: .zero) == nil, "does not fit a short APDU")
    }

    @Test(
        "answers: a frame, a 4-bit ACK, no answer, a reader error",
        arguments: [
            ("c003009000960200009703a1b2c3", TransparentExchangeAnswer.frame([0xA1, 0xB2, 0xC3])),
            ("c0030090009201049701fa960200 00".replacingOccurrences(of: " ", with: ""), .frame([0x0A])),
            ("c003016401", .noResponse),
            ("c003016a81", .readerError(status: 0x01, sw: 0x6A81)),
            ("c00300900096020100970100", .readerError(status: 0x02, sw: 0x0100)),
        ])
    func answers(hex: String, expected: TransparentExchangeAnswer) throws {
        #expect(try TransparentExchangeAnswer(hexBytes(hex)) == expected)
    }

    @Test("malformed answers are refused", arguments: ["", "c0", "c00300", "9701aa", "c003009000970a01", "c0830000", "1f"])
    func malformed(hex: String) {
        #expect(throws: TransportError.self) { try TransparentExchangeAnswer(hexBytes(hex)) }
    }

    /// PC/SC Part 3 §3.2.2.1.9: the frame travels in data object `95`, whose BER length (X.690
    /// §8.1.3) is one byte below 128 and `81 xx` from 128 on (`80` alone would be the indefinite form).
    @Test(
        "the frame object's length at the BER boundary: 127 bytes in one, 128 as 81 80",
        arguments: [(127, [UInt8(0x7F)]), (128, [0x81, 0x80]), (200, [0x81, 0xC8])])
    func frameLengthForm(count: Int, length: [UInt8]) throws {
        let frame = [UInt8](repeating: 0x30, count: count)
        let apdu = try #require(PseudoAPDU.transceive(frame, timeout: .milliseconds(5)))
        // FF C2 00 01 Lc | 5F46 04 <timer> | 95 <length> <frame> | Le
        #expect(Array(apdu[12..<(13 + length.count)]) == [0x95] + length)
        #expect(Array(apdu[(13 + length.count)..<(apdu.count - 1)]) == frame)
        #expect(Int(apdu[4]) == 7 + 1 + length.count + count)
    }

    /// One BER-TLV data object with its length in a random one of the forms PC/SC Part 3
    /// §3.2.2.1.9 allows (short, `81 xx`, `82 xx xx`).
    static func object(_ tag: [UInt8], _ value: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        let n = value.count
        let forms: [[UInt8]] =
            n < 0x80 ? [[UInt8(n)], [0x81, UInt8(n)], [0x82, 0, UInt8(n)]] : [[0x81, UInt8(n)], [0x82, 0, UInt8(n)]]
        return tag + forms[Int.random(in: 0..<forms.count, using: &generator)] + value
    }

    @Test("20,000 random answers built from their data objects read back as the answer they encode; cut ones are refused")
    func randomWellFormedAnswers() throws {
        var generator = SeededGenerator(seed: 61)
        var seen: [String: Int] = [:]
        for _ in 0..<20_000 {
            func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            // The answer: a generic status, maybe a response status, bit framing and a frame,
            // and objects the parser must step over (a timer echo 5F46, a vendor tag FF6D).
            let failed = Int.random(in: 0..<5, using: &generator) == 0
            let status: [UInt8] = failed ? [UInt8.random(in: 1...3, using: &generator)] + bytes(2) : [0x00, 0x90, 0x00]
            let responseStatus: [UInt8]? =
                Bool.random(using: &generator) ? (Int.random(in: 0..<4, using: &generator) == 0 ? bytes(2) : [0, 0]) : nil
            let framing: UInt8? = Bool.random(using: &generator) ? UInt8.random(in: 0...7, using: &generator) : nil
            let frame: [UInt8]? = Int.random(in: 0..<6, using: &generator) == 0 ? nil : bytes(Int.random(in: 0...200, using: &generator))
            var objects: [[UInt8]] = [Self.object([0xC0], status, using: &generator)]
            if let responseStatus { objects.append(Self.object([0x96], responseStatus, using: &generator)) }
            if let framing { objects.append(Self.object([0x92], [framing], using: &generator)) }
            if let frame { objects.append(Self.object([0x97], frame, using: &generator)) }
            if Bool.random(using: &generator) { objects.append(Self.object([0x5F, 0x46], bytes(4), using: &generator)) }
            if Bool.random(using: &generator) {
                objects.append(Self.object([0xFF, 0x6D], bytes(Int.random(in: 0...3, using: &generator)), using: &generator))
            }
            objects.shuffle(using: &generator)
            let answer = objects.flatMap { $0 }

            // What PC/SC Part 3 says it means.
            let sw = UInt16(status[1]) << 8 | UInt16(status[2])
            let expected: TransparentExchangeAnswer
            if status[0] != 0 {
                expected = sw == 0x6401 ? .noResponse : .readerError(status: status[0], sw: sw)
            } else if let responseStatus, responseStatus != [0, 0] {
                expected = .readerError(status: 0x02, sw: UInt16(responseStatus[0]) << 8 | UInt16(responseStatus[1]))
            } else if let frame, frame.count == 1, let framing, framing != 0 {
                expected = .frame([frame[0] & UInt8((1 << Int(framing)) - 1)])
            } else {
                expected = .frame(frame ?? [])
            }
            #expect(try TransparentExchangeAnswer(answer) == expected, "\(Hex.encode(answer))")
            seen["\(expected)".prefix(8).description, default: 0] += 1

            // Cut inside its last object, the answer is refused (never read as a shorter one).
            let last = objects.last ?? []
            let cut = answer.count - Int.random(in: 1...max(1, last.count - 1), using: &generator)
            if last.count > 1, cut > answer.count - last.count {
                #expect(throws: TransportError.self, "\(Hex.encode(Array(answer.prefix(cut))))") {
                    try TransparentExchangeAnswer(Array(answer.prefix(cut)))
                }
            }
        }
        #expect(seen.count >= 3, "frames, reader errors and no-response answers were all generated: \(seen)")
    }

    @Test("random bytes: an answer or protocolViolation, never a trap")
    func randomBytes() {
        var generator = SeededGenerator(seed: 62)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for candidate in [[0xC0, 0x03, 0x00, 0x90, 0x00] + bytes, bytes] {
                do {
                    _ = try TransparentExchangeAnswer(candidate)
                    // Whatever parses carries a 3-byte generic status object.
                    #expect(candidate.count >= 5)
                } catch {
                    #expect(error.code == .protocolViolation)
                }
            }
        }
    }
}

@Suite struct PseudoAPDUTranslationTests {
    @Test func type2ReadAndWrite() throws {
        let read = try PseudoAPDUTranslation.plan([0x30, 0x08], technology: .iso14443A)
        #expect(read.apdus == [hexBytes("ffb0000810")])
        #expect(PseudoAPDUTranslation.answer([(Array(repeating: 7, count: 16), 0x9000)], plan: read) == Array(repeating: 7, count: 16))
        let write = try PseudoAPDUTranslation.plan([0xA2, 0x05, 1, 2, 3, 4], technology: .iso14443A)
        #expect(write.apdus == [hexBytes("ffd600050401020304")])
        #expect(PseudoAPDUTranslation.answer([([], 0x9000)], plan: write) == [0x0A], "ACK")
        #expect(PseudoAPDUTranslation.answer([([], 0x6300)], plan: write) == [0x00], "NAK")
    }

    @Test func iso15693AddressedExtendedAndMultiple() throws {
        let uid: [UInt8] = [8, 7, 6, 5, 4, 3, 2, 0xE0]
        let single = try PseudoAPDUTranslation.plan([0x22, 0x20] + uid + [0x09], technology: .iso15693)
        #expect(single.apdus == [hexBytes("ffb0000900")])
        #expect(PseudoAPDUTranslation.answer([([1, 2, 3, 4], 0x9000)], plan: single) == [0x00, 1, 2, 3, 4])
        let extended = try PseudoAPDUTranslation.plan([0x02, 0x30, 0x2C, 0x01], technology: .iso15693)
        #expect(extended.apdus == [hexBytes("ffb0012c00")], "block 300")
        let multiple = try PseudoAPDUTranslation.plan([0x02, 0x23, 0x04, 0x02], technology: .iso15693)
        #expect(multiple.apdus == [hexBytes("ffb0000400"), hexBytes("ffb0000500"), hexBytes("ffb0000600")])
        #expect(
            PseudoAPDUTranslation.answer([([1], 0x9000), ([2], 0x6A82)], plan: multiple) == [0x01, 0x10], "error: block not available")
        let write = try PseudoAPDUTranslation.plan([0x02, 0x21, 0x03, 9, 9, 9, 9], technology: .iso15693)
        #expect(write.apdus == [hexBytes("ffd600030409090909")])
    }

    @Test(
        "commands a pseudo-APDU cannot carry are unsupportedCommand",
        arguments: [
            ([UInt8]([0x3A, 0x00, 0x10]), Technology.iso14443A), ([0x60], .iso14443A), ([], .iso14443A),
            ([0x02, 0x2B], .iso15693), ([0x02], .iso15693), ([0x22, 0x20, 1, 2], .iso15693), ([0x06, 1, 2], .felica),
        ])
    func unsupported(frame: [UInt8], technology: Technology) {
        #expect(throws: TransportError.self) { try PseudoAPDUTranslation.plan(frame, technology: technology) }
    }
}

@Suite struct TargetIdentificationTests {
    /// A reader that answers from a table (APDU hex → answer hex), `6A 81` otherwise.
    static func reader(_ table: [String: String]) -> TargetIdentification {
        TargetIdentification { apdu in hexBytes(table[Hex.encode(apdu)] ?? "6a81") }
    }

    @Test func ultralightFamilyStorageTag() throws {
        let identification = Self.reader(["ffca000000": "04a1b2c3d4e5f69000"])
        let (target, _) = try identification.identify(atr: hexBytes("3b8f8001804f0ca0000003060300030000000068"), handle: 9)
        #expect(target.identifier == hexBytes("04a1b2c3d4e5f6"))
        #expect(target.parameters == .iso14443A(.init(atqa: 0x0044, sak: 0x00)))
        #expect(target.handle == 9)
    }

    @Test func iso15693UIDIsTurnedMostSignificantByteFirst() throws {
        let identification = Self.reader(["ffca000000": "0807060504030201e09000"])
        let (target, _) = try identification.identify(atr: hexBytes("3b8f8001804f0ca0000003060b00140000000077"), handle: 1)
        #expect(target.identifier == hexBytes("e00102030405060708"))
        #expect(target.technology == .iso15693)
    }

    @Test func storageTagWithoutUIDIsRefused() {
        #expect(throws: TransportError.self) {
            try Self.reader([:]).identify(atr: hexBytes("3b8f8001804f0ca0000003060300030000000068"), handle: 1)
        }
    }

    @Test func contactCardGetsNoPseudoAPDU() throws {
        let identification = TargetIdentification { apdu throws(TransportError) in
            throw TransportError(.protocolViolation, "no pseudo-APDU may reach a contact card, got \(apdu)")
        }
        let (target, _) = try identification.identify(atr: hexBytes("3b951381018073ff01000b"), handle: 2)
        #expect(target.speaksISODEP)
        #expect(target.identifier.isEmpty)
    }

    /// Found by `fuzz-pcsc` (its crash input `AxQ7gIABAQCgAP…`): an ISO-DEP ATR with fewer than
    /// 8 historical bytes, from a reader that fails GET DATA for the ATS, was read as Type B and
    /// sliced past its end.
    @Test func shortISODEPHistoricalBytesAreTypeAEvenWhenGetDataFails() throws {
        let identification = TargetIdentification { apdu throws(TransportError) in
            guard apdu == hexBytes("ffca000000") else { throw TransportError(.timeout, "no answer") }
            return hexBytes("0102030405069000")
        }
        let (target, _) = try identification.identify(atr: hexBytes("3b82800101a0a2"), handle: 4)
        #expect(target.parameters == .iso14443A(.init(atqa: 0x0004, sak: 0x20, ats: AnswerToSelect(historicalBytes: [0x01, 0xA0]))))
    }

    @Test func eightHistoricalBytesAndNoATSAreTypeB() throws {
        let identification = Self.reader(["ffca000000": "0102030405069000"])
        let (target, _) = try identification.identify(atr: hexBytes("3b888001" + "11223344" + "556677" + "00" + "09"), handle: 5)
        #expect(target.parameters == .iso14443B(.init(applicationData: hexBytes("11223344"), protocolInfo: hexBytes("556677"))))
    }

    @Test func feliCaPMmComesFromPollingInATransparentSession() throws {
        // The answer frame as on the air: LEN (20), response code 01, IDm, PMm, system code.
        let idm = "0116010203040506"
        let pmm = "0120220427674eff"
        let identification = Self.reader([
            "ffca000000": idm + "9000",
            "ffc20000028100" + "00": "c0030090009000",
            "ffc200000282000" + "0": "c0030090009000",
            "ffc200010f5f4604204e000095060600ffff010000": "c003009000960200009714" + "1401" + idm + pmm + "88b4" + "9000",
        ])
        let (target, _) = try identification.identify(atr: hexBytes("3b8f8001804f0ca00000030611003b0000000042"), handle: 3)
        #expect(target.identifier == hexBytes(idm))
        #expect(target.parameters == .felica(.init(pmm: hexBytes(pmm), systemCode: 0x88B4)))
    }
}
