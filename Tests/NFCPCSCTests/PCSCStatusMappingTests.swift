import Foundation
import NFCTransport
import Testing

@testable import NFCPCSC

/// What a user sees when pcscd or a reader goes away, or a card does: each PC/SC return code
/// becomes a typed `TransportError` whose code says which, with the PC/SC name in the reason.
@Suite struct PCSCStatusMappingTests {
    @Test(
        "pcscd gone, readers gone, cards gone: each PC/SC code maps to its TransportError code",
        arguments: [
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
            (.unpoweredCard, .tagLost),
            (.cancelled, .cancelled),
            (.systemCancelled, .cancelled),
            (.unsupportedCard, .unsupportedCommand),
            (.protocolMismatch, .unsupportedCommand),
            (.insufficientBuffer, .transmission),
            (.notReady, .transmission),
            (.notTransacted, .transmission),
            (.communicationDataLost, .transmission),
        ])
    func mapping(status: PCSCStatus, code: TransportError.Code) {
        let error = status.transportError("transmitting")
        #expect(error.code == code)
        #expect(error.description.contains("transmitting"))
        #expect(error.description.contains(status.name) || status.name.hasPrefix("0x"))
    }

    /// pcsc-lite's `pcsclite.h` values, typed out: every code the library names carries its own.
    @Test(
        "each named PC/SC code has the value pcsclite.h gives it",
        arguments: [
            (UInt32(0x8010_0002), "SCARD_E_CANCELLED"), (0x8010_0003, "SCARD_E_INVALID_HANDLE"),
            (0x8010_0008, "SCARD_E_INSUFFICIENT_BUFFER"), (0x8010_0009, "SCARD_E_UNKNOWN_READER"),
            (0x8010_000A, "SCARD_E_TIMEOUT"), (0x8010_000B, "SCARD_E_SHARING_VIOLATION"),
            (0x8010_000C, "SCARD_E_NO_SMARTCARD"), (0x8010_000F, "SCARD_E_PROTO_MISMATCH"),
            (0x8010_0010, "SCARD_E_NOT_READY"), (0x8010_0012, "SCARD_E_SYSTEM_CANCELLED"),
            (0x8010_0013, "SCARD_F_COMM_ERROR"), (0x8010_0014, "SCARD_F_UNKNOWN_ERROR"),
            (0x8010_0016, "SCARD_E_NOT_TRANSACTED"), (0x8010_0017, "SCARD_E_READER_UNAVAILABLE"),
            (0x8010_001D, "SCARD_E_NO_SERVICE"), (0x8010_001E, "SCARD_E_SERVICE_STOPPED"),
            (0x8010_002E, "SCARD_E_NO_READERS_AVAILABLE"), (0x8010_002F, "SCARD_E_COMM_DATA_LOST"),
            (0x8010_0065, "SCARD_W_UNSUPPORTED_CARD"), (0x8010_0066, "SCARD_W_UNRESPONSIVE_CARD"),
            (0x8010_0067, "SCARD_W_UNPOWERED_CARD"), (0x8010_0068, "SCARD_W_RESET_CARD"),
            (0x8010_0069, "SCARD_W_REMOVED_CARD"),
        ])
    func namesMatchPCSCLite(value: UInt32, name: String) {
        #expect(PCSCStatus(rawValue: value).name == name)
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
