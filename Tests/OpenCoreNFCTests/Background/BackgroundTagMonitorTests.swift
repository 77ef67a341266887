import Foundation
import NDEF
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

@testable import OpenCoreNFC

/// Background reading on a simulated reader: taps, tags held, removals, unreadable tags.
@Suite("Background tag reading: monitor")
struct BackgroundTagMonitorTests {
    static let reader = NFCBackgroundTagReader()

    /// A tag of `kind` holding `uri` (written through the engines, as a phone would have).
    static func tag(_ kind: VirtualTagKind, uri: String?, uid: [UInt8]? = nil) async throws -> any VirtualTag {
        let field = SimulatedField()
        let id = await field.place(try kind.make(identifier: uid))
        if let uri {
            let target = try await field.targets(matching: .all)[0]
            let connection = try await field.connect(to: target, meter: AirTimeMeter())
            let bytes = try NDEFMessage(try URIRecord(uri: uri).record()).encoded()
            try await TagEngines.engine(for: TagFamily(target)).writeNDEF(bytes, on: connection)
            await connection.disconnect()
        }
        return try #require(await field.remove(id))
    }

    /// Collects events until `count` have arrived.
    struct Collector {
        var iterator: AsyncStream<NFCBackgroundTagEvent>.AsyncIterator
        init(_ monitor: NFCBackgroundTagMonitor) { iterator = monitor.events().makeAsyncIterator() }
        mutating func next() async throws -> NFCBackgroundTagEvent { try #require(await iterator.next()) }
    }

    @Test(arguments: [VirtualTagKind.ntag215, .type4, .slix2, .felicaLiteS, .iso15693_2k, .felica])
    func tapOnEveryTagType(kind: VirtualTagKind) async throws {
        let field = SimulatedField()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { .idle }))
        await field.place(try await Self.tag(kind, uri: "tel:+15550100"))
        guard case .tapped(let tap) = try await events.next() else {
            Issue.record("no tap")
            return
        }
        #expect(tap.reader == "sim")
        #expect(tap.dispatch.outcome == .delivered(.system(.phone)))
    }

    @Test("A held tag is one tap; taking it away and back is a second")
    func holdsAndRetaps() async throws {
        let field = SimulatedField()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { .idle }))
        let first = await field.place(try await Self.tag(.ntag213, uri: "https://example.org/1"))
        guard case .tapped(let tap) = try await events.next() else {
            Issue.record("no first tap")
            return
        }
        #expect(tap.dispatch.url?.absoluteString == "https://example.org/1")
        // The first tag stays; a second arrives. The next event is the second tag, not a repeat.
        let second = await field.place(try await Self.tag(.ntag215, uri: "mailto:a@example.org", uid: [0x04, 1, 2, 3, 4, 5, 6]))
        guard case .tapped(let next) = try await events.next() else {
            Issue.record("no second tap")
            return
        }
        #expect(next.dispatch.outcome == .delivered(.system(.mail)))
        _ = await field.remove(first)
        guard case .left(_, let target) = try await events.next() else {
            Issue.record("no departure")
            return
        }
        #expect(target.identifier == tap.target.identifier)
        #expect(await field.reinsert(first))
        guard case .tapped(let again) = try await events.next() else {
            Issue.record("no re-tap")
            return
        }
        #expect(again.target.identifier == tap.target.identifier)
        _ = await field.remove(second)
        guard case .left(_, let gone) = try await events.next() else {
            Issue.record("no second departure")
            return
        }
        #expect(gone.identifier == next.target.identifier)
    }

    @Test func emptyAndUnformattedTags() async throws {
        let field = SimulatedField()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { .idle }))
        await field.place(try await Self.tag(.ntag215, uri: nil))
        guard case .tapped(let empty) = try await events.next() else {
            Issue.record("no tap")
            return
        }
        #expect(empty.dispatch.outcome == .notDelivered(.noMessage))
        await field.removeAll()
        _ = try await events.next()
        await field.place(try VirtualTagKind.ntag215.make(blank: true))
        guard case .readFailed(_, _, let reason) = try await events.next() else {
            Issue.record("a blank tag cannot be read")
            return
        }
        #expect(reason.contains("cannot read NDEF"))
    }

    @Test("A tag pulled away mid-read is a failed read, and the monitor goes on")
    func removedMidRead() async throws {
        let field = SimulatedField()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { .idle }))
        let id = await field.place(try await Self.tag(.ntag216, uri: "https://example.org/" + String(repeating: "x", count: 300)))
        await field.inject(.removeAfterCommands(2), into: id)
        guard case .readFailed = try await events.next() else {
            Issue.record("expected a failed read")
            return
        }
        guard case .left = try await events.next() else {
            Issue.record("expected the departure")
            return
        }
        await field.place(try await Self.tag(.ntag213, uri: "sms:+1555"))
        guard case .tapped(let tap) = try await events.next() else {
            Issue.record("the monitor stopped")
            return
        }
        #expect(tap.dispatch.outcome == .delivered(.system(.messages)))
    }

    @Test func malformedMessageIsReported() async throws {
        let field = SimulatedField()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { .idle }))
        let scratch = SimulatedField()
        let id = await scratch.place(try VirtualTagKind.ntag213.make())
        let target = try await scratch.targets(matching: .all)[0]
        let connection = try await scratch.connect(to: target, meter: AirTimeMeter())
        // A record header claiming more payload than the message holds.
        try await TagEngines.engine(for: .type2).writeNDEF([0xD1, 0x01, 0x20, 0x55, 0x00, 0x61], on: connection)
        await connection.disconnect()
        let written = try #require(await scratch.remove(id))
        await field.place(written)
        guard case .readFailed(_, _, let reason) = try await events.next() else {
            Issue.record("expected a failed read")
            return
        }
        #expect(reason.contains("malformed NDEF"))
    }

    @Test func deviceStateIsReadAtEachTap() async throws {
        let field = SimulatedField()
        let locked = LockedFlag()
        var events = Collector(NFCBackgroundTagMonitor(driver: field, reader: Self.reader, state: { locked.value ? .locked : .idle }))
        let id = await field.place(try await Self.tag(.ntag213, uri: "tel:1"))
        guard case .tapped(let open) = try await events.next() else {
            Issue.record("no tap")
            return
        }
        #expect(open.dispatch.outcome == .delivered(.system(.phone)))
        locked.value = true
        _ = await field.remove(id)
        _ = try await events.next()
        _ = await field.reinsert(id)
        guard case .tapped(let later) = try await events.next() else {
            Issue.record("no tap")
            return
        }
        #expect(later.dispatch.outcome == .awaitingUnlock(.system(.phone)))
    }
}

/// A flag the test flips between taps.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
