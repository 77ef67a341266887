import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// SetConfiguration option `00` between the client and the virtual DESFire: the random ID (a
/// 4-byte `08 xx xx xx` at every tap, ATQA `0304`, GetVersion's UID zeros, GetCardUID the real
/// one) and FormatPICC disabled, under EV1 and EV2 secure messaging; both permanent.
@Suite struct DESFireConfigurationTests {
    static let des = [UInt8](repeating: 0, count: 8)
    static let aes = [UInt8](repeating: 0, count: 16)

    /// The card's identifier and ATQA as a reader polling the field sees them now.
    static func seen(_ field: SimulatedField) async throws -> (identifier: [UInt8], atqa: UInt16?) {
        let target = try #require(try await field.targets(matching: .all).first)
        guard case .iso14443A(let a) = target.parameters else { return (target.identifier, nil) }
        return (target.identifier, a.atqa)
    }

    static func client(_ field: SimulatedField) async throws -> DESFireClient {
        let target = try #require(try await field.targets(matching: .all).first)
        return DESFireClient(transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
    }

    @Test("EV1, DES PICC key through AuthenticateISO: random ID and FormatPICC disabled, then three taps")
    func randomIDUnderEV1SecureMessaging() async throws {
        let card = DESFireCard(model: .ev1)
        let field = SimulatedField()
        let id = await field.place(card)
        #expect(try await Self.seen(field) == (card.uid, 0x0344))
        let client = try await Self.client(field)
        try await client.authenticate(keyNumber: 0, key: Self.des, method: .iso)
        try await client.setPICCConfiguration([.randomID, .formatDisabled])
        // Within this stay in the field nothing changes; a reactivation keeps it too.
        #expect(try await Self.seen(field).identifier == card.uid)

        var identifiers: [[UInt8]] = []
        for _ in 0..<3 {
            await field.remove(id)
            await field.reinsert(id)
            let (identifier, atqa) = try await Self.seen(field)
            #expect(identifier.count == 4 && identifier.first == 0x08, "ISO/IEC 14443-3 random ID: \(Hex.encode(identifier))")
            #expect(atqa == 0x0304, "single-size UID")
            let again = try await Self.client(field)
            #expect(try await Self.seen(field).identifier == identifier, "the same ID until the card leaves the field")
            #expect(try await again.version().uid == [UInt8](repeating: 0, count: 7), "GetVersion hides the UID")
            try await again.authenticate(keyNumber: 0, key: Self.des, method: .iso)
            #expect(try await again.cardUID() == card.uid, "GetCardUID gives the real UID")
            await #expect(throws: DESFireError.self) { try await again.formatPICC() }
            identifiers.append(identifier)
        }
        #expect(Set(identifiers).count > 1, "a new ID at each tap: \(identifiers.map { Hex.encode($0) })")
        let saved = try #require(await field.tag(id) as? DESFireCard)
        #expect(saved.image.piccConfiguration == 0x03)
        #expect(try DESFireCard(image: saved.image).randomIDEnabled)
    }

    @Test("EV3, AES PICC key through AuthenticateEV2First: the configuration byte goes enciphered; a bit once set stays set")
    func configurationUnderEV2SecureMessaging() async throws {
        var card = DESFireCard(model: .ev3)
        card.piccKeyType = .aes
        card.piccKey = DESFireCard.Key(value: Self.aes, version: 0)
        let field = SimulatedField()
        let id = await field.place(card)
        let client = try await Self.client(field)
        try await client.authenticate(keyNumber: 0, key: Self.aes)
        try await client.setPICCConfiguration(.formatDisabled)
        try await client.setPICCConfiguration(.randomID)
        let saved = try #require(await field.tag(id) as? DESFireCard)
        #expect(saved.formatDisabled && saved.randomIDEnabled, "OR-ed, never cleared")
    }

    @Test("refusals: no session, an application's key, nothing to set, an image with unknown bits")
    func refusals() async throws {
        let field = SimulatedField()
        _ = await field.place(DESFireCard(model: .ev2))
        let client = try await Self.client(field)
        let unauthenticated = await #expect(throws: DESFireError.self) { try await client.setPICCConfiguration(.randomID) }
        #expect(unauthenticated?.code == .notAuthenticated)
        try await client.authenticate(keyNumber: 0, key: Self.des, method: .iso)
        let empty = await #expect(throws: DESFireError.self) { try await client.setPICCConfiguration([]) }
        #expect(empty?.code == .invalidArgument)
        let aid = DESFireAID(0x00C0F1)!
        try await client.createApplication(aid, keyCount: 1)
        try await client.selectApplication(aid)
        try await client.authenticate(keyNumber: 0, key: Self.aes)
        let application = await #expect(throws: DESFireError.self) { try await client.setPICCConfiguration(.randomID) }
        #expect(application?.code == .permissionDenied, "an application's master key is not the PICC's")
        var image = DESFireCard(model: .ev1).image
        image.piccConfiguration = 0x04
        #expect(throws: TagImageError.self) { try DESFireCard(image: image) }
    }
}
