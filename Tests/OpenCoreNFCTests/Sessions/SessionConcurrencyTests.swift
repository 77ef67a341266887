import Dispatch
import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// Sessions driven from many tasks at once: the one-session rule holds under contention, and no
/// delegate call or completion handler is lost or doubled when a session ends, or a tag leaves,
/// in the middle of work.
extension SessionTests {
    @Suite struct SessionConcurrencyTests {
        /// Counts every delegate call by kind.
        final class CountingDelegate: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
            struct Counts { var active = 0, tags = 0, invalidated: [NFCReaderError.Code?] = [], order: [String] = [] }
            let counts = Guarded(Counts())
            let log = EventLog()
            func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
                counts.withLock {
                    $0.active += 1
                    $0.order.append("active")
                }
                log.record(.becameActive)
            }
            func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
                counts.withLock { $0.tags += 1 }
                log.record(.tags(tags))
            }
            func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
                counts.withLock {
                    $0.invalidated.append((error as? NFCReaderError)?.code)
                    $0.order.append("invalidated")
                }
                log.record(.invalidated(error))
            }
        }

        /// Waits until everything queued on `queue` so far has run (no timing involved).
        static func drain(_ queue: DispatchQueue) async {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
        }

        @Test("of 24 sessions begun at once from 24 tasks exactly one wins; the rest end busy, each told once")
        func concurrentBeginOneWins() async throws {
            let bench = await SessionBench([])
            let queue = DispatchQueue(label: "concurrentBegin")
            let delegates = (0..<24).map { _ in CountingDelegate() }
            let sessions = try delegates.map { try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: $0, queue: queue)) }
            await withTaskGroup(of: Void.self) { group in
                for session in sessions { group.addTask { session.begin() } }
            }
            // Every session says something first: became active, or ended busy.
            var winners: [Int] = []
            for (index, delegate) in delegates.enumerated() {
                switch await delegate.log.next() {
                case .becameActive?: winners.append(index)
                case .invalidated(let error)?:
                    #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorSystemIsBusy)
                default: Issue.record("session \(index) said nothing")
                }
            }
            try #require(winners.count == 1, "winners: \(winners)")
            let winner = winners[0]
            #expect(sessions[winner].isReady)
            #expect(sessions.enumerated().filter { $0.offset != winner }.allSatisfy { !$0.element.isReady })
            sessions[winner].invalidate()
            #expect(await delegates[winner].log.next()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            await Self.drain(queue)
            for (index, delegate) in delegates.enumerated() {
                let counts = delegate.counts.withLock { $0 }
                #expect(counts.invalidated.count == 1, "session \(index) ended \(counts.invalidated.count) times")
                #expect(counts.active == (index == winner ? 1 : 0))
            }
            _ = bench
        }

        @Test("invalidate and begin from many tasks at once: each session ends exactly once, the reader is released")
        func beginAndInvalidateRacing() async throws {
            let bench = await SessionBench([])
            let queue = DispatchQueue(label: "beginInvalidate")
            for round in 0..<50 {
                let delegates = (0..<4).map { _ in CountingDelegate() }
                let sessions = try delegates.map { try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: $0, queue: queue)) }
                await withTaskGroup(of: Void.self) { group in
                    for session in sessions {
                        group.addTask { session.begin() }
                        group.addTask { session.invalidate() }
                    }
                }
                // Invalidate once more from here: it must change nothing, every session has ended.
                for session in sessions { session.invalidate() }
                await Self.drain(queue)
                for (index, delegate) in delegates.enumerated() {
                    let counts = delegate.counts.withLock { $0 }
                    #expect(counts.invalidated.count == 1, "round \(round), session \(index) ended \(counts.invalidated.count) times")
                    // "Became active" (if at all) comes before "invalidated", never after it.
                    #expect(
                        counts.order == ["invalidated"] || counts.order == ["active", "invalidated"],
                        "round \(round), session \(index): \(counts.order)")
                    #expect(!sessions[index].isReady)
                }
                // The reader is free again.
                let next = CountingDelegate()
                let probe = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: next, queue: queue))
                probe.begin()
                guard case .becameActive? = await next.log.next() else {
                    Issue.record("round \(round): the reader was not released")
                    return
                }
                probe.invalidate()
                _ = await next.log.next()
            }
            _ = bench
        }

        @Test("invalidate during commands: every completion handler is called exactly once, with a result or a session error")
        func invalidateDuringCommands() async throws {
            let bench = await SessionBench([try VirtualTagKind.type4.make()])
            let queue = DispatchQueue(label: "invalidateDuringCommands")
            let delegate = CountingDelegate()
            guard let (session, card) = try await connectedCard(delegate, queue: queue) else { return }
            let select = try #require(
                NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])))
            let commands = 64
            struct Outcomes { var calls: [Int] = Array(repeating: 0, count: 64), ok = 0, failed: [NFCReaderError.Code?] = [] }
            let outcomes = Guarded(Outcomes())
            let allCalled = AsyncStream<Void>.makeStream()
            for index in 0..<commands {
                card.sendCommand(apdu: select) { _, sw1, sw2, error in
                    let done = outcomes.withLock { o -> Bool in
                        o.calls[index] += 1
                        if let error { o.failed.append((error as? NFCReaderError)?.code) } else if sw1 == 0x90, sw2 == 0x00 { o.ok += 1 }
                        return o.calls.allSatisfy { $0 > 0 }
                    }
                    if done { allCalled.continuation.yield() }
                }
                if index == commands / 2 { session.invalidate() }
            }
            var iterator = allCalled.stream.makeAsyncIterator()
            await iterator.next()
            await Self.drain(queue)
            let result = outcomes.withLock { $0 }
            #expect(result.calls.allSatisfy { $0 == 1 }, "calls per command: \(result.calls)")
            #expect(result.ok + result.failed.count == commands)
            // Those that failed name the session's end, never a transport detail.
            let allowed: Set<NFCReaderError.Code?> = [.readerTransceiveErrorSessionInvalidated, .readerTransceiveErrorTagNotConnected]
            #expect(result.failed.allSatisfy { allowed.contains($0) }, "codes: \(result.failed)")
            #expect(result.failed.count > 0, "invalidate in the middle stopped no command")
            #expect(delegate.counts.withLock { $0.invalidated } == [.readerSessionInvalidationErrorUserCanceled])
            _ = bench
        }

        @Test("tag removal racing connect: connect either succeeds or throws a typed error, and never hangs")
        func removalDuringConnect() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag215.make()])
            let id = try #require(await bench.field.tagIDs.first)
            let delegate = CountingDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            _ = await delegate.log.next()
            var connected = 0
            var lost = 0
            for round in 0..<40 {
                guard case .tags(let tags)? = await delegate.log.next(), let tag = tags.first else {
                    Issue.record("round \(round): no tag")
                    return
                }
                let field = bench.field
                async let removal = field.remove(id)
                do {
                    try await session.connect(to: tag)
                    connected += 1
                } catch let error as NFCReaderError {
                    lost += 1
                    let allowed: Set<NFCReaderError.Code> = [
                        .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagNotConnected,
                        .readerTransceiveErrorTagResponseError,
                    ]
                    #expect(allowed.contains(error.code), "round \(round): \(error.code)")
                }
                _ = await removal
                // Whatever connect said, the tag has left: using it now fails with a typed error.
                if case .miFare(let mifare) = tag {
                    await #expect(throws: NFCReaderError.self) { try await mifare.queryNDEFStatus() }
                }
                #expect(await field.reinsert(id))
                session.restartPolling()
            }
            #expect(connected + lost == 40)
            // The last restartPolling() finds the reinserted tag again; that detection is reported
            // before the session is invalidated (Apple orders delegate calls the same way), so it is
            // awaited first rather than raced against invalidate().
            guard case .tags? = await delegate.log.next() else {
                Issue.record("the reinserted tag was not detected after the last restartPolling()")
                return
            }
            session.invalidate()
            #expect(await delegate.log.nextSignificant()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            _ = bench
        }

        @Test("32 tasks send APDUs on one connected card at once: each gets its own whole answer")
        func manyTasksOnOneTag() async throws {
            // The Info.plist lists both AIDs (a SELECT of an undeclared AID never reaches the card).
            var plist = SessionBench.appConfiguration
            plist.iso7816SelectIdentifierValues = ["D2760000850101", "A0000000000001"]
            let bench = await SessionBench([try VirtualTagKind.type4.make()], configuration: plist)
            let delegate = CountingDelegate()
            guard let (session, card) = try await connectedCard(delegate, queue: nil) else { return }
            // Even tasks SELECT the NDEF application (9000), odd ones an AID the card lacks (6A82).
            let known = try #require(
                NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])))
            let unknown = try #require(
                NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00])))
            // Core NFC's tag protocols are not Sendable; the object behind them is (its state is
            // the session's, under the session's lock).
            struct SharedCard: @unchecked Sendable { let card: any NFCISO7816Tag }
            let shared = SharedCard(card: card)
            let answers = try await withThrowingTaskGroup(of: (Int, UInt8, UInt8).self) { group in
                for index in 0..<32 {
                    group.addTask {
                        let (_, sw1, sw2) = try await shared.card.sendCommand(apdu: index % 2 == 0 ? known : unknown)
                        return (index, sw1, sw2)
                    }
                }
                return try await group.reduce(into: [(Int, UInt8, UInt8)]()) { $0.append($1) }
            }
            #expect(answers.count == 32)
            for (index, sw1, sw2) in answers {
                if index % 2 == 0 {
                    #expect(sw1 == 0x90 && sw2 == 0x00, "task \(index)")
                } else {
                    #expect(sw1 == 0x6A && sw2 == 0x82, "task \(index)")
                }
            }
            session.invalidate()
            #expect(await delegate.log.nextSignificant()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            _ = bench
        }

        /// A tag reader session begun on `queue` and connected to the ISO 7816 card it found; nil
        /// (with an issue recorded) when it found none.
        func connectedCard(_ delegate: CountingDelegate, queue: DispatchQueue?) async throws -> (NFCTagReaderSession, any NFCISO7816Tag)? {
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: queue))
            session.begin()
            _ = await delegate.log.next()
            guard case .tags(let tags)? = await delegate.log.next(), case .iso7816(let card)? = tags.first else {
                Issue.record("expected an ISO 7816 tag")
                return nil
            }
            try await session.connect(to: tags[0])
            return (session, card)
        }
    }
}
