import NFCSimulator
import NFCTestSupport
import Testing

@Suite struct Type2AuthenticationTests {
    /// An NTAG213 with PWD 11223344, PACK AABB, AUTH0 10h and the given ACCESS byte, power-cycled
    /// so that the configuration is in force.
    static func protected(access: UInt8, model: Type2Tag.Model = .ntag213) -> Chip {
        let tag = Chip(model)
        _ = tag.mustWrite(model.passwordPage, "11223344")
        _ = tag.mustWrite(model.packPage, "AABB0000")
        _ = tag.mustWrite(model.configurationPage0, (model.isNTAG ? "04" : "00") + "000010")
        _ = tag.mustWrite(model.configurationPage1, hex2(Int(access)) + "050000")
        tag.powerCycle()
        return tag
    }

    @Test func readProtectionRefusesProtectedPagesAndRollsOverBeforeAUTH0() {
        let tag = Self.protected(access: 0x80)
        #expect(tag.send("3010").reply == .nak(0x0))
        tag.reactivate()
        // A READ that would cross AUTH0 rolls over to page 00h there (NTAG21x §10.2).
        #expect(tag.exchange("300E") == hexBytes("00000000 00000000 04E1412C 124C2880"))
        #expect(tag.exchange("3A040F")?.count == 48)
        #expect(tag.send("3A0410").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.send("A210 01020304").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.mustWrite(0x0F, "01020304"))
    }

    @Test func passwordAuthenticationOpensTheProtectedArea() {
        let tag = Self.protected(access: 0x80)
        let answer = tag.send("1B 11223344")
        #expect(answer.data == [0xAA, 0xBB])
        #expect(tag.isAuthenticated)
        #expect(tag.mustWrite(0x10, "01020304"))
        #expect(tag.exchange("3010").map { Array($0[0..<4]) } == [0x01, 0x02, 0x03, 0x04])
        #expect(tag.exchange("3A0010")?.count == 68)
        // PWD and PACK read as zeros, authenticated or not.
        #expect(tag.exchange("302B") == hexBytes("00000000 00000000 04E1412C 124C2880"))
        // Reactivation ends the authentication.
        tag.reactivate()
        #expect(!tag.isAuthenticated)
        #expect(tag.send("3010").reply == .nak(0x0))
    }

    @Test func wrongPasswordIsNAKAndMute() {
        let tag = Self.protected(access: 0x80)
        #expect(tag.send("1B 11223345").reply == .nak(0x0))
        #expect(tag.state == .idle)
        #expect(tag.send("1B 11223344").reply == .mute)
        #expect(tag.failedAuthentications == 0)  // AUTHLIM 0: not counted
    }

    @Test func writeOnlyProtectionLeavesReadsOpen() {
        let tag = Self.protected(access: 0x00)
        #expect(tag.exchange("3010")?.count == 16)
        #expect(tag.exchange("3A0429")?.count == 38 * 4)
        #expect(tag.send("A210 01020304").reply == .nak(0x0))
        tag.reactivate()
        // The configuration pages lie past AUTH0 too.
        #expect(tag.send("A229 040000FF").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.exchange("1B 11223344") == [0xAA, 0xBB])
        #expect(tag.mustWrite(0x29, "040000FF"))
    }

    /// NTAG21x §10.7: AUTHLIM wrong attempts block PWD_AUTH for good (NAK 4h), right password or not.
    @Test func authenticationLimitLocksOutForGood() {
        let tag = Self.protected(access: 0x82)  // PROT, AUTHLIM 2
        #expect(tag.send("1B DEADBEEF").reply == .nak(0x0))
        #expect(tag.failedAuthentications == 1)
        tag.reactivate()
        #expect(tag.exchange("1B 11223344") == [0xAA, 0xBB])
        #expect(tag.failedAuthentications == 0)
        tag.reactivate()
        #expect(tag.send("1B DEADBEEF").reply == .nak(0x0))
        tag.reactivate()
        let last = tag.send("1B DEADBEEF")
        #expect(last.reply == .nak(0x4))
        #expect(last.writesMemory)
        #expect(tag.failedAuthentications == 2)
        tag.reactivate()
        #expect(tag.send("1B 11223344").reply == .nak(0x4))
        tag.powerCycle()
        #expect(tag.send("1B 11223344").reply == .nak(0x4))
        tag.reactivate()
        #expect(tag.send("3010").reply == .nak(0x0))
        #expect(tag.image.failedAuthentications == 2)
    }

    @Test func ultralightEV1AuthenticationLimit() {
        let tag = Self.protected(access: 0x01, model: .ultralightEV1MF0UL21)
        #expect(tag.send("1B 00000000").reply == .nak(0x4))
        tag.reactivate()
        #expect(tag.send("1B 11223344").reply == .nak(0x4))
        tag.reactivate()
        #expect(tag.send("A210 01020304").reply == .nak(0x0))
    }

    @Test func newAUTH0TakesEffectAtTheNextActivation() {
        let tag = Chip(.ntag215)
        #expect(tag.mustWrite(0x83, "04000004"))
        #expect(tag.mustWrite(0x05, "01020304"))
        tag.reactivate()
        #expect(tag.send("A205 01020304").reply == .nak(0x0))
    }

    /// NTAG21x “Configuration pages”: CFGLCK locks CFG0 and CFG1 from the next power cycle; PWD and PACK stay writable.
    @Test func configurationLockTakesEffectAfterAPowerCycle() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(0x2A, "40050000"))
        tag.reactivate()
        #expect(tag.mustWrite(0x29, "040000FF"))
        tag.powerCycle()
        #expect(tag.send("A229 04000010").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.send("A22A 00050000").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.mustWrite(0x2B, "01020304"))
        #expect(tag.mustWrite(0x2C, "12340000"))
    }

    @Test func virtualCardSelectLastAnswersVCTID() {
        let tag = Chip(.ultralightEV1MF0UL11)
        #expect(tag.exchange("4B" + String(repeating: "00", count: 20)) == [0x05])
    }
}
