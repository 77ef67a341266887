import Crypto
import NFCSimulator
import OpenCoreNFC
import Testing

/// A records what a VAS session tells it.
final class VASReaderDelegate: NSObject, NFCVASReaderSessionDelegate, @unchecked Sendable {
    let log = EventLog()
    private let lock = NSLock()
    private var received: [[NFCVASResponse]] = []
    var responses: [[NFCVASResponse]] { lock.withLock { received } }
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: any Error) { log.record(.invalidated(error)) }
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse]) {
        lock.withLock { received.append(responses) }
        log.record(.becameActive)  // a marker: the responses are kept above
    }
}

/// `NFCVASReaderSession` reading a virtual phone's Wallet passes (docs/vas-protocol.md): both
/// modes, each `NFCVASResponse.ErrorCode`, and the session's refusals.
extension SessionTests {
    @Suite struct VASReaderSessionTests {
        static let loyalty = "pass.com.example.loyalty"
        static let merchant = P256.KeyAgreement.PrivateKey()

        static func phone(_ release: WalletApplet.Pass.Release = .released, forcedStatus: UInt16? = nil) -> ISO7816Card {
            var applet = WalletApplet(passes: [
                .init(passTypeIdentifier: loyalty, message: Array("member 4711".utf8), merchantKey: merchant.publicKey, release: release)
            ])
            applet.forcedStatus = forcedStatus
            // Not an NXP UID: a phone.
            return ISO7816Card(uid: [0x08, 0x12, 0x34, 0x56], applets: [applet])
        }

        /// Runs a session until the phone's responses arrive.
        static func read(_ card: ISO7816Card, _ configurations: [NFCVASCommandConfiguration]) async throws -> [NFCVASResponse]? {
            let bench = await SessionBench([card])
            let delegate = VASReaderDelegate()
            let session = NFCVASReaderSession(vasCommandConfigurations: configurations, delegate: delegate, queue: nil)
            session.begin()
            guard case .becameActive? = await delegate.log.next() else { return nil }
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
            return delegate.responses.first
        }

        @Test func normalModeReadsThePassAndTheMerchantOpensIt() async throws {
            let responses = try #require(
                try await Self.read(
                    Self.phone(),
                    [
                        NFCVASCommandConfiguration(
                            vasMode: .normal, passTypeIdentifier: Self.loyalty, url: URL(string: "https://example.com/join")),
                        NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: "pass.com.example.other", url: nil),
                    ]))
            #expect(responses.map(\.status) == [.success, .dataNotFound])
            let contents = try VASCryptogram.open([UInt8](responses[0].vasData), passTypeIdentifier: Self.loyalty, merchant: Self.merchant)
            #expect(contents.message == Array("member 4711".utf8))
            #expect(responses[0].mobileToken.isEmpty && responses[1].vasData.isEmpty)
        }

        @Test func urlOnlyModeConfirmsWithoutPassData() async throws {
            let responses = try #require(
                try await Self.read(
                    Self.phone(),
                    [
                        NFCVASCommandConfiguration(
                            vasMode: .urlOnly, passTypeIdentifier: Self.loyalty, url: URL(string: "https://example.com/join"))
                    ]))
            #expect(responses.map(\.status) == [.success])
            #expect(responses[0].vasData.isEmpty)
        }

        /// Each of Apple's eight status codes reaches the app.
        @Test(arguments: [
            (WalletApplet.Pass.Release.notActivated, UInt16?.none, NFCVASResponse.ErrorCode.dataNotActivated),
            (.needsUserIntervention, nil, .userIntervention),
            (.released, 0x6B00, .wrongParameters),
            (.released, 0x6700, .wrongLCField),
            (.released, 0x6A80, .incorrectData),
            (.released, 0x6340, .unsupportedApplicationVersion),
        ])
        func everyErrorCode(release: WalletApplet.Pass.Release, forced: UInt16?, expected: NFCVASResponse.ErrorCode) async throws {
            let responses = try #require(
                try await Self.read(
                    Self.phone(release, forcedStatus: forced),
                    [NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: nil)]))
            #expect(responses.map(\.status) == [expected])
            #expect(responses[0].vasData.isEmpty)
        }

        @Test func theRawValuesAreTheStatusWords() {
            let pairs: [(NFCVASResponse.ErrorCode, Int)] = [
                (.success, 0x9000), (.dataNotFound, 0x6A83), (.dataNotActivated, 0x6287), (.wrongParameters, 0x6B00),
                (.wrongLCField, 0x6700), (.userIntervention, 0x6984), (.incorrectData, 0x6A80), (.unsupportedApplicationVersion, 0x6340),
            ]
            for (code, raw) in pairs { #expect(code.rawValue == raw) }
            #expect(NFCVASCommandConfiguration.Mode.urlOnly.rawValue == 0 && NFCVASCommandConfiguration.Mode.normal.rawValue == 1)
        }

        @Test func refusals() async throws {
            let bench = await SessionBench([])
            let long = URL(string: "https://example.com/" + String(repeating: "a", count: 60))
            let cases: [([NFCVASCommandConfiguration], NFCReaderError.Code)] = [
                ([], .readerErrorInvalidParameter),
                ([NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: "", url: nil)], .readerErrorInvalidParameter),
                (
                    [NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: Self.loyalty, url: long)],
                    .readerErrorInvalidParameterLength
                ),
            ]
            for (configurations, code) in cases {
                let delegate = VASReaderDelegate()
                let session = NFCVASReaderSession(vasCommandConfigurations: configurations, delegate: delegate, queue: nil)
                session.begin()
                guard case .invalidated(let ended)? = await delegate.log.next(), let error = ended as? NFCReaderError else {
                    Issue.record("expected the session to end")
                    continue
                }
                #expect(error.code == code)
            }
            _ = bench
        }
    }
}
