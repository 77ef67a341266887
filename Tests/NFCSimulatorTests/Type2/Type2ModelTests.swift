import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2ModelTests {
    struct Layout: Sendable, CustomStringConvertible {
        let model: Type2Tag.Model
        let pages: Int
        let userBytes: Int
        let lastUserPage: Int
        let dynamicLockPage: Int?
        let configurationPage0: Int
        let version: String
        var description: String { model.rawValue }
    }

    /// Memory maps and GET_VERSION answers from the data sheets (NTAG21x §8.5 and
    /// §10.1; MF0ULX1 memory maps and GET_VERSION).
    static let layouts: [Layout] = [
        Layout(
            model: .ntag213, pages: 45, userBytes: 144, lastUserPage: 0x27, dynamicLockPage: 0x28, configurationPage0: 0x29,
            version: "0004040201000F03"),
        Layout(
            model: .ntag215, pages: 135, userBytes: 504, lastUserPage: 0x81, dynamicLockPage: 0x82, configurationPage0: 0x83,
            version: "0004040201001103"),
        Layout(
            model: .ntag216, pages: 231, userBytes: 888, lastUserPage: 0xE1, dynamicLockPage: 0xE2, configurationPage0: 0xE3,
            version: "0004040201001303"),
        Layout(
            model: .ultralightEV1MF0UL11, pages: 20, userBytes: 48, lastUserPage: 0x0F, dynamicLockPage: nil, configurationPage0: 0x10,
            version: "0004030101000B03"),
        Layout(
            model: .ultralightEV1MF0UL21, pages: 41, userBytes: 128, lastUserPage: 0x23, dynamicLockPage: 0x24, configurationPage0: 0x25,
            version: "0004030101000E03"),
    ]

    @Test(arguments: layouts)
    func memoryMap(_ layout: Layout) {
        let model = layout.model
        #expect(model.pageCount == layout.pages)
        #expect(model.memorySize == layout.pages * 4)
        #expect(model.userMemorySize == layout.userBytes)
        #expect(model.lastUserPage == layout.lastUserPage)
        #expect(model.dynamicLockPage == layout.dynamicLockPage)
        #expect(model.configurationPage0 == layout.configurationPage0)
        #expect(model.configurationPage1 == layout.configurationPage0 + 1)
        #expect(model.passwordPage == layout.configurationPage0 + 2)
        #expect(model.packPage == layout.configurationPage0 + 3)
    }

    @Test(arguments: layouts)
    func getVersion(_ layout: Layout) {
        let tag = Chip(layout.model)
        #expect(tag.exchange("60") == hexBytes(layout.version))
        #expect(tag.state == .active)
    }

    @Test func ntag213AsShipped() {
        let tag = Chip(.ntag213)
        // Pages 00h–03h: UID0–2 BCC0 | UID3–6 | BCC1 48 00 00 | CC E1 10 12 00.
        #expect(tag.exchange("3000") == hexBytes("04E1412C 124C2880 F6480000 E1101200"))
        // Page 04h: the empty NDEF TLV and the terminator; the rest of user memory is zero.
        #expect(tag.exchange("3004") == hexBytes("0300FE00 00000000 00000000 00000000"))
        // 28h: dynamic lock bytes 00 00 00 BD; 29h: MIRROR 04 (STRG_MOD_EN), AUTH0 FF; 2Ah: ACCESS
        // 00, 05; 2Bh/2Ch: PWD and PACK read as zeros.
        #expect(tag.exchange("3A282C") == hexBytes("000000BD 040000FF 00050000 00000000 00000000"))
        // The EEPROM holds PWD FFFFFFFF.
        #expect(tag.page(0x2B) == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test(arguments: [(Type2Tag.Model.ntag215, "E1103E00"), (.ntag216, "E1106D00")])
    func ntagCapabilityContainerDeclaresItsSize(_ model: Type2Tag.Model, _ cc: String) {
        let tag = Chip(model)
        #expect(tag.exchange("3003").map { Array($0[0..<7]) } == hexBytes(cc + "0300FE"))
    }

    @Test func ultralightEV1AsShippedIsBlank() {
        let tag = Chip(.ultralightEV1MF0UL21, blank: true)
        #expect(tag.exchange("3002") == hexBytes("F6480000 00000000 00000000 00000000"))
        // 24h: dynamic lock bytes; 25h: MOD 00, AUTH0 FF; 26h: ACCESS 00, VCTID 05.
        #expect(tag.exchange("3A2426") == hexBytes("000000BD 000000FF 00050000"))
    }

    @Test(arguments: [(Type2Tag.Model.ultralightEV1MF0UL11, "E1100600"), (.ultralightEV1MF0UL21, "E1101000")])
    func ultralightEV1FormattedWritesACapabilityContainer(_ model: Type2Tag.Model, _ cc: String) {
        let tag = Chip(model)
        #expect(tag.exchange("3003").map { Array($0[0..<7]) } == hexBytes(cc + "0300FE"))
    }

    @Test func blankNTAGHasNoCapabilityContainer() {
        let tag = Chip(.ntag216, blank: true)
        #expect(tag.exchange("3003") == [UInt8](repeating: 0, count: 16))
    }

    @Test func identityForTheReader() {
        let tag = Type2Tag(model: .ntag215, uid: exampleUID)
        #expect(tag.identifier == exampleUID)
        #expect(tag.parameters == .iso14443A(.init(atqa: 0x0044, sak: 0x00)))
        #expect(tag.technology == .iso14443A)
    }

    @Test func defaultUIDAndSignatureAreDeterministic() {
        let a = Type2Tag(model: .ntag213)
        let b = Type2Tag(model: .ntag213)
        #expect(a.uid == b.uid)
        #expect(a.uid.first == 0x04)
        #expect(a.signature == b.signature)
        #expect(a.signature.count == 32)
        #expect(Type2Tag(model: .ntag215).uid != a.uid)
        #expect(Type2Tag(model: .ntag213, uid: exampleUID).signature != a.signature)
    }

    @Test func readSignature() {
        let signature = (0..<32).map { UInt8($0) }
        let tag = Chip(Type2Tag(model: .ultralightEV1MF0UL11, uid: exampleUID, signature: signature))
        tag.powerCycle()
        #expect(tag.exchange("3C00") == signature)
        // The address byte is RFU and must be 00h.
        #expect(tag.send("3C01").reply == .nak(0x0))
    }

    @Test func commandsBeforeActivationAreIgnored() {
        let tag = Chip(Type2Tag(model: .ntag213))
        tag.tag.powerOn()
        #expect(tag.send("60").reply == .mute)
        tag.reactivate()
        #expect(tag.exchange("60") != nil)
    }

    @Test func activationFrames() {
        // WUPA 7 bits → ATQA; SELECT CL1 and CL2 (7 bytes each) → SAK.
        #expect(
            Type2Tag.activationFrames == [
                AirFrame(reader: .bits(7), tag: .bytes(2, crc: false)),
                AirFrame(reader: .bytes(7), tag: .bytes(1)),
                AirFrame(reader: .bytes(7), tag: .bytes(1)),
            ])
    }
}
