import NFCTransport
import Testing

@testable import NFCPCSC
@testable import nfc

/// `nfc readers --watch`'s events: what changed between two readings of PC/SC's reader states.
@Suite struct ReaderEventsTests {
    static let atr: [UInt8] = [0x3B, 0x88, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x81, 0x71, 0x00, 0xF9]

    static func reading(_ readers: [(String, [UInt8]?)]) -> Result<[PCSCReaderStatus], TransportError> {
        .success(readers.map { PCSCReaderStatus(name: $0.0, tagPresent: $0.1 != nil, atr: $0.1 ?? []) })
    }

    func kinds(_ events: [ReaderEvents.Event]) -> [String] {
        events.map { "\($0.kind.rawValue) \($0.reader)" }
    }

    @Test func readersAndCardsComeAndGo() {
        var events = ReaderEvents()
        #expect(
            kinds(events.update(Self.reading([("A", nil), ("B", Self.atr)]))) == ["reader-added A", "reader-added B", "card-inserted B"])
        #expect(events.update(Self.reading([("A", nil), ("B", Self.atr)])).isEmpty, "nothing changed")
        #expect(kinds(events.update(Self.reading([("A", Self.atr), ("B", nil)]))) == ["card-inserted A", "card-removed B"])
        #expect(kinds(events.update(Self.reading([("A", [0x3B, 0x00])]))) == ["reader-removed B", "card-removed A", "card-inserted A"])
    }

    @Test func aFailureIsOneProblemAndEveryReaderGoes() {
        var events = ReaderEvents()
        _ = events.update(Self.reading([("A", Self.atr)]))
        let failure: Result<[PCSCReaderStatus], TransportError> = .failure(TransportError(.serviceUnavailable, "pcscd is not running"))
        let first = events.update(failure)
        #expect(kinds(first) == ["problem ", "card-removed A", "reader-removed A"])
        #expect(first.first?.json.serialized() == #"{"event":"problem","reason":"pcscd is not running"}"#)
        #expect(events.update(failure).isEmpty, "the same problem is reported once")
        let back = events.update(Self.reading([("A", Self.atr)]))
        #expect(kinds(back) == ["reader-added A", "card-inserted A"])
        let json = back.last?.json.serialized() ?? ""
        #expect(json.contains(#""atr":"3b8880010000000000817100f9""#) && json.contains(#""kind":"isoDEP""#), "\(json)")
    }
}
