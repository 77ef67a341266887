import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// Core NFC's card emulation (`CardSession`, iOS 17.4) against a simulated terminal: the event
/// order of Apple's `CardSession` overview, routing by the Info.plist's AID prefixes, and every
/// error an app can meet.
extension SessionTests {
    @Suite struct CardSessionTests {
        /// The app's AID (ICAO's eMRTD application, as a stand-in for any proprietary one) and
        /// a SELECT of it.
        static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
        static func select(_ aid: [UInt8]) -> [UInt8] { [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00] }

        /// A terminal as the card-emulation front, and an app entitled to emulate with one prefix.
        static func bench(entitled: Bool = true, region: Bool = true) async -> (SessionBench, SimulatedCardTerminal) {
            var configuration = SessionBench.appConfiguration
            configuration.cardEmulationEntitled = entitled
            configuration.cardEmulationPrefixValues = ["A000000247"]
            let bench = await SessionBench([], configuration: configuration)
            let terminal = SimulatedCardTerminal()
            NFCSessionEnvironment.shared.cardEmulationFront = terminal
            NFCSessionEnvironment.shared.isInEligibleRegion = region
            return (bench, terminal)
        }

        /// Answers every APDU for the app: `9000` after the SELECT, the command's INS echoed after
        /// that; records the events in `seen` as they come.
        static func serve(_ session: CardSession, _ seen: Guarded<[String]> = Guarded([])) -> Task<[String], Never> {
            Task {
                do {
                    for try await event in session.eventStream {
                        switch event {
                        case .sessionStarted: seen.withLock { $0.append("started") }
                        case .readerDetected: seen.withLock { $0.append("detected") }
                        case .readerDeselected: seen.withLock { $0.append("deselected") }
                        case .received(let apdu):
                            seen.withLock { $0.append("apdu \(apdu.payload[1])") }
                            let answer: [UInt8] = apdu.payload[1] == 0xA4 ? [0x90, 0x00] : [apdu.payload[1], 0x90, 0x00]
                            try? await apdu.respond(response: Data(answer))
                        case .sessionInvalidated(let reason): seen.withLock { $0.append("invalidated \(reason)") }
                        }
                    }
                } catch {
                    seen.withLock { $0.append("error \(error)") }
                }
                return seen.withLock { $0 }
            }
        }

        @Test func aReaderTalksToTheAppThroughItsPrefix() async throws {
            let (bench, terminal) = await Self.bench()
            #expect(CardSession.isSupported)
            #expect(await CardSession.isEligible)
            let session = try await CardSession()
            let seen = Guarded<[String]>([])
            let app = Self.serve(session, seen)
            await terminal.tap()
            // Before emulation starts, the reader finds no card.
            await #expect(throws: TransportError.self) { try await terminal.send(Self.select(Self.aid)) }
            try await session.startEmulation()
            #expect(await session.isEmulationInProgress)
            // A command before any SELECT, and a SELECT of another AID: the system answers 6A82.
            #expect(try await terminal.send([0x00, 0xB0, 0x00, 0x00, 0x00]) == [0x6A, 0x82])
            #expect(try await terminal.send(Self.select([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])) == [0x6A, 0x82])
            // The app's AID (matching its prefix) and what follows reach the app.
            #expect(try await terminal.send(Self.select(Self.aid)) == [0x90, 0x00])
            #expect(try await terminal.send([0x00, 0xB0, 0x00, 0x00, 0x00]) == [0xB0, 0x90, 0x00])
            // Another AID selected: the app is deselected, the system answers.
            #expect(try await terminal.send(Self.select([0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10])) == [0x6A, 0x82])
            #expect(try await terminal.send([0x00, 0xB0, 0x00, 0x00, 0x00]) == [0x6A, 0x82])
            await terminal.remove()
            while seen.withLock({ $0.count }) < 6 { await Task.yield() }  // the removal's event
            await session.stopEmulation(status: .success)
            #expect(!(await session.isEmulationInProgress))
            session.invalidate()
            let events = await app.value
            #expect(
                events == [
                    "started", "detected", "apdu 164", "apdu 176", "deselected", "deselected", "invalidated userInvalidated",
                ])
            // An ended session cannot emulate again.
            await #expect(throws: CardSession.Error.invalidated) { try await session.startEmulation() }
            _ = bench
        }

