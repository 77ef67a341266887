import ISO7816
import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The virtual NTAG 424 DNA driven as a whole card.
final class VirtualNTAG424: APDUTransmitter {
    let supportsExtendedLength = false
    let tag: Guarded<NTAG424Tag>

    init(_ tag: NTAG424Tag = NTAG424Tag()) {
        var powered = tag
        powered.powerOn()
        self.tag = Guarded(powered)
    }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        tag.withLock { $0.respond(to: command, context: ExchangeContext()).transceivedBytes ?? [] }
    }

    /// The tag leaves the field and comes back: no selection, no session.
    func tap() { tag.withLock { $0.powerOn() } }
}

/// The client against the virtual tag: configuration through secure messaging, then SUN URLs read
/// as a phone reads them (ISOSelectFile, ISOReadBinary) and checked by the verifier.
@Suite struct NTAG424SimulatorTests {
    static let zero = [UInt8](repeating: 0, count: 16)
    static let metaKey: [UInt8] = hexBytes("00112233445566778899AABBCCDDEEFF")
    static let fileKey: [UInt8] = hexBytes("0F0E0D0C0B0A09080706050403020100")

    /// A phone's NDEF read: the application, the NDEF file, NLEN, then the message.
    static func readURL(_ card: VirtualNTAG424) async throws -> String {
        card.tap()
        for command in ["00A4040C07D276000085010100", "00A4000C02E104"] {
            #expect(try await card.transmit(hexBytes(command)) == [0x90, 0x00])
        }
        let length = try await card.transmit(hexBytes("00B0000002"))
        try #require(length.count == 4 && length.suffix(2) == [0x90, 0x00], "NLEN: \(length)")
        let count = Int(length[0]) << 8 | Int(length[1])
        try #require((5...254).contains(count), "NLEN \(count)")
        let message = try await card.transmit([0x00, 0xB0, 0x00, 0x02, UInt8(count)])
        try #require(message.count == count + 2 && message.suffix(2) == [0x90, 0x00], "message: \(message.count) bytes")
        let record = Array(message.dropLast(2))
        // One short URI record: header, type length, payload length, `U`, the prefix code.
        let prefix = record[4] == 0x04 ? "https://" : ""
        return prefix + String(decoding: record.dropFirst(5), as: UTF8.self)
    }

    /// Keys set, the URL written and SDM enabled through the client; then two reads give two
    /// different URLs that both verify, with counters one apart.
    @Test(arguments: [
        "https://example.org/t?picc_data={picc}&cmac={mac}",
        "https://example.org/t?uid={uid}&ctr={ctr}&cmac={mac}",
        "https://example.org/t?picc_data={picc}&enc={enc:secret data 0123}&cmac={mac}",
    ])
    func configuredTagGivesVerifiableURLs(template: String) async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        try await client.changeKey(2, to: Self.metaKey, version: 1, oldKey: Self.zero)
        try await client.changeKey(1, to: Self.fileKey, version: 1, oldKey: Self.zero)
        let sun = try NTAG424SUNTemplate(url: template, metaReadKey: 2, fileReadKey: 1)
        try await client.write(sun.ndefFile, file: 2)
        var settings = try await client.fileSettings(2)
        settings.sdm = sun.sdm
        try await client.changeFileSettings(2, to: settings)
        #expect(try await client.fileSettings(2).sdm == sun.sdm)

        let first = try await Self.readURL(card)
        let second = try await Self.readURL(card)
        #expect(first != second)
        let one = try SUNMessage(url: first).verify(metaReadKey: Self.metaKey, fileReadKey: Self.fileKey)
        let two = try SUNMessage(url: second).verify(metaReadKey: Self.metaKey, fileReadKey: Self.fileKey)
        #expect(one.isValid && two.isValid, "\(first) / \(second)")
        #expect(one.piccData.uid == NTAG424Tag.defaultUID)
        #expect(try #require(two.piccData.counter) == (try #require(one.piccData.counter)) + 1)
        if template.contains("{enc:") { #expect(one.fileData == Array("secret data 0123".utf8)) }
        let forged = try SUNMessage(url: first).verify(metaReadKey: Self.metaKey, fileReadKey: Self.zero)
        #expect(!forged.isValid, "another file read key does not verify")

        // An authenticated reader sees the stored placeholders, and the counter does not move.
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        let stored = try await client.read(file: 2, length: sun.ndefFile.count)
        #expect(stored == sun.ndefFile)
        #expect(card.tag.withLock { $0.files[1].readCounter } == 2)
    }

    /// Reads within one run see one counter value: NLEN and the message, read by two
    /// ISOReadBinary commands, belong to the same mirror (data sheet §9.3.1).
    @Test func consecutiveReadsShareTheMirror() async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        let sun = try NTAG424SUNTemplate(url: "https://example.org/?picc_data={picc}&cmac={mac}", metaReadKey: 0, fileReadKey: 0)
        try await client.write(sun.ndefFile, file: 2)
        var settings = try await client.fileSettings(2)
        settings.sdm = sun.sdm
        try await client.changeFileSettings(2, to: settings)
        _ = try await Self.readURL(card)
        _ = try await Self.readURL(card)
        #expect(card.tag.withLock { $0.files[1].readCounter } == 2)
    }

    /// GetVersion, GetCardUID and GetKeyVersion inside a session, MACed both ways; the default
    /// file settings; a wrong key refused with `91 AE`.
    @Test func identityAndRefusals() async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        let plain = try await client.version()
        #expect(plain.isNTAG424DNA && plain.uid == NTAG424Tag.defaultUID)
        let wrong = await #expect(throws: DESFireError.self) { try await client.authenticate(keyNumber: 0, key: Self.metaKey) }
        #expect(wrong?.code == .authenticationError)
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        #expect(try await client.version() == plain)
        #expect(try await client.cardUID() == NTAG424Tag.defaultUID)
        #expect(try await client.keyVersion(3) == 0)
        #expect(await client.session?.commandCounter == 3)
        let settings = try await client.fileSettings(3)
        #expect(settings.mode == .full && settings.read == .key(2) && settings.write == .key(3) && settings.size == 128)
        let denied = await #expect(throws: DESFireError.self) { _ = try await client.read(file: 3) }
        #expect(denied?.code == .authenticationError, "file 03 needs key 2, the session has key 0")
        #expect(await client.session == nil)
        try await client.authenticate(keyNumber: 2, key: Self.zero)
        #expect(try await client.read(file: 3) == Array(repeating: 0, count: 128))
    }
}
