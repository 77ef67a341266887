import Foundation
import NFCTransport
import Testing
@testable import NFCPCSC

/// What a user sees when pcscd or a reader goes away, or a card does: each PC/SC return code
/// becomes a typed `TransportError` whose code says which, with the PC/SC name in the reason.
@Suite struct PCSCStatusMappingTests {
    @Test("pcscd gone, readers gone, cards gone: each PC/SC code maps to its TransportError code", arguments: [
        (PCSCStatus.noService, TransportError.Code.serviceUnavailable),
        (.serviceStopped, .serviceUnavailable),
        (.communicationError, .serviceUnavailable),
        (.noReadersAvailable, .readerRemoved),
        (.readerUnavailable, .readerRemoved),
        (.unknownReader, .noSuchTarget),
        (.removedCard, .tagLost),
        (.noSmartcard, .tagLost),
        (.unresponsiveCard, .tagLost),
        (.resetCard, .tagLost),
        (.invalidHandle, .tagLost),
        (.sharingViolation, .sharingViolation),
        (.timeout, .timeout),
        (.unknownError, .transmission),
    ])
    func mapping(status: PCSCStatus, code: TransportError.Code) {
        let error = status.transportError("transmitting")
        #expect(error.code == code)
        #expect(error.description.contains("transmitting"))
        #expect(error.description.contains(status.name) || status.name.hasPrefix("0x"))
    }

    @Test("pcscd going away is recognised as such (the context is established again)")
    func serviceGone() {
        for status in [PCSCStatus.noService, .serviceStopped, .communicationError, .invalidHandle] { #expect(status.meansServiceGone) }
        for status in [PCSCStatus.removedCard, .noReadersAvailable, .timeout, .success] { #expect(!status.meansServiceGone) }
    }

    @Test("a code no table knows is still typed and named by its value")
    func unknownCode() {
        let error = PCSCStatus(rawValue: 0x8010_00FE).transportError("connecting")
        #expect(error.code == .transmission)
        #expect(error.description.contains("801000FE"))
    }

    @Test("a reader that is not there (or no pcscd at all): targets() throws a typed error, never hangs or traps")
    func vanishedReader() async {
        let driver = PCSCDriver(readerFilter: "OpenCoreNFC reader that does not exist \(UUID().uuidString)")
        do {
            _ = try await driver.targets(matching: .all)
            Issue.record("a reader that does not exist reported targets")
        } catch {
            // readerRemoved with pcscd running; serviceUnavailable without pcscd or libpcsclite.
            #expect([TransportError.Code.readerRemoved, .serviceUnavailable].contains(error.code), "\(error)")
        }
    }
}
