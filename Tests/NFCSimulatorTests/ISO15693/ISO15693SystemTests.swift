import NFCSimulator
import NFCTransport
import Testing

/// AFI, DSFID, Get System Information and the SLIX2's NXP custom commands.
@Suite("ISO15693 system commands and NXP custom commands")
struct ISO15693SystemTests {
    typealias S = ISO15693TestSupport

    @Test("SLIX2 Get System Information: flags 0x0F, UID, DSFID, AFI, 80 blocks of 4 bytes, IC ref 0x01")
    func slix2SystemInformation() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x2B]) == [0x00, 0x0F] + S.slix2Wire + [0x00, 0x00, 0x4F, 0x03, 0x01])
        #expect(tag.exchange([0x22, 0x2B] + S.slix2Wire) == [0x00, 0x0F] + S.slix2Wire + [0x00, 0x00, 0x4F, 0x03, 0x01])
        #expect(tag.exchange([0x02, 0x2B, 0x00]) == [0x01, 0x02])
    }

    @Test("Write and lock AFI: a locked AFI refuses writes (0x12) and a second lock (0x11)")
    func afi() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        let written = tag.respond(to: [0x02, 0x27, 0x35], context: ExchangeContext())
        #expect(written.transceivedBytes == [0x00])
        #expect(written.writesMemory)
        #expect(tag.exchange([0x02, 0x28]) == [0x00])
        #expect(tag.exchange([0x02, 0x27, 0x40]) == [0x01, 0x12])
        #expect(tag.exchange([0x02, 0x28]) == [0x01, 0x11])
        #expect(tag.afi == 0x35)
        #expect(tag.isAFILocked)
        #expect(tag.exchange([0x02, 0x27]) == [0x01, 0x02])
        #expect(tag.exchange([0x02, 0x28, 0x00]) == [0x01, 0x02])
        #expect(tag.exchange([0x02, 0x2B]) == [0x00, 0x0F] + S.slix2Wire + [0x00, 0x35, 0x4F, 0x03, 0x01])
    }

    @Test("Write and lock DSFID; inventory and the target parameters report it")
    func dsfid() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x22, 0x29] + S.st25Wire + [0x10]) == [0x00])
        #expect(tag.exchange([0x26, 0x01, 0x00]) == [0x00, 0x10] + S.st25Wire)
        #expect(tag.exchange([0x22, 0x2A] + S.st25Wire) == [0x00])
        #expect(tag.exchange([0x02, 0x29, 0x11]) == [0x01, 0x12])
        #expect(tag.exchange([0x02, 0x2A]) == [0x01, 0x11])
        #expect(tag.parameters == .iso15693(.init(dsfid: 0x10)))
        #expect(tag.isDSFIDLocked)
    }

    @Test("GET NXP SYSTEM INFORMATION: protection pointer and condition, lock bits, feature flags")
    func nxpSystemInformation() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0xAB, 0x04]) == [0x00, 0x00, 0x00, 0x00, 0x7F, 0x35, 0x00, 0x00])
        _ = tag.exchange([0x02, 0x28])
        _ = tag.exchange([0x02, 0x2A])
        #expect(tag.exchange([0x22, 0xAB, 0x04] + S.slix2Wire) == [0x00, 0x00, 0x00, 0x05, 0x7F, 0x35, 0x00, 0x00])
        #expect(tag.exchange([0x02, 0xAB, 0x04, 0x00]) == [0x01, 0x02])
    }

    @Test("READ SIGNATURE returns the 32-byte originality signature")
    func readSignature() throws {
        let signature = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        var tag = try ISO15693Tag(
            model: .icodeSLIX2, uid: ISO15693Tag.Model.icodeSLIX2.sampleUID,
            blocks: Array(repeating: [0, 0, 0, 0], count: 80),
            slix2: ISO15693Tag.SLIX2Settings(signature: signature, protectionPointer: 0x20)
        )
        #expect(tag.exchange([0x02, 0xBD, 0x04]) == [0x00] + signature)
        #expect(tag.exchange([0x02, 0xAB, 0x04])?.prefix(2) == [0x00, 0x20])
    }

    @Test(
        "NXP custom commands: another manufacturer code or none is silent; unsimulated or unknown ones answer 0x01",
        arguments: [
            ([UInt8(0x02), 0xAB, 0x02], nil), ([0x02, 0xBD], nil), ([0x22, 0xAB, 0x04, 0x92], nil),
            ([0x02, 0xB2, 0x04], [UInt8(0x01), 0x01]), ([0x02, 0xA2, 0x04], [0x01, 0x01]),
            ([0x02, 0xC0, 0x04, 0x00], [0x01, 0x01]), ([0x02, 0xC3, 0x04, 0x00, 0x01], [0x01, 0x01]),
            ([0x02, 0xDF, 0x04], [0x01, 0x01]), ([0x02, 0xF0, 0x04], [0x01, 0x01]),
        ])
    func nxpCustom(frame: [UInt8], expected: [UInt8]?) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange(frame) == expected)
    }

    @Test("A quiet tag ignores custom commands unless addressed")
    func quietCustom() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        _ = tag.exchange([0x22, 0x02] + S.slix2Wire)
        #expect(tag.exchange([0x02, 0xAB, 0x04]) == nil)
        #expect(tag.exchange([0x22, 0xAB, 0x04] + S.slix2Wire)?.first == 0x00)
    }
}
