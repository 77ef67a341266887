import Foundation
import NFCBytes
import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

/// The driver against a real pcscd, the card emulated in process through vpcd.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: LivePCSC.shouldRun, Comment(rawValue: LivePCSC.skipReason)))
struct LiveDriverTests {
    let driver = PCSCDriver(readerFilter: LivePCSC.Slot.second.reader)

    init() throws {
        if let reason = LivePCSC.unavailableReason {
            Issue.record("OPENCORENFC_REQUIRE_PCSCD=1 but \(reason)")
        }
    }

    /// Waits, on the driver's own event stream, for the next event matching `wanted`.
    static func next(_ events: inout AsyncStream<ReaderEvent>.Iterator, _ wanted: (ReaderEvent) -> Bool) async -> ReaderEvent? {
        while let event = await events.next() {
            if wanted(event) { return event }
        }
        return nil
    }

    /// Serves `tag`, hands its target to `body` once the driver reports it, then takes the card
    /// away and waits until pcscd has seen it go (the next card must not pass for this one).
    func withCard(
        _ tag: any VirtualTag, basicReader: Bool = false, removeAfter: Int? = nil,
        _ body: (TargetInfo, LiveCard) async throws -> Void
    ) async throws {
        var events = await driver.events(matching: .all).makeAsyncIterator()
        let card = LiveCard(tag, basicReader: basicReader, removeAfter: removeAfter)
        guard case .targetArrived(let target)? = await Self.next(&events, Self.arrived) else {
            card.stop()
            Issue.record("the card never arrived")
            return
        }
        do {
            try await body(target, card)
        } catch {
            card.stop()
            _ = await Self.next(&events, Self.left)
            throw error
        }
        card.stop()
        let departure = await Self.next(&events, Self.left)
        #expect(departure == .targetLeft(target))
    }

    static func arrived(_ event: ReaderEvent) -> Bool {
        if case .targetArrived = event { return true }
        return false
    }

    static func left(_ event: ReaderEvent) -> Bool {
        if case .targetLeft = event { return true }
        return false
    }

    @Test(
        "each emulated tag kind arrives, is identified from its ATR and GET DATA, and leaves",
        arguments: [
            VirtualTagKind.ntag216, .ultralight, .type4, .slix2, .iso15693_2k, .felicaLiteS, .felica,
        ])
    func identification(kind: VirtualTagKind) async throws {
        let tag = try kind.make()
        var events = await driver.events(matching: .all).makeAsyncIterator()
        let card = LiveCard(tag)
        guard case .targetArrived(let target)? = await Self.next(&events, Self.arrived) else {
            card.stop()
            Issue.record("no arrival")
            return
        }
        #expect(target.identifier == tag.identifier)
        #expect(target.technology == tag.technology)
        #expect(target.speaksISODEP == tag.speaksISODEP)
        if case .felica(let felica) = target.parameters, case .felica(let expected) = tag.parameters {
            #expect(felica.pmm == expected.pmm, "PMm from Polling in a transparent session")
        }
        let connection = try await driver.connect(to: target, meter: AirTimeMeter())
        #expect(connection.limits.nativeCommands == .all, "the emulated reader has a transparent session")
        await connection.disconnect()
        card.stop()
        let departure = await Self.next(&events, Self.left)
        #expect(departure == .targetLeft(target))
    }

    @Test(
        "an NDEF message written through the tag engines reads back",
        arguments: [
            (VirtualTagKind.ntag216, false), (.ntag216, true), (.slix2, false), (.slix2, true), (.type4, false), (.felicaLiteS, false),
        ])
    func ndefRoundTrip(kind: VirtualTagKind, basicReader: Bool) async throws {
        try await withCard(try kind.make(), basicReader: basicReader) { target, _ in
            let connection = try await driver.connect(to: target, meter: AirTimeMeter())
            let expected: ExchangeLimits.NativeCommands = basicReader ? .readAndWriteOnly(readLength: kind == .slix2 ? 4 : 16) : .all
            #expect(connection.limits.nativeCommands == expected)
            let engine = TagEngines.engine(for: TagFamily(target))
            let message = hexBytes("d1010b5402656e7063736320746167")  // Text "pcsc tag"
            try await engine.writeNDEF(message, on: connection)
            let read = try await engine.readNDEF(on: connection)
            #expect(read.message == message)
            await connection.disconnect()
        }
    }

    @Test("a tag that leaves mid-command is tagLost, not a transmission error")
    func removalIsTagLost() async throws {
        try await withCard(try VirtualTagKind.ntag216.make(), removeAfter: 8) { target, card in
            let connection = try await driver.connect(to: target, meter: AirTimeMeter())
            var reads = 0
            var failure: TransportError?
            for _ in 0..<12 {
                do {
                    _ = try await connection.transceive([0x30, 0x04], timeout: .milliseconds(50))
                    reads += 1
                } catch let error as TransportError {
                    failure = error
                    break
                } catch {
                    Issue.record(error)
                    break
                }
            }
            #expect(reads > 0 && reads < 8)
            #expect(failure?.code == .tagLost, "got \(String(describing: failure))")
            await connection.disconnect()
            card.stop()  // its thread records the removal after closing vpcd's socket: wait for it
            #expect(card.wasRemoved)
        }
    }

    @Test("an ISO 7816 card's APDUs pass through")
    func apduPassThrough() async throws {
        try await withCard(try VirtualTagKind.type4.make()) { target, _ in
            let connection = try await driver.connect(to: target, meter: AirTimeMeter())
            let select = try await connection.transceive(hexBytes("00a4040007d276000085010100"), timeout: .seconds(1))
            #expect(select.suffix(2) == [0x90, 0x00])
            let unknown = try await connection.transceive(hexBytes("00a4040007a000000000000100"), timeout: .seconds(1))
            #expect(unknown.suffix(2) == [0x6A, 0x82])
            await connection.disconnect()
        }
    }

    @Test(
        "the event monitor survives pcscd restarting",
        .enabled(if: ProcessInfo.processInfo.environment["PCSCD_CONTROL"] != nil, "PCSCD_CONTROL is not set: the tests do not own pcscd"))
    func survivesPCSCDRestart() async throws {
        let control = try #require(ProcessInfo.processInfo.environment["PCSCD_CONTROL"])
        let card = LiveCard(try VirtualTagKind.ntag216.make())
        defer { card.stop() }
        var events = await driver.events(matching: .all).makeAsyncIterator()
        guard case .targetArrived? = await Self.next(&events, Self.arrived) else {
            Issue.record("no arrival")
            return
        }
        #expect(LivePCSC.run(control, ["restart"]) == 0)
        // The card reconnects to the new pcscd; the monitor reconnects too and sees it again.
        guard case .targetArrived(let again)? = await Self.next(&events, Self.arrived) else {
            Issue.record("no arrival after the restart")
            return
        }
        let connection = try await driver.connect(to: again, meter: AirTimeMeter())
        let page = try await connection.transceive([0x30, 0x00], timeout: .milliseconds(50))
        #expect(page.count == 16)
        await connection.disconnect()
    }
}
