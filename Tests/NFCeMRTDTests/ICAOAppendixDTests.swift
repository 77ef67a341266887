import ISO7816
import NFCBytes
import NFCTripleDES
import NFCeMRTD
import Testing

/// The terminal's side against ICAO Doc 9303 Part 11 (8th edition) Appendix D, byte for byte:
/// D.1 the keys from K_seed, D.2 K_seed from the MRZ, D.3 BAC's mutual authentication and session
/// keys, D.4 secure messaging (SELECT EF.COM and two READ BINARYs).
@Suite struct ICAOAppendixDTests {
    static func bytes(_ hex: String) -> [UInt8] { (try? [UInt8](hex: hex)) ?? [] }

    static let key = try! MRZKey(documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623")

    @Test("D.2: MRZ_information and K_seed; D.1: K_Enc and K_MAC with parity adjusted")
    func keys() {
        #expect(Self.key.information == "L898902C<369080619406236")
        let seed = KeyDerivation.bacKeySeed(Self.key)
        #expect(seed == Self.bytes("239AB9CB282DAF66231DC5A4DF6BFBAE"))
        #expect(KeyDerivation.tripleDESKey(seed: seed, purpose: .encryption) == Self.bytes("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(KeyDerivation.tripleDESKey(seed: seed, purpose: .mac) == Self.bytes("7962D9ECE03D1ACD4C76089DCE131543"))
    }

    @Test("D.3: E_IFD ‖ M_IFD for RND.IC, RND.IFD and K.IFD; the chip's E_IC ‖ M_IC opens SSC 887022120C06C226")
    func mutualAuthentication() throws {
        let terminal = BasicAccessControl.Terminal(
            key: Self.key, terminalNonce: Self.bytes("781723860C06C226"),
            terminalKeyMaterial: Self.bytes("0B795240CB7049B01C19B33E32804F0B"))
        let chipNonce = Self.bytes("4608F91988702212")
        #expect(
            try terminal.authenticationData(chipNonce: chipNonce)
                == Self.bytes("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A7"))
        let session = try terminal.session(
            chipNonce: chipNonce, answer: Self.bytes("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D7449"))
        #expect(session.sendSequenceCounter == 0x8870_2212_0C06_C226)
        // A flipped bit of M_IC is refused.
        #expect(throws: EMRTDError.self) {
            try terminal.session(
                chipNonce: chipNonce, answer: Self.bytes("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D7448")
            )
        }
    }

    @Test("D.4: the protected SELECT EF.COM and READ BINARYs, and EF.COM from their answers")
    func secureMessaging() throws {
        var channel = try SecureMessaging(
            encryptionKey: Self.bytes("979EC13B1CBFE9DCD01AB0FED307EAE5"), macKey: Self.bytes("F1CB1F1FB5ADF208806B89DC579DC1F8"),
            sendSequenceCounter: 0x8870_2212_0C06_C226)
        let select = try channel.protect(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        #expect(try select.encoded() == Self.bytes("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800"))
        let selected = try channel.unprotect(Self.bytes("990290008E08FA855A5D4C50A8ED9000"))
        #expect(selected.statusWord == .success && selected.data.isEmpty)

        let first = try channel.protect(CommandAPDU(ins: 0xB0, expectedLength: 4))
        #expect(try first.encoded() == Self.bytes("0CB000000D9701048E08ED6705417E96BA5500"))
        let head = try channel.unprotect(Self.bytes("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000"))
        #expect(head.data == Self.bytes("60145F01"))

        let rest = try channel.protect(CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x04, expectedLength: 0x12))
        #expect(try rest.encoded() == Self.bytes("0CB000040D9701128E082EA28A70F3C7B53500"))
        let tail = try channel.unprotect(
            Self.bytes("871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000"))
        #expect(head.data + tail.data == Self.bytes("60145F0104303130365F36063034303030305C026175"))
        #expect(channel.sendSequenceCounter == 0x8870_2212_0C06_C22C)
        #expect(try CommonData(head.data + tail.data).dataGroups == [.dataGroup(1), .dataGroup(2)])
    }

    @Test("D.4: an answer whose MAC was altered is refused")
    func alteredAnswer() throws {
        var channel = try SecureMessaging(
            encryptionKey: Self.bytes("979EC13B1CBFE9DCD01AB0FED307EAE5"), macKey: Self.bytes("F1CB1F1FB5ADF208806B89DC579DC1F8"),
            sendSequenceCounter: 0x8870_2212_0C06_C226)
        _ = try channel.protect(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        let error = #expect(throws: EMRTDError.self) { try channel.unprotect(Self.bytes("990290008E08FA855A5D4C50A8EC9000")) }
        #expect(error?.code == .secureMessaging)
    }

    @Test("ISO/IEC 9797-1 MAC algorithm 3 is M_IFD of D.3 for E_IFD")
    func retailMAC() throws {
        let mac = try RetailMAC(key: Self.bytes("7962D9ECE03D1ACD4C76089DCE131543"))
        #expect(mac.mac(Self.bytes("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2")) == Self.bytes("5F1448EEA8AD90A7"))
        #expect(throws: TripleDESError.self) { try mac.mac(padded: [1, 2, 3]) }
        #expect(throws: TripleDESError.self) { try RetailMAC(key: [UInt8](repeating: 0, count: 8)) }
    }
}
