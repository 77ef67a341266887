import NFCBytes
import NFCDESFire
import NFCTestSupport
import Testing

/// The client in LRP mode against published exchanges: NXP AN12343 §7.2.5.2 Table 19 and
/// §7.2.6.1 Table 20 (AuthenticateLRPFirst with key 0; the same numbers as AN12321 Table 2),
/// and exchanges captured from real NTAG 424 DNA tags in LRP mode as the `ntag424` crate's tests
/// and icedevml/nfc-ev2-crypto's `test_lrp_cmd.py` carry them. With the published RndA the client
/// must send the published commands byte for byte and accept the published answers.
@Suite struct NTAG424LRPClientTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    static func commands(_ card: ScriptedTransmitter) -> [String] { card.commands.map { Hex.encode($0, uppercase: true) } }

    @Test("AN12343 Table 19/20: AuthenticateLRPFirst, SV, SesAuthMasterKey, PCDResp, TI")
    func an12343Authentication() async throws {
        let card = ScriptedTransmitter([
            hexBytes("0156109A31977C855319CD4618C9D2AED291AF"),
            hexBytes("F4FC209D9D60623588B299FA5D6B2D710125F8547D9FB8D572C90D2C2A14E2359100"),
        ])
        let client = NTAG424Client(transmitter: card, random: NTAG424ClientTests.randoms(["74D7DF6A2CEC0B72B412DE0D2B1117E6"]))
        try await client.authenticateLRP(keyNumber: 0, key: Self.zero)
        #expect(
            Self.commands(card) == [
                "9071000008000602000000000000",
                "90AF000020" + "74D7DF6A2CEC0B72B412DE0D2B1117E6" + "189B59DCEDC31A3D3F38EF8D4810B3B4" + "00",
            ])
        guard case .lrp(let session) = await client.channel else {
            Issue.record("no LRP session")
            return
        }
        #expect(session.masterKey == hexBytes("132D7E6F35BA861F39B37221214E25A5"))
        #expect(session.transactionIdentifier == hexBytes("58EE9424"))
        #expect(session.commandCounter == 0 && session.encryptionCounter == 1, "PICCData took EncCtr 0")
        #expect(
            try LRPSession.masterKey(
                key: hexBytes("00112233445566778899AABBCCDDEEFF"), rndA: hexBytes("0123456789ABCDEF0123456789ABCDEF"),
                rndB: hexBytes("FEDCBA9876543210FEDCBA9876543210")) == hexBytes("1AC2B1021F6EF99E79B703B6B33F65E6"),
            "proxmark3 desfiretest.c TestLRPSessionKeys, second vector")
    }

    @Test("a real tag: AuthenticateLRPFirst then AuthenticateLRPNonFirst with key 0 (ntag424 crate, hardware handshake)")
    func hardwareFirstAndNonFirst() async throws {
        let card = ScriptedTransmitter([
            hexBytes("01B40643A537D6B0ACD8E7816168CD85C191AF"),
            hexBytes("1C8EE9654067C50B188BD7652CEA8ABF4DCAF2776C80ABACEC992D6DF2D6E4EE9100"),
            hexBytes("016819838A1BFA254A00E1F43DEC0BC0C791AF"),
            hexBytes("3C157B2F2A8CC0C9431E64CCF71DD8B49100"),
        ])
        let client = NTAG424Client(
            transmitter: card,
            random: NTAG424ClientTests.randoms(["D1D85ACB0A57299BFEED443D832DAD0C", "24F37E0C719E5CA42A3CBFAC3F7C0106"]))
        try await client.authenticateLRP(keyNumber: 0, key: Self.zero)
        guard case .lrp(let first) = await client.channel else {
            Issue.record("no LRP session")
            return
        }
        #expect(first.transactionIdentifier == hexBytes("9D96C13C"))
        try await client.authenticateNonFirst(keyNumber: 0, key: Self.zero)
        #expect(
            Self.commands(card) == [
                "9071000008000602000000000000",
                "90AF000020D1D85ACB0A57299BFEED443D832DAD0C23A13B80F26E481E4FAD3F3D75B14B7B00",
                "90770000010000",
                "90AF00002024F37E0C719E5CA42A3CBFAC3F7C0106FB57806564FCD46D58685C08419825E200",
            ])
        guard case .lrp(let second) = await client.channel else {
            Issue.record("no LRP session after NonFirst")
            return
        }
        #expect(second.masterKey == hexBytes("2416FA38DDEAA653726EB49684CDBD31"))
        #expect(second.transactionIdentifier == first.transactionIdentifier && second.encryptionCounter == 0)
    }

    @Test("nfc-ev2-crypto test_lrp_cmd: three GetCardUID in full mode, EncCtr going on from command to command")
    func threeCardUIDs() throws {
        let master = try LeakageResilientPrimitive(key: Self.zero).cmac(
            hexBytes("00010080993c4eed466bfc0e7ee1d30c1ebd0dea6f6481e0d70e9a174e789669"))
        #expect(master == hexBytes("0856D337F42AE40EFF294C4326D9C1F1"))
        var session = try LRPSession(keyNumber: 0, masterKey: master, transactionIdentifier: hexBytes("4F5E8407"))
        for (mac, answer) in [
            ("c37d6270f674cc6d", "5ec351196b8e2943db04fcd4a952f53da2830dc2258e4539"),
            ("d65ccb81e5591400", "d80b735f7b4c8e7e8a3cdaaa4410f35f752769c8ebc48e1a"),
            ("8c677d7dcc349371", "9ccd031474a50199c696d8ef272e231a10173faf41b614e4"),
        ] {
            #expect(try session.protect(command: 0x51, header: [], data: [], mode: .full) == hexBytes(mac))
            #expect(try session.open(response: hexBytes(answer), mode: .full) == hexBytes("04940D2A2F7080"))
        }
        #expect(session.commandCounter == 3 && session.encryptionCounter == 4)
    }

    @Test("nfc-ev2-crypto test_lrp_cmd2: WriteData then ReadData in full mode")
    func writeThenRead() throws {
        let master = try LeakageResilientPrimitive(key: Self.zero).cmac(
            hexBytes("0001008008a6953c60bc3d34e53766689732e2a203ff23855751d644ed519669"))
        var session = try LRPSession(keyNumber: 0, masterKey: master, transactionIdentifier: hexBytes("204F2276"))
        #expect(
            try session.protect(command: 0x8D, header: hexBytes("03000000030000"), data: [1, 2, 3], mode: .full)
                == hexBytes("03000000030000" + "eaf0fad0430ecdc947a822e12ec8d5f3" + "bb75f218b405fdbc"))
        #expect(try session.open(response: hexBytes("d5b8d8f8cd67f23c"), mode: .full) == [])
        #expect(
            try session.protect(command: 0xAD, header: hexBytes("03000000030000"), data: [], mode: .full)
                == hexBytes("03000000030000" + "59858e133a7f487d"))
        #expect(try session.open(response: hexBytes("39665fae8af18feb23da1767eaf2274bb97fc66cc9437713"), mode: .full) == [1, 2, 3])
    }

    @Test("a real tag, key 3 after NonFirst (EncCtr 0): a 128-byte full-mode read gains a whole padding block; write and read back")
    func hardwareReadWriteRead() throws {
        var session = try LRPSession(
            keyNumber: 3, masterKey: hexBytes("96685B834C5A6EFFA862BA67C1177E97"), transactionIdentifier: hexBytes("AFF75859"),
            encryptionCounter: 0)
        #expect(
            try session.protect(command: 0xAD, header: hexBytes("03000000000000"), data: [], mode: .full)
                == hexBytes("03000000000000" + "4346E1444E7A4B26"))
        let read = try session.open(
            response: hexBytes(
                "C0D13D2E78879C91D6E52DD735DE47D3E9A5BD06D1D6B43C5992CB65FA9257AB430EC34DB3F380BA58026762AAE1C38A"
                    + "BED3C6AF50325C18D61F67342B878AF5583F8EFD4293B30BB911BD542AFC92E0D45FF26893282421D5D660EBE8C61C87"
                    + "D4A2D9EBEDE206D5D93ECCD9687E38CA20CE98AAC748B0927E786134815B7C4984FF3A86083FF52898176CE33AD81DFE"
                    + "D2D76386A7B2F9B1"), mode: .full)
        #expect(read == hexBytes("DEADBEEF01020304") + [UInt8](repeating: 0, count: 120))
        #expect(session.encryptionCounter == 9)
        #expect(
            try session.protect(command: 0x8D, header: hexBytes("03000000080000"), data: hexBytes("DEADBEEF01020304"), mode: .full)
                == hexBytes("03000000080000" + "0CE1C30B270CCA4C1CCAF19A2B76E115" + "D9C09145D6E3B56A"))
        #expect(try session.open(response: hexBytes("AA1EC0DD97474DB9"), mode: .full) == [])
        #expect(
            try session.protect(command: 0xAD, header: hexBytes("03000000080000"), data: [], mode: .full)
                == hexBytes("03000000080000" + "2086BC2A3CBAB300"))
        #expect(
            try session.open(response: hexBytes("A8F86E5BE27A1B0BA7D0CEF39092D585F38F94FB3F8275C2"), mode: .full)
                == hexBytes("DEADBEEF01020304"))
        #expect(session.encryptionCounter == 11)
    }

    @Test("refusals: an AES-mode card's answer, a wrong PICCResp, a wrong answer MAC")
    func refusals() async throws {
        let aes = ScriptedTransmitter([hexBytes("A04C124213C186F22399D33AC2A3021591AF")])
        let client = NTAG424Client(transmitter: aes, random: NTAG424ClientTests.randoms(["74D7DF6A2CEC0B72B412DE0D2B1117E6"]))
        let refused = await #expect(throws: DESFireError.self) { try await client.authenticateLRP(keyNumber: 0, key: Self.zero) }
        #expect(refused?.code == .permissionDenied, "the AES way of answering says the tag is not in LRP mode")
        let forged = ScriptedTransmitter([
            hexBytes("0156109A31977C855319CD4618C9D2AED291AF"),
            hexBytes("F4FC209D9D60623588B299FA5D6B2D710125F8547D9FB8D572C90D2C2A14E2369100"),
        ])
        let other = NTAG424Client(transmitter: forged, random: NTAG424ClientTests.randoms(["74D7DF6A2CEC0B72B412DE0D2B1117E6"]))
        do {
            try await other.authenticateLRP(keyNumber: 0, key: Self.zero)
            Issue.record("a wrong PICCResp was taken")
        } catch let error as DESFireError {
            #expect(error.code == .authenticationFailed)
        }
        #expect(await other.channel == nil)
        var session = try LRPSession(
            keyNumber: 0, masterKey: hexBytes("0856D337F42AE40EFF294C4326D9C1F1"), transactionIdentifier: hexBytes("4F5E8407"))
        _ = try session.protect(command: 0x51, header: [], data: [], mode: .full)
        #expect(throws: DESFireError.self) {
            try session.open(response: hexBytes("5ec351196b8e2943db04fcd4a952f53da2830dc2258e4530"), mode: .full)
        }
        #expect(session.commandCounter == 0, "a refused answer does not step CmdCtr")
    }
}
