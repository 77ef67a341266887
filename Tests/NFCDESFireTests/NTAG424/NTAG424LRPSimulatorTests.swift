import ISO7816
import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// A transmitter that keeps what went each way.
final class RecordingTransmitter: APDUTransmitter {
    let supportsExtendedLength = false
    let inner: any APDUTransmitter
    let log = Guarded<[(command: String, answer: String)]>([])

    init(_ inner: any APDUTransmitter) { self.inner = inner }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        let answer = try await inner.transmit(command)
        log.withLock { $0.append((Hex.encode(command, uppercase: true), Hex.encode(answer, uppercase: true))) }
        return answer
    }
}

/// The client and the virtual NTAG 424 DNA in LRP mode together: a session captured from a real
/// tag replayed (the virtual tag given the real one's UID, signature, RndB and TI, the client its
/// RndA) must go over the air byte for byte as it did; then SDM set up in LRP secure messaging
/// gives SUN URLs that verify.
@Suite struct NTAG424LRPSimulatorTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    /// The `ntag424` crate's hardware session `lrp_key0_suite_bbe12900` (its GetVersion,
    /// Read_Sig, GetKeyVersion, GetCardUID and GetFileSettings tests): every command, and every
    /// answer that does not depend on the chip's production data, as captured.
    @Test func aRealTagsSessionReplayed() async throws {
        var tag = NTAG424Tag(uid: hexBytes("04407A7A0B1090"))
        tag.lrpMode = true
        tag.originalitySignature = hexBytes(
            "5F019173DA747943318455D4DD9413858C8D335D4B488DC52A606386115C5C796CE79E95A499C430B6DD5D1CD41BF23F258C678070DBD42C")
        tag.scriptedRandom = hexBytes("57E5BF7AF415C4C8B330442EC1F265E9BBE12900")
        let card = RecordingTransmitter(VirtualNTAG424(tag))
        let client = NTAG424Client(transmitter: card, random: NTAG424ClientTests.randoms(["0272F1390C4B8EC7D3E43308D4B41EC3"]))
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        guard case .lrp(let session) = await client.channel else {
            Issue.record("authenticate did not fall back to LRP")
            return
        }
        #expect(session.transactionIdentifier == hexBytes("BBE12900"))
        _ = try await client.version()
        let signature = try await client.originalitySignature()
        #expect(signature == tag.originalitySignature)
        for key: UInt8 in 0...4 { #expect(try await client.keyVersion(key) == 0) }
        #expect(try await client.cardUID() == hexBytes("04407A7A0B1090"))
        #expect(try await client.fileSettings(2).size == 256)
        let log = card.log.withLock { $0 }
        // SELECT, AuthenticateEV2First refused (919D), then AuthenticateLRPFirst's two frames.
        #expect(log[1].command == "9071000002000000" && log[1].answer == "919D")
        #expect(log[2].command == "9071000008000602000000000000" && log[2].answer == "0157E5BF7AF415C4C8B330442EC1F265E991AF")
        let exchanges = Array(log.dropFirst(4))
        let commands: [String] = exchanges.map { $0.command }
        let answers: [String] = exchanges.dropFirst(3).map { $0.answer }
        let expectedCommands: [String] = [
            "906000000855C76087DF2A8F9000", "90AF000000", "90AF000000",
            "903C000009000C525883EFF7777400",
            "9064000009001AA9BAA6BD4D8F9600", "9064000009013117A470DF7784FE00", "9064000009021A2AB847E038F65F00",
            "906400000903DD3ADF713F38F1AB00", "9064000009042365CB5919E96CAA00",
            "90510000087FE90A37B3B2DD3400",
            "90F50000090208182263432A195900",
        ]
        #expect(commands == expectedCommands)
        let readSig: String =
            "E6DD25572D69A8D89C705AAC541BAD3D6DC5E50FCC8BE583E6487A07AB283F0A8CFD0A5097ACE24DB86C80C6D41A93C3FE1F1144D8E5D1873E1D50F10362E3F63766345847D342509190"
        let expectedAnswers: [String] = [
            readSig,
            "00C7E2A840BB7CE8249100", "0035067A30F54419EF9100", "003468A518259DD8359100",
            "00AC6C0AC120C466D09100", "00BC476B62CB43A81D9100",
            "C732E15E0F16F3137F0B21E67353F24C69CC9942061CF2299100",
            "0000E0EE00010054FC00D5B53F99379100",
        ]
        #expect(answers == expectedAnswers)
    }

    /// A tag that refuses AES authentication and is not in LRP mode (PICC level: no application
    /// selected) gets AES's refusal back, not the LRP attempt's.
    @Test func bothRefusalsGiveTheAESOne() async throws {
        let card = RecordingTransmitter(VirtualNTAG424())
        let client = NTAG424Client(transmitter: card)
        let refused = await #expect(throws: DESFireError.self) { try await client.authenticate(keyNumber: 0, key: Self.zero) }
        #expect(
            refused?.code == .permissionDenied && refused?.reason.contains("AuthenticateEV2First") == true, "\(String(describing: refused))"
        )
        #expect(card.log.withLock { $0.map(\.command) } == ["9071000002000000", "9071000008000602000000000000"])
    }

    /// From a tag as shipped: AES session, the switch to LRP, an LRP session, keys changed and SDM
    /// set in LRP secure messaging; two phone reads give two URLs that verify in LRP mode with
    /// counters one apart, and file 03 is written and read back enciphered.
    @Test(arguments: [
        "https://example.org/t?picc_data={picc}&cmac={mac}",
        "https://example.org/t?picc_data={picc}&enc={enc:secret data 0123}&cmac={mac}",
        "https://example.org/t?uid={uid}&ctr={ctr}&cmac={mac}",
    ])
    func switchedTagGivesLRPMessages(template: String) async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        try await client.enableLRP()
        #expect(await client.channel == nil)
        #expect(card.tag.withLock { $0.lrpMode })
        await #expect(throws: DESFireError.self) { try await client.enableLRP() }
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        guard case .lrp = await client.channel else {
            Issue.record("no LRP session")
            return
        }
        try await client.enableLRP()
        guard case .lrp = await client.channel else {
            Issue.record("enableLRP in an LRP session ended it")
            return
        }
        try await client.changeKey(2, to: NTAG424SimulatorTests.metaKey, version: 1, oldKey: Self.zero)
        try await client.changeKey(1, to: NTAG424SimulatorTests.fileKey, version: 1, oldKey: Self.zero)
        let sun = try NTAG424SUNTemplate(url: template, metaReadKey: 2, fileReadKey: 1, lrp: true)
        try await client.write(sun.ndefFile, file: 2)
        var settings = try await client.fileSettings(2)
        settings.sdm = sun.sdm
        try await client.changeFileSettings(2, to: settings)

        let first = try await NTAG424SimulatorTests.readURL(card)
        let second = try await NTAG424SimulatorTests.readURL(card)
        #expect(first != second)
        var one = try SUNMessage(url: first)
        var two = try SUNMessage(url: second)
        if template.contains("{uid}") {
            // Clear mirrors do not tell the mode (nfc sun verify --lrp).
            one.cipher = .lrp
            two.cipher = .lrp
        }
        #expect(one.cipher == .lrp)
        let verifiedOne = try one.verify(metaReadKey: NTAG424SimulatorTests.metaKey, fileReadKey: NTAG424SimulatorTests.fileKey)
        let verifiedTwo = try two.verify(metaReadKey: NTAG424SimulatorTests.metaKey, fileReadKey: NTAG424SimulatorTests.fileKey)
        #expect(verifiedOne.isValid && verifiedTwo.isValid, "\(first) / \(second)")
        #expect(verifiedOne.piccData.uid == NTAG424Tag.defaultUID)
        #expect(try #require(verifiedTwo.piccData.counter) == (try #require(verifiedOne.piccData.counter)) + 1)
        if template.contains("{enc:") { #expect(verifiedOne.fileData == Array("secret data 0123".utf8)) }

        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        try await client.authenticateNonFirst(keyNumber: 3, key: Self.zero)
        let secret = Array("held in file 03, written enciphered by LRP".utf8)
        try await client.write(secret, file: 3)
        try await client.authenticateNonFirst(keyNumber: 2, key: NTAG424SimulatorTests.metaKey)
        #expect(try await client.read(file: 3, length: secret.count) == secret)
    }
}
