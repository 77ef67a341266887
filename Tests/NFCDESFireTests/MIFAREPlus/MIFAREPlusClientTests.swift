import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The MIFARE Plus client against the virtual card through a simulated field, and against the
/// independently computed EV0 exchange (docs/mifare-plus.md).
@Suite struct MIFAREPlusClientTests {
    static let ff = [UInt8](repeating: 0xFF, count: 16)

    static func connect(_ card: MIFAREPlusCard) async throws -> (MIFAREPlusClient, SimulatedField, VirtualTagID) {
        let field = SimulatedField()
        let id = await field.place(card)
        let target = try #require(try await field.targets(matching: .all).first)
        let client = MIFAREPlusClient(
            transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
        return (client, field, id)
    }

    /// The EV0 exchange computed apart from Swift: the client must send these bytes with this RndA.
    @Test func ev0ExchangeByteForByte() async throws {
        let card = ScriptedTransmitter([
            hexBytes("E315209ED0E7C94F74A65C99F6EADC1E9190"),
            hexBytes("FFB41E7FF59353864252165A70A9DAEC02E232C8DE77FFCB1FA5B78A1BA4A66E9190"),
            hexBytes("58A183CC9E65486ADC0C26AF787CC122945634FAF481378E9190"),
            hexBytes("9C30B497CA3A24D29190"),
        ])
        let client = MIFAREPlusClient(transmitter: card, random: NTAG424ClientTests.randoms(["A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"]))
        try await client.authenticate(keyBlock: 0x4000, key: hexBytes("000102030405060708090A0B0C0D0E0F"), messaging: .ev0)
        let session = try #require(await client.session)
        #expect(session.encryptionKey == hexBytes("95363CE7413DB1E2A1F657293EAC7D7A"))
        #expect(session.macKey == hexBytes("1E3C186B9E5E603E5CFD81D147EDC695"))
        #expect(try await client.read(block: 1) == hexBytes("00112233445566778899AABBCCDDEEFF"))
        try await client.write(block: 2, hexBytes("0102030405060708090A0B0C0D0E0F10"))
        #expect(
            card.commands.map { Hex.encode($0, uppercase: true) } == [
                "907000000900400600000000000000",
                "9072000020" + "5E18D1FEF61D087EC0A33ED734A7918F8C0B35F96F9640AB67D536C876626E70" + "00",
                "903100000B0100014E1E5721244A787700",
                "90A100001A0200C736ABCEC3F0BF9E880FAAD9604413F9A6CD90B6E24C5D4D00",
            ])
    }

    /// A blank card personalised and committed to SL3, then every block operation through EV1
    /// secure messaging: enciphered and plain reads and writes, MACless reads covered by the next
    /// MACed one, a key change, AuthenticateNonFirst with key B, values, ResetAuth.
    @Test func personalizeThenUseAtSL3() async throws {
        let (client, field, id) = try await Self.connect(MIFAREPlusCard())
        #expect(try await client.securityLevel() == 0)
        let version = try await client.version()
        #expect(version.generation == "MIFARE Plus EV2" && version.storageBytes == 2_048 && version.isMIFAREPlus)
        let master = hexBytes("00112233445566778899AABBCCDDEEFF")
        for address: UInt16 in [0x9000, 0x9001, 0x9003] { try await client.writePerso(address, master) }
        try await client.writePerso(0x0004, [UInt8](repeating: 0x44, count: 32))
        try await client.commitPerso()
        #expect(await field.tag(id, as: MIFAREPlusCard.self)?.securityLevel == .sl3)
        #expect(try await client.securityLevel() == 3)

        try await client.authenticate(keyBlock: MIFAREPlusClient.sectorKey(1, keyB: false), key: Self.ff)
        #expect(await client.session?.messaging == .ev1)
        #expect(try await client.read(block: 4, count: 2) == [UInt8](repeating: 0x44, count: 32))
        try await client.write(block: 6, [UInt8](repeating: 0x66, count: 16), encrypted: false)
        #expect(try await client.read(block: 6, encrypted: false, macOnAnswer: false) == [UInt8](repeating: 0x66, count: 16))
        #expect(try await client.read(block: 5, macOnAnswer: false, macOnCommand: false) == [UInt8](repeating: 0x44, count: 16))
        #expect(try await client.read(block: 4) == [UInt8](repeating: 0x44, count: 16), "this MAC covers the two before")
        let version2 = try await client.version()
        #expect(version2.uid == MIFAREPlusCard.defaultUID, "GetVersion MACed in the session")

        let keyB = hexBytes("B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF")
        try await client.write(block: MIFAREPlusClient.sectorKey(1, keyB: true), keyB)
        try await client.authenticateNonFirst(keyBlock: MIFAREPlusClient.sectorKey(1, keyB: true), key: keyB)
        try await client.writeValue(block: 5, 100)
        try await client.value(.decrement(30), block: 5, transferTo: 5)
        #expect(try await client.value(block: 5) == 70)
        try await client.value(.increment(5), block: 5)
        try await client.value(.transfer, block: 5)
        #expect(try await client.value(block: 5) == 75)
        try await client.resetAuthentication()
        await #expect(throws: MIFAREPlusError(.notAuthenticated, "")) { _ = try await client.read(block: 4) }
        // The card finds RndB' wrong under its key B and answers 06.
        await #expect(throws: MIFAREPlusError(.authenticationError, "")) {
            try await client.authenticate(keyBlock: MIFAREPlusClient.sectorKey(1, keyB: true), key: Self.ff)
        }
    }

    /// A sector trailer whose access bits give block group 0 `100` (read with either key, write with
    /// key B only; bytes 6–8 `FE 17 80`): key A reads block 4 but may not write it, key B may;
    /// block 5 (group 1, `000`) takes key A's write.
    @Test func accessConditionsFollowTheTrailer() async throws {
        var card = MIFAREPlusCard(securityLevel: .sl3)
        card.blocks[7].replaceSubrange(6..<9, with: [0xFE, 0x17, 0x80])
        let (client, _, _) = try await Self.connect(card)
        let keyA = MIFAREPlusClient.sectorKey(1, keyB: false)
        let keyB = MIFAREPlusClient.sectorKey(1, keyB: true)
        let data = [UInt8](repeating: 0x42, count: 16)
        try await client.authenticate(keyBlock: keyA, key: Self.ff)
        _ = try await client.read(block: 4)
        await #expect(throws: MIFAREPlusError(.authenticationError, "")) { try await client.write(block: 4, data) }
        try await client.authenticate(keyBlock: keyA, key: Self.ff)
        try await client.write(block: 5, data)
        try await client.authenticateNonFirst(keyBlock: keyB, key: Self.ff)
        try await client.write(block: 4, data)
        #expect(try await client.read(block: 4) == data)
    }

    /// EV0 messaging end to end, a sector the key does not cover, a key that does not exist.
    @Test func ev0AndRefusals() async throws {
        let (client, _, _) = try await Self.connect(MIFAREPlusCard(securityLevel: .sl3))
        try await client.authenticate(keyBlock: 0x4000, key: Self.ff, messaging: .ev0)
        #expect(await client.session?.messaging == .ev0)
        try await client.write(block: 1, [UInt8](repeating: 1, count: 16))
        #expect(try await client.read(block: 1) == [UInt8](repeating: 1, count: 16))
        await #expect(throws: MIFAREPlusError(.authenticationError, "")) { _ = try await client.read(block: 4) }
        #expect(await client.session == nil, "a refusal ends the session")
        await #expect(throws: MIFAREPlusError(.invalidBlock, "")) { try await client.authenticate(keyBlock: 0x4100, key: Self.ff) }
    }
}
