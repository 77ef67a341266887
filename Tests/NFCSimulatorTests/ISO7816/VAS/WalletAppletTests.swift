import Crypto
import NFCSimulator
import Testing

/// The virtual phone's VAS application, APDU by APDU (docs/vas-protocol.md §4–§6): the exchange of
/// kormax/apple-vas's VASONLY.READ.log trace, and the status words Apple's header names with the
/// requests that produce them.
@Suite struct WalletAppletTests {
    static let passID = "pass.com.passkit.pksamples.nfcdemo"
    static let merchant = P256.KeyAgreement.PrivateKey()
    static let select = VASCryptogramTests.bytes("00A404000A4F53452E5641532E303100")
    /// The trace's GET VAS DATA, byte for byte: version, merchant id, capabilities, filter, URL.
    static let traceRequest = VASCryptogramTests.bytes(
        "80CA01014B" + "9F22020100" + "9F252003B57CDB3ECA0984BA9ABDC2FB45D86626D87B39D33C5C6DBBC313A6347A3146" + "9F260400800002"
            + "9F2B050100000000" + "9F291168747470733A2F2F6170706C652E636F6D" + "00")

    func phone(_ release: WalletApplet.Pass.Release = .released) async throws -> FieldHarness {
        var applet = WalletApplet(passes: [
            .init(
                passTypeIdentifier: Self.passID, message: Array("6d1UlFpnOc50iVKRaboDOK".utf8), merchantKey: Self.merchant.publicKey,
                release: release)
        ])
        applet.fixedTimestamp = 0x2A5B_196E
        return try await FieldHarness(ISO7816Card(applets: [applet]))
    }

    @Test func theTracesExchangeGivesACryptogramTheMerchantOpens() async throws {
        let harness = try await phone()
        let fci = try await harness.send(Self.select)
        #expect(fci.suffix(2) == [0x90, 0x00])
        // 6F 1D { 50 08 "ApplePay", 9F21 02 0100, 9F24 04 <nonce>, 9F23 04 0000001E }
        #expect(Array(fci.prefix(14)) == VASCryptogramTests.bytes("6F1D50084170706C65506179" + "9F21"))
        #expect(Array(fci[14..<17]) == [0x02, 0x01, 0x00])
        let answer = try await harness.send(Self.traceRequest, timeout: .seconds(1))
        #expect(answer.suffix(2) == [0x90, 0x00])
        // 70 L { 9F2A 00, 9F27 4E <78-byte cryptogram> }
        #expect(Array(answer.prefix(7)) == [0x70, 0x54, 0x9F, 0x2A, 0x00, 0x9F, 0x27])
        #expect(answer[7] == 0x4E)
        let cryptogram = Array(answer[8..<(8 + 0x4E)])
        let contents = try VASCryptogram.open(cryptogram, passTypeIdentifier: Self.passID, merchant: Self.merchant)
        #expect(contents == .init(timestamp: 0x2A5B_196E, message: Array("6d1UlFpnOc50iVKRaboDOK".utf8)))
    }

    @Test(arguments: [
        // Another pass type identifier: no such pass.
        ("80CA0101289F22020100" + "9F2520" + String(repeating: "00", count: 32) + "00", UInt16(0x6A83)),
        // P2 02 is no mode; P1 must be 01.
        ("80CA0102059F22020100" + "00", UInt16(0x6B00)),
        ("80CA0001059F22020100" + "00", UInt16(0x6B00)),
        // A TLV cut short; no version at all.
        ("80CA0101039F2205" + "00", UInt16(0x6A80)),
        ("80CA0101049F2B0101" + "00", UInt16(0x6A80)),
        // Version 2.0.
        ("80CA0101059F22020200" + "00", UInt16(0x6340)),
        // A merchant id of 4 bytes.
        ("80CA01010C9F220201009F250401020304" + "00", UInt16(0x6700)),
    ])
    func statusWords(request: String, status: UInt16) async throws {
        let harness = try await phone()
        _ = try await harness.send(Self.select)
        let answer = try await harness.send(VASCryptogramTests.bytes(request.replacingOccurrences(of: " ", with: "")), timeout: .seconds(1))
        #expect(answer.suffix(2) == [UInt8(status >> 8), UInt8(status & 0xFF)])
    }

    @Test func aPassNotReleasedOrWaitingForTheUser() async throws {
        for (release, status) in [(WalletApplet.Pass.Release.notActivated, [UInt8(0x62), 0x87]), (.needsUserIntervention, [0x69, 0x84])] {
            let harness = try await phone(release)
            _ = try await harness.send(Self.select)
            #expect(try await harness.send(Self.traceRequest, timeout: .seconds(1)) == status)
        }
    }
}
