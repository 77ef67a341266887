import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// SetConfiguration options `01` (the default key) and `02` (the ATS) between the client and the
/// virtual DESFire, in each kind of session: legacy (CRC16, `80` after it for the ATS, as
/// libfreefare's `mifare_desfire_set_ats` sends), EV1 (CRC32 over the command) and EV2 (its own
/// padding). libfreefare's own tools check the same from outside (Integration/pn532/freefare_desfire.sh).
@Suite struct DESFireDefaultKeyAndATSTests {
    static let des = [UInt8](repeating: 0, count: 8)
    static let aes = [UInt8](repeating: 0, count: 16)
    static let aid = DESFireAID(0x00D1F1)!
    /// An ATS an EV1 would not answer: FSCI 8, TB 81, TC 02, two historical bytes.
    static let ats: [UInt8] = [0x07, 0x78, 0x77, 0x81, 0x02, 0xC1, 0xDE]

    static func client(_ field: SimulatedField) async throws -> DESFireClient {
        let target = try #require(try await field.targets(matching: .all).first)
        return DESFireClient(transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
    }

    static func answerToSelect(_ field: SimulatedField) async throws -> [UInt8]? {
        let target = try #require(try await field.targets(matching: .all).first)
        guard case .iso14443A(let a) = target.parameters else { return nil }
        return a.ats?.bytes
    }

    @Test(
        "the default key and the ATS set in a legacy, an EV1 and an EV2 session",
        arguments: [DESFireAuthentication.legacy, .iso, .ev2])
    func defaultKeyAndATS(method: DESFireAuthentication) async throws {
        var card = DESFireCard(model: method == .ev2 ? .ev3 : .ev1)
        if method == .ev2 {
            card.piccKeyType = .aes
            card.piccKey = DESFireCard.Key(value: Self.aes, version: 0)
        }
        let field = SimulatedField()
        let id = await field.place(card)
        #expect(
            try await Self.answerToSelect(field)
                == (method == .ev2 ? [0x06, 0x77, 0x77, 0x71, 0x02, 0x80] : [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]))
        let client = try await Self.client(field)
        let piccKey = method == .ev2 ? Self.aes : Self.des
        try await client.authenticate(keyNumber: 0, key: piccKey, method: method)
        let defaultKey: [UInt8] = Array(0x10..<0x20)
        try await client.setDefaultKey(defaultKey, version: 0x34)
        try await client.setATS(Self.ats)
        // The session goes on after both: the next command's MAC or CRC still checks.
        try await client.createApplication(Self.aid, keyCount: 2, keyType: .aes)
        try await client.selectApplication(Self.aid)
        try await client.authenticate(keyNumber: 1, key: defaultKey, method: .aes)
        #expect(try await client.keyVersion(1) == 0x34, "every key of the new application starts as the default key")
        let wrong = await #expect(throws: DESFireError.self) { try await client.authenticate(keyNumber: 0, key: Self.aes, method: .aes) }
        #expect(wrong?.code == .authenticationError, "zeros are no longer its keys")

        await field.remove(id)
        await field.reinsert(id)
        #expect(try await Self.answerToSelect(field) == Self.ats, "RATS answers the ATS set")
        let saved = try #require(await field.tag(id) as? DESFireCard)
        #expect(saved.image.ats?.bytes == Self.ats)
        #expect(saved.image.defaultKey?.key.bytes == defaultKey + [UInt8](repeating: 0, count: 8))
        #expect(saved.image.defaultKey?.version == 0x34)
        let reloaded = try DESFireCard(image: saved.image)
        #expect(reloaded.userATS == Self.ats && reloaded.defaultKey == saved.defaultKey, "both survive the image")
    }

    @Test("an 8-byte DES default key goes twice, as the card holds single DES; DES applications take its first 16 bytes")
    func singleDESDefaultKey() async throws {
        let field = SimulatedField()
        let id = await field.place(DESFireCard(model: .ev2))
        let client = try await Self.client(field)
        try await client.authenticate(keyNumber: 0, key: Self.des, method: .iso)
        let key: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]
        try await client.setDefaultKey(key, version: 0)
        try await client.createApplication(Self.aid, keyCount: 1, keyType: .des)
        try await client.selectApplication(Self.aid)
        try await client.authenticate(keyNumber: 0, key: key, method: .iso)
        let saved = try #require(await field.tag(id) as? DESFireCard)
        #expect(saved.applications.first?.keys.first?.value == key + key)
    }

    @Test("refusals: no session, a key or an ATS of the wrong length, an ATS the card cannot parse, bad images")
    func refusals() async throws {
        let field = SimulatedField()
        _ = await field.place(DESFireCard(model: .ev1))
        let client = try await Self.client(field)
        let unauthenticated = await #expect(throws: DESFireError.self) { try await client.setATS(Self.ats) }
        #expect(unauthenticated?.code == .notAuthenticated)
        try await client.authenticate(keyNumber: 0, key: Self.des, method: .legacy)
        let shortKey = await #expect(throws: DESFireError.self) { try await client.setDefaultKey([1, 2, 3], version: 0) }
        #expect(shortKey?.code == .wrongKey)
        let badTL = await #expect(throws: DESFireError.self) { try await client.setATS([0x05, 0x75, 0x77]) }
        #expect(badTL?.code == .invalidArgument)
        // T0 70 announces TA, TB and TC; one byte follows: the card refuses it.
        let unparsable = await #expect(throws: DESFireError.self) { try await client.setATS([0x03, 0x70, 0x00]) }
        #expect(unparsable?.code == .parameterError)

        var image = DESFireCard(model: .ev1).image
        image.ats = HexBytes([0x03, 0x70, 0x00])
        #expect(throws: TagImageError.self) { try DESFireCard(image: image) }
        image.ats = nil
        image.defaultKey = image.piccKey  // 16 bytes, not 24
        #expect(throws: TagImageError.self) { try DESFireCard(image: image) }
    }
}