        @Test func anAPDUIsAnsweredOnceAndNeedsAStatusWord() async throws {
            let (bench, terminal) = await Self.bench()
            let session = try await CardSession()
            try await session.startEmulation()
            await terminal.tap()
            let reader = Task { try await terminal.send(Self.select(Self.aid)) }
            var apdu: CardSession.APDU?
            for try await event in session.eventStream {
                if case .received(let received) = event {
                    apdu = received
                    break
                }
            }
            let received = try #require(apdu)
            #expect(received.payload == Data(Self.select(Self.aid)))
            #expect(received.debugDescription == "APDU(00A4040007A000000247100100)")
            await #expect(throws: CardSession.Error.transmissionError) { try await received.respond(response: Data([0x90])) }
            try await received.respond(response: Data([0x62, 0x83]))
            #expect(try await reader.value == [0x62, 0x83])
            await #expect(throws: CardSession.Error.transmissionError) { try await received.respond(response: Data([0x90, 0x00])) }
            session.invalidate()
            _ = bench
        }

        @Test func emulationEndsAtItsMaximumDuration() async throws {
            let (bench, terminal) = await Self.bench()
            let session = try await CardSession()
            let app = Self.serve(session)
            try await session.startEmulation()
            while bench.clock.sleeperCount == 0 { await Task.yield() }
            bench.clock.advance(by: NFCSessionEnvironment.shared.sessionLifetime)
            let seen = await app.value
            #expect(seen.last == "invalidated maxSessionDurationReached")
            // The front was let go: the terminal finds no card.
            await terminal.tap()
            await #expect(throws: TransportError.self) { try await terminal.send(Self.select(Self.aid)) }
        }

        @Test func theRulesBeforeASessionStarts() async throws {
            do {
                let (bench, _) = await Self.bench(entitled: false)
                await #expect(throws: CardSession.Error.accessNotAccepted) { _ = try await CardSession() }
                await #expect(throws: NFCPresentmentIntentAssertion.Error.systemNotAvailable) {
                    _ = try await NFCPresentmentIntentAssertion.acquire()
                }
                _ = bench
            }
            do {
                let (bench, _) = await Self.bench(region: false)
                #expect(!(await CardSession.isEligible))
                await #expect(throws: CardSession.Error.systemEligibilityFailed) { _ = try await CardSession() }
                await #expect(throws: NFCPresentmentIntentAssertion.Error.systemEligibilityFailed) {
                    _ = try await NFCPresentmentIntentAssertion.acquire()
                }
                _ = bench
            }
            do {
                let (bench, _) = await Self.bench()
                let first = try await CardSession()
                await #expect(throws: CardSession.Error.systemNotAvailable) { _ = try await CardSession() }
                first.invalidate()
                let second = try await CardSession()  // the slot is free again
                second.invalidate()
                NFCSessionEnvironment.shared.cardEmulationFront = nil
                #expect(!CardSession.isSupported)
                await #expect(throws: CardSession.Error.systemNotAvailable) { _ = try await CardSession() }
                _ = bench
            }
        }

        /// The DocC article's card-emulation example ("Testing Core NFC code without a phone"), kept true.
        @Test func theArticleExampleRuns() async throws {
            let bench = await SessionBench([])
            var configuration = NFCAppConfiguration(usageDescription: "Pays at the till.")
            configuration.cardEmulationEntitled = true
            configuration.cardEmulationPrefixValues = ["A000000247"]
            NFCSessionEnvironment.shared.appConfiguration = configuration
            let terminal = SimulatedCardTerminal()
            NFCSessionEnvironment.shared.cardEmulationFront = terminal

            let session = try await CardSession()
            Task {
                for try await event in session.eventStream {
                    if case .received(let apdu) = event { try await apdu.respond(response: Data([0x90, 0x00])) }
                }
            }
            try await session.startEmulation()
            await terminal.tap()
            let answer = try await terminal.send([0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01, 0x00])
            #expect(answer == [0x90, 0x00])
            #expect(try await terminal.send(Self.select([0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10])) == [0x6A, 0x82])
            session.invalidate()
            _ = bench
        }

        @Test func aPresentmentAssertionLastsFifteenSeconds() async throws {
            let (bench, _) = await Self.bench()
            let assertion = try await NFCPresentmentIntentAssertion.acquire()
            #expect(assertion.isValid)
            while bench.clock.sleeperCount == 0 { await Task.yield() }
            bench.clock.advance(by: .seconds(14))
            #expect(assertion.isValid)
            bench.clock.advance(by: .seconds(1))
            while assertion.isValid { await Task.yield() }
            #expect(!assertion.isValid)
        }
    }
}
