import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Identification from the ATS historical bytes, the UID's manufacturer and the NDEF application.
@Suite("Type4 identify")
struct Type4IdentifyTests {
    let engine = Type4Engine()

    func detail(_ identity: TagIdentity, _ key: String) -> String? {
        identity.details.first { $0.0 == key }?.1
    }

    @Test("the simulated Type 4 Tag: an NXP ISO-DEP card with an NDEF file of 2048 bytes")
    func type4Tag() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.type4.make())
        let identity = try await engine.identify(on: bench.connection)
        #expect(identity.family == .type4)
        #expect(identity.model == "ISO-DEP card")
        #expect(identity.memorySize == 2048)
        #expect(detail(identity, "manufacturer") == "NXP Semiconductors")
        #expect(detail(identity, "NDEF application") == "mapping 2.0")
        #expect(detail(identity, "NDEF file") == "E104, 2048 B")
        #expect(detail(identity, "historical bytes") == "80")
        // SELECT the application, SELECT and READ the CC, and GetVersion, which the NXP UID calls
        // for and an ISO 7816 card refuses: no name from it.
        #expect(bench.meter.statistics.commands == 4)
        #expect(detail(identity, "GetVersion") == nil)
    }

    /// NXP's native cards name themselves by GetVersion (AN10833): a blank DESFire, a DESFire
    /// formatted for NDEF (the NDEF details kept), a MIFARE Plus, an NTAG 424 DNA.
    @Test(arguments: [
        (VirtualTagKind.desfireEV3, true, "MIFARE DESFire EV3", "04010133001A05"),
        (.desfireEV1, false, "MIFARE DESFire EV1", "04010101001A05"),
        (.mifarePlus, true, "MIFARE Plus EV2", "04020122001605"),
        (.ntag424, false, "NTAG 424 DNA", "04040230001105"),
    ])
    func nxpCardsNameThemselves(kind: VirtualTagKind, blank: Bool, name: String, hardware: String) async throws {
        let bench = try await Type4Bench(try kind.make(blank: blank))
        let identity = try await engine.identify(on: bench.connection)
        #expect(identity.model == name + " (ISO-DEP card)")
        #expect(detail(identity, "GetVersion") == hardware)
        if kind == .desfireEV1 { #expect(detail(identity, "NDEF application") == "mapping 2.0") }
    }

    @Test("a card without the NDEF application is still identified, without memory")
    func bareCard() async throws {
        let bench = try await Type4Bench(try VirtualTagKind.iso7816.make())
        let identity = try await engine.identify(on: bench.connection)
        #expect(identity.model == "ISO-DEP card")
        #expect(identity.memorySize == nil)
        #expect(detail(identity, "NDEF application") == "absent")
    }

    @Test("an invalid CC is reported in the details")
    func invalidCC() async throws {
        let card = Type4Fixtures.card(
            cc: Type4Fixtures.capabilityContainer(version: 0x50), ndefFile: Type4Fixtures.ndefFile(size: 64, nlen: 0))
        let bench = try await Type4Bench(card)
        let identity = try await engine.identify(on: bench.connection)
        #expect(identity.memorySize == nil)
        #expect(detail(identity, "NDEF application")?.hasPrefix("invalid: CC mapping version") == true)
    }

    @Test("a name in the historical bytes (compact-TLV issuer data, or plain text) names the card")
    func namedCard() async throws {
        // A YubiKey 5 NFC's historical bytes: 80, card capabilities (73 …), issuer data 57 "YubiKey", 40.
        let yubikey: [UInt8] = [0x80, 0x73, 0xC0, 0x21, 0xC0, 0x57] + Array("YubiKey".utf8) + [0x40]
        let card = ISO7816Card(uid: [0x08, 0x11, 0x22, 0x33], ats: AnswerToSelect(fsci: 8, historicalBytes: yubikey))
        let bench = try await Type4Bench(card)
        let identity = try await engine.identify(on: bench.connection)
        #expect(identity.model == "YubiKey (ISO-DEP card)")
        #expect(detail(identity, "manufacturer") == nil)  // a random 4-byte UID names none

        let jcop = ISO7816Card(ats: AnswerToSelect(historicalBytes: Array("JCOP41V221".utf8)))
        let other = try await Type4Bench(jcop)
        #expect(try await engine.identify(on: other.connection).model == "JCOP41V221 (ISO-DEP card)")
    }
}
