import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The ATR the emulated reader presents, for every tag kind (PC/SC Part 3 §3.1.3.2.3).
@Suite("PC/SC ATR")
struct PCSCATRTests {
    static let expected: [(VirtualTagKind, String)] = [
        (.ntag213, "3B8F8001804F0CA0000003060300030000000068"),
        (.ntag215, "3B8F8001804F0CA0000003060300030000000068"),
        (.ntag216, "3B8F8001804F0CA0000003060300030000000068"),
        (.ultralight, "3B8F8001804F0CA0000003060300030000000068"),
        (.ultralightMF0UL11, "3B8F8001804F0CA0000003060300030000000068"),
        // Card name 0030, "Topaz NFC Tag" (pcsc-tools' smartcard_list: 3B 8F 80 01 80 4F 0C A0 00 00 03 06 .. 00 30 …).
        (.topaz512, "3B8F8001804F0CA000000306030030000000005B"),
        (.topaz96, "3B8F8001804F0CA000000306030030000000005B"),
        // The NTAG 424 DNA ATS's single historical byte 80.
        (.type4, "3B8180018080"),
        (.iso7816, "3B8180018080"),
        (.ntag424, "3B8180018080"),
        // MIFARE DESFire's well-known PC/SC ATR (pcsc-tools' smartcard_list: "3B 81 80 01 80 80 Mifare DESFire").
        (.desfireEV1, "3B8180018080"),
        (.desfireEV2, "3B8180018080"),
        (.desfireEV3, "3B8180018080"),
        // The historical bytes of a MIFARE Plus X's ATS (C1 05 2F 2F 01 BC D6) in the PC/SC Part 3 ISO-DEP form, TCK A9.
        (.mifarePlus, "3B878001C1052F2F01BCD6A9"),
        // Type B: application data, protocol info and MBLI/CID as the historical bytes (PC/SC Part 3 §3.1.3.2.3.1).
        (.type4b, "3B8880010000000000817100F9"),
        (.securityKey, "3B8180018080"),
        (.walletPass, "3B8180018080"),
        (.passport, "3B8180018080"),
        (.idCard, "3B8180018080"),
        (.slix2, "3B8F8001804F0CA0000003060B00140000000077"),
        (.iso15693_2k, "3B8F8001804F0CA0000003060B00000000000063"),
        (.felicaLiteS, "3B8F8001804F0CA00000030611003B0000000042"),
        (.felica, "3B8F8001804F0CA00000030611003B0000000042"),
    ]

    @Test("Every catalogue kind has its ATR", arguments: expected)
    func atr(kind: VirtualTagKind, hex: String) throws {
        let atr = ContactlessReaderATR.atr(for: try kind.make())
        #expect(atr == hexBytes(hex))
        #expect(EmulatedReaderFront(tag: try kind.make()).atr == atr)
    }

    @Test("Every kind in the catalogue is covered")
    func coverage() {
        #expect(Set(Self.expected.map(\.0)) == Set(VirtualTagKind.allCases))
    }

    @Test("TCK is the XOR of T0 through the last historical byte", arguments: VirtualTagKind.allCases)
    func checkCharacter(kind: VirtualTagKind) throws {
        let atr = ContactlessReaderATR.atr(for: try kind.make())
        #expect(atr.first == 0x3B)
        #expect(atr.dropFirst().reduce(0, ^) == 0, "T0…TCK XOR to zero")
        // T0's low nibble counts the historical bytes after T0 TD1 TD2.
        #expect(Int(atr[1] & 0x0F) == atr.count - 5)
        #expect(Array(atr[2...3]) == [0x80, 0x01])
    }

    @Test("ISO-DEP Type A: the ATS historical bytes, at most 15")
    func typeAHistoricalBytes() throws {
        let long = AnswerToSelect(historicalBytes: Array(1...20))
        let card = ISO7816Card(uid: ISO7816Card.defaultUID, ats: long)
        let atr = ContactlessReaderATR.atr(for: card)
        #expect(atr.count == 4 + 15 + 1)
        #expect(Array(atr[4..<19]) == Array(1...15))
        #expect(atr[1] == 0x8F)
        #expect(atr.dropFirst().reduce(0, ^) == 0)
        let empty = ContactlessReaderATR.atr(for: ISO7816Card(uid: ISO7816Card.defaultUID, ats: AnswerToSelect(historicalBytes: [])))
        #expect(empty == [0x3B, 0x80, 0x80, 0x01, 0x01])
    }

    @Test("ISO-DEP Type B: ATQB application data, protocol info and MBLI/CID")
    func typeB() {
        let tag = TypeBProbe(applicationData: [0x11, 0x22, 0x33, 0x44], protocolInfo: [0x81, 0x71, 0x85])
        let atr = ContactlessReaderATR.atr(for: tag)
        #expect(atr == hexBytes("3B 88 80 01 11 22 33 44 81 71 85 00") + [hexBytes("88 80 01 11 22 33 44 81 71 85 00").reduce(0, ^)])
        // Fields of the wrong length are fitted, never trapped on.
        let odd = ContactlessReaderATR.atr(for: TypeBProbe(applicationData: [0x01], protocolInfo: [1, 2, 3, 4, 5]))
        #expect(Array(odd[4..<12]) == [0x01, 0, 0, 0, 1, 2, 3, 0])
    }

    @Test("Storage ATR from its parts")
    func storageParts() {
        let atr = ContactlessReaderATR.storageCard(standard: .iso14443B3, name: 0x1234)
        #expect(Array(atr[12...14]) == [0x07, 0x12, 0x34])
        #expect(atr.dropFirst().reduce(0, ^) == 0)
    }
}

/// An ISO/IEC 14443-B card that answers every APDU with 90 00 (not a model of any chip).
struct TypeBProbe: VirtualTag {
    var applicationData: [UInt8]
    var protocolInfo: [UInt8]
    var identifier: [UInt8] { [0x01, 0x02, 0x03, 0x04] }
    var parameters: TargetInfo.Parameters { .iso14443B(.init(applicationData: applicationData, protocolInfo: protocolInfo)) }
    mutating func powerOn() {}
    mutating func activate(context: ExchangeContext) -> [AirFrame] { [] }
    mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer { .bytes([0x90, 0x00]) }
}
