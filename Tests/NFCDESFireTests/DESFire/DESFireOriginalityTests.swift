import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// Read_Sig on the virtual DESFire: EV2 and EV3 answer the 56-byte originality signature (the
/// simulator's test key's), plain and in EV1 and EV2 sessions alike; an EV1 has none.
@Suite struct DESFireOriginalityTests {
    static let des = [UInt8](repeating: 0, count: 8)
    static let aes = [UInt8](repeating: 0, count: 16)

    static func client(_ card: DESFireCard) async throws -> DESFireClient {
        let field = SimulatedField()
        _ = await field.place(card)
        let target = try #require(try await field.targets(matching: .all).first)
        return DESFireClient(transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
    }

    @Test("EV2 and EV3: the same signature plain, in an EV1 session and in an EV2 session; the simulator's key signed it")
    func ev2AndLater() async throws {
        for model in [DESFireModel.ev2, .ev3] {
            var card = DESFireCard(model: model)
            let plainClient = try await Self.client(card)
            let plain = try await plainClient.originalitySignature()
            #expect(OriginalitySignature.signer(of: plain, uid: card.uid) == .simulator, "\(model)")
            try await plainClient.authenticate(keyNumber: 0, key: Self.des, method: .iso)
            #expect(try await plainClient.originalitySignature() == plain, "\(model): enciphered in an EV1 session")
            #expect(try await plainClient.cardUID() == card.uid, "the session goes on")

            card.piccKeyType = .aes
            card.piccKey = DESFireCard.Key(value: Self.aes, version: 0)
            let ev2Client = try await Self.client(card)
            try await ev2Client.authenticate(keyNumber: 0, key: Self.aes, method: .ev2)
            #expect(try await ev2Client.originalitySignature() == plain, "\(model): enciphered in an EV2 session")
        }
    }

    @Test("an EV1 has no originality signature: 91 1C; an image's own signature is the answer")
    func ev1AndImages() async throws {
        let ev1 = try await Self.client(DESFireCard(model: .ev1))
        let refused = await #expect(throws: DESFireError.self) { try await ev1.originalitySignature() }
        #expect(refused?.code == .illegalCommand)
        var image = DESFireCard(model: .ev3).image
        let recorded = [UInt8](repeating: 0x5A, count: 56)
        image.signature = HexBytes(recorded)
        #expect(try await Self.client(try DESFireCard(image: image)).originalitySignature() == recorded)
        #expect(OriginalitySignature.signer(of: recorded, uid: DESFireCard.defaultUID) == nil, "a made-up signature is no one's")
        image.signature = HexBytes([1, 2, 3])
        #expect(throws: TagImageError.self) { try DESFireCard(image: image) }
    }
}
