import Foundation
import ISO7816
import NFCBytes
import NFCOATH
import NFCSimulator
import NFCTransport
import Testing

@testable import OpenCoreNFC

/// Everything an authenticator's delegate was told, in order.
final class AuthenticatorEvents: NFCAuthenticatorDelegate {
    enum Event: Sendable, Equatable {
        case connected(NFCAuthenticatorTag)
        case disconnected(NFCAuthenticatorError)
        case restarted(NFCAuthenticatorPollingRestart)
        case ended(NFCAuthenticatorEndReason)
    }

    private let state = Guarded<(events: [Event], waiters: [(Int, UUID, CheckedContinuation<Void, Never>)])>(([], []))

    private func record(_ event: Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let count = state.events.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.2)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    var events: [Event] { state.withLock { $0.events } }

    /// Waits until `count` events arrived, or 30 s of wall time have passed (a lost callback then fails
    /// the test with what did arrive, instead of hanging it); returns them all.
    func wait(for count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Event] {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.events.count >= count { return true }
                state.waiters.append((count, id, continuation))
                return false
            }
            if now { continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [state] in
                let expired = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.1 == id }) else { return nil }
                    return state.waiters.remove(at: index).2
                }
                expired?.resume()
            }
        }
        let arrived = events
        if arrived.count < count {
            Issue.record("waited 30 s for \(count) callbacks, \(arrived.count) arrived: \(arrived)", sourceLocation: sourceLocation)
        }
        return arrived
    }

    func authenticator(_ authenticator: NFCAuthenticator, didConnect tag: NFCAuthenticatorTag) { record(.connected(tag)) }
    func authenticator(_ authenticator: NFCAuthenticator, didDisconnect error: NFCAuthenticatorError) { record(.disconnected(error)) }
    func authenticator(_ authenticator: NFCAuthenticator, didRestartPolling reason: NFCAuthenticatorPollingRestart) {
        record(.restarted(reason))
    }
    func authenticator(_ authenticator: NFCAuthenticator, didEndWith reason: NFCAuthenticatorEndReason) { record(.ended(reason)) }
}

/// `NFCAuthenticator` on the simulator through the real sessions: polling, connecting, the
/// exchanges, ordering, timeouts, tag loss and the session's end, on the simulated clock.
extension SessionTests {
    @Suite struct NFCAuthenticatorTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Signs in with a security key.", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: [ProbeApplet.aidHex, "A0000005272101"]
        )
        static let uidA: [UInt8] = [0x04, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6]
        static let uidB: [UInt8] = [0x04, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6]

        static func log(_ data: [UInt8]) -> CommandAPDU { CommandAPDU(ins: ProbeApplet.Instruction.log, data: data) }

        func bench(_ tags: [any VirtualTag]) async -> SessionBench {
            await SessionBench(tags, configuration: Self.configuration)
        }

        /// The probe applet's log on the field's card with this UID.
        func probeLog(_ bench: SessionBench, uid: [UInt8] = uidA) async -> [[UInt8]]? {
            for id in await bench.field.tagIDs {
                if let card = await bench.field.tag(id, as: ISO7816Card.self), card.uid == uid {
                    return card.applet(ProbeApplet.self)?.log
                }
            }
            return nil
        }

        @Test func oathSessionRunsOverTheAuthenticator() async throws {
            let bench = await bench([try #require(try VirtualTagKind.securityKey.make() as? ISO7816Card)])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            let tag = try await authenticator.connect(alertMessage: "Hold your security key near the reader")
            #expect(authenticator.alertMessage == "Hold your security key near the reader")
            #expect(tag.initialSelectedAID == "A0000005272101")
            #expect(tag.identifier == Data(ISO7816Card.defaultUID))
            #expect(authenticator.connectedTag == tag)

            let oath = try await OATHSession(transmitter: authenticator)
            let seed = Array("12345678901234567890".utf8)
            let hotp = try await oath.put(
                OATHCredentialData(name: OATHCredentialName(issuer: "RFC", account: "4226"), type: .hotp, secret: seed))
            var codes: [String] = []
            for _ in 0..<3 { codes.append(try await oath.calculate(hotp, time: 0).value) }
            #expect(codes == ["755224", "287082", "359152"])
            // Enough credentials that LIST needs SEND REMAINING (61xx answered by the OATH applet).
            for index in 0..<24 {
                try await oath.put(
                    OATHCredentialData(
                        name: OATHCredentialName(issuer: "Issuer \(index)", account: "user\(index)@example.com"), secret: seed))
            }
            #expect(try await oath.list().count == 25)
            let totp = try await oath.put(OATHCredentialData(name: OATHCredentialName(account: "sha1"), secret: seed, digits: 8))
            #expect(try await oath.calculate(totp, time: 59).value == "94287082")

            authenticator.stop()
            #expect(await authenticator.ended() == .stopped)
            #expect(await events.wait(for: 2) == [.connected(tag), .ended(.stopped)])
            #expect(!authenticator.isRunning)
            _ = bench
        }

        @Test func longAnswersWrongLengthAndChainedCommands() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA)])
            let authenticator = NFCAuthenticator(supportsExtendedLength: false)
            authenticator.start()
            let tag = try await authenticator.connected()
            #expect(tag.initialSelectedAID == ProbeApplet.aidHex && tag.identifier == Data(Self.uidA))

            // 300 bytes from a card with a 100-byte buffer: 61C8, then two GET RESPONSE.
            _ = await bench.field.resetStatistics()
            let long = try await authenticator.execute(CommandAPDU(ins: ProbeApplet.Instruction.give, p1: 0x01, p2: 0x2C))
            #expect(long == ResponseAPDU(data: ProbeApplet.pattern(300), statusWord: .success))
            #expect(await bench.field.statistics.commands == 3)
            // Without following GET RESPONSE the first part and 61xx come back as they are.
            let part = try await authenticator.execute(
                CommandAPDU(ins: ProbeApplet.Instruction.give, p1: 0x01, p2: 0x2C), options: APDUExchangeOptions(followGetResponse: false))
            #expect(part.data == ProbeApplet.pattern(100) && part.statusWord == StatusWord(rawValue: 0x61C8))

            // 6C11: the command again with Le = 17.
            _ = await bench.field.resetStatistics()
            let exact = try await authenticator.execute(CommandAPDU(ins: ProbeApplet.Instruction.exact, p2: 17, expectedLength: 256))
            #expect(exact == ResponseAPDU(data: ProbeApplet.pattern(17), statusWord: .success))
            #expect(await bench.field.statistics.commands == 2)

            // 600 data bytes to a card without extended length: a chain of three short APDUs.
            let data = (0..<600).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let sum = data.reduce(0) { ($0 + Int($1)) & 0xFFFF }
            _ = await bench.field.resetStatistics()
            let summed = try await authenticator.execute(CommandAPDU(ins: ProbeApplet.Instruction.sum, data: data))
            #expect(summed.data == [0x02, 0x58, UInt8(sum >> 8), UInt8(sum & 0xFF)])
            #expect(await bench.field.statistics.commands == 3)

            // Core NFC's APDU type, completion form.
            let apdu = NFCISO7816APDU(
                instructionClass: 0, instructionCode: ProbeApplet.Instruction.give, p1Parameter: 0, p2Parameter: 150, data: Data(),
                expectedResponseLength: -1)
            let answer = await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<NFCISO7816ResponseAPDU, any Error>, Never>) in
                authenticator.execute(apdu) { continuation.resume(returning: $0) }
            }
            let response = try answer.get()
            #expect(response.payload == Data(ProbeApplet.pattern(150)) && response.statusWord1 == 0x90 && response.statusWord2 == 0x00)
            authenticator.stop()
        }

        @Test func longCommandsGoExtendedWhenTheCardTakesThem() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA, extendedLength: true)])
            let authenticator = NFCAuthenticator()
            authenticator.start()
            _ = try await authenticator.connected()
            let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
            let sum = data.reduce(0) { ($0 + Int($1)) & 0xFFFF }
            _ = await bench.field.resetStatistics()
            let summed = try await authenticator.execute(CommandAPDU(ins: ProbeApplet.Instruction.sum, data: data, expectedLength: 4))
            #expect(summed.data == [0x03, 0xE8, UInt8(sum >> 8), UInt8(sum & 0xFF)])
            #expect(await bench.field.statistics.commands == 1)
            authenticator.stop()
        }

        @Test func concurrentSubmissionsRunInSubmissionOrder() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA)])
            let authenticator = NFCAuthenticator()
            authenticator.start()
            let results = CompletionLog()
            let numbers = Guarded<[(NFCAuthenticatorCommandID, [UInt8])]>([])
            let record: @Sendable (NFCAuthenticatorCommandID, [UInt8]) -> Void = { id, data in numbers.withLock { $0.append((id, data)) } }
            // Tasks submit before and after the card is connected.
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        for index in 0..<6 {
                            let data: [UInt8] = [UInt8(task), UInt8(index)]
                            let id = authenticator.execute(
                                Self.log(data), timeout: .seconds(5), completion: results.handler("\(task).\(index)"))
                            record(id, data)
                            await Task.yield()
                        }
                    }
                }
            }
            let entries = await results.wait(for: 96)
            #expect(entries.allSatisfy { (try? $0.result.get())?.statusWord == .success })
            let submitted = numbers.withLock { $0 }.sorted { $0.0 < $1.0 }.map(\.1)
            #expect(await probeLog(bench) == submitted)
            #expect(entries.compactMap { try? $0.result.get().data } == submitted)
            authenticator.stop()
        }

        @Test func aTimeoutFiresOnASlowAnswerAndTheQueueGoesOn() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA)])
            let authenticator = NFCAuthenticator()
            authenticator.start()
            _ = try await authenticator.connected()
            let id = try #require(await bench.field.tagIDs.first, "the bench placed its card")
            // The card takes 3 s more to answer its next command.
            await bench.field.inject(.delayResponse(command: 1, by: .seconds(3)), into: id)
            let results = CompletionLog()
            let timeouts = Counter()
            let start = bench.clock.now
            authenticator.execute(Self.log([1]), timeout: .seconds(1), onTimeout: timeouts.increment, completion: results.handler("slow"))
            authenticator.execute(Self.log([2]), timeout: .seconds(1), onTimeout: timeouts.increment, completion: results.handler("next"))
            _ = await results.wait(for: 2)
            #expect(authenticatorError(results.result("slow")) == .timedOut(after: .seconds(1)))
            #expect(timeouts.count == 1)
            #expect((try? results.result("next")?.get().data) == [2])
            #expect(start.duration(to: bench.clock.now) >= .seconds(3))
            // The card did run the slow command: only its answer was dropped.
            #expect(await probeLog(bench) == [[1], [2]])

            // The same slow answer with a negative timeout is awaited.
            await bench.field.inject(.delayResponse(command: 1, by: .seconds(3)), into: id)
            let patient = try await authenticator.execute(Self.log([3]), timeout: .seconds(-1), onTimeout: timeouts.increment)
            #expect(patient.data == [3] && timeouts.count == 1)
            #expect(authenticator.isRunning)
            authenticator.stop()
        }

        @Test func tagRemovalMidQueueFailsTheRestAndTheNextCardIsUsed() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA)])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let first = try await authenticator.connected()
            let id = try #require(await bench.field.tagIDs.first, "the bench placed its card")
            await bench.field.inject(.removeAfterCommands(2), into: id)
            let results = CompletionLog()
            for index: UInt8 in 1...5 {
                authenticator.execute(Self.log([index]), completion: results.handler("\(index)"))
            }
            let entries = await results.wait(for: 5)
            #expect(entries.map(\.label) == ["1", "2", "3", "4", "5"])
            #expect((try? results.result("1")?.get().data) == [1] && (try? results.result("2")?.get().data) == [2])
            for label in ["3", "4", "5"] {
                let error = authenticatorError(results.result(label))
                guard error?.code == .tagConnectionLost else {
                    Issue.record("command \(label): expected tagConnectionLost, got \(String(describing: results.result(label)))")
                    continue
                }
                #expect(error?.readerErrorCode == .readerTransceiveErrorTagConnectionLost)
            }
            let lost = await events.wait(for: 3)
            guard lost.count == 3, case .disconnected(let error) = lost[1], error.code == .tagConnectionLost,
                error.transportReason?.isEmpty == false
            else {
                Issue.record("expected a disconnection, got \(lost)")
                return
            }
            #expect(lost[0] == .connected(first) && lost[2] == .restarted(.tagLost))
            #expect(authenticator.connectedTag == nil && authenticator.isRunning)

            // A command now waits for the next card, which polling finds.
            authenticator.execute(Self.log([6]), completion: results.handler("6"))
            #expect(authenticator.pendingCommandCount == 1)
            await bench.field.place(ProbeApplet.card(uid: Self.uidB))
            _ = await results.wait(for: 6)
            #expect((try? results.result("6")?.get().data) == [6])
            #expect(authenticator.connectedTag?.identifier == Data(Self.uidB))
            #expect(await probeLog(bench, uid: Self.uidB) == [[6]])
            authenticator.stop()
        }

        @Test func theSessionTimeoutFailsQueuedCommandsAndAStartBeginsAgain() async throws {
            let bench = await bench([])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let results = CompletionLog()
            for index: UInt8 in 1...3 {
                authenticator.execute(Self.log([index]), timeout: .seconds(90), completion: results.handler("\(index)"))
            }
            let waiter = Task { try await authenticator.connected() }
            #expect(authenticator.pendingCommandCount == 3)
            // Queued commands have no timers yet: only the session's 60 s limit is armed.
            await until { bench.clock.sleeperCount == 1 }
            bench.clock.advance(by: .seconds(60))
            let entries = await results.wait(for: 3)
            #expect(entries.allSatisfy { authenticatorError($0.result) == .sessionEnded(.sessionTimeout) })
            #expect(NFCAuthenticatorError.sessionEnded(.sessionTimeout).readerErrorCode == .readerSessionInvalidationErrorSessionTimeout)
            await #expect(throws: NFCAuthenticatorError.sessionEnded(.sessionTimeout)) { try await waiter.value }
            #expect(await authenticator.ended() == .sessionTimeout)
            #expect(await events.wait(for: 1) == [.ended(.sessionTimeout)])
            #expect(!authenticator.isRunning)
            // Commands after the end fail at once.
            await #expect(throws: NFCAuthenticatorError.sessionEnded(.sessionTimeout)) { try await authenticator.execute(Self.log([4])) }

            // A new session: the card placed now is found.
            authenticator.start()
            await bench.field.place(ProbeApplet.card(uid: Self.uidA))
            let tag = try await authenticator.connected()
            #expect(tag.identifier == Data(Self.uidA))
            #expect(try await authenticator.execute(Self.log([5])).data == [5])
            authenticator.stop()
        }

        @Test func theSessionEndingFailsTheRunningCommandToo() async throws {
            let bench = await bench([])
            let authenticator = NFCAuthenticator()
            authenticator.start()
            // A card whose command hangs: the test's transmitter stands in for the session's tag.
            let card = GateTransmitter()
            defer { card.releaseAll() }
            authenticator.queue.attach(card)
            let results = CompletionLog()
            authenticator.execute(Self.log([1]), completion: results.handler("running"))
            authenticator.execute(Self.log([2]), completion: results.handler("queued"))
            await card.arrivals(1)
            await until { bench.clock.sleeperCount == 1 }
            bench.clock.advance(by: .seconds(60))
            let entries = await results.wait(for: 2)
            #expect(entries.map(\.label) == ["running", "queued"])
            #expect(entries.allSatisfy { authenticatorError($0.result) == .sessionEnded(.sessionTimeout) })
            // The hung exchange ends with the session's error later: nothing more happens.
            #expect(
                card.answer(
                    [0x00, 0x40, 0x00, 0x00, 0x01, 0x01],
                    with: .failure(NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "the session is not active"))))
            #expect(await authenticator.ended() == .sessionTimeout)
            #expect(card.received.count == 1 && results.entries.count == 2)
        }

        @Test func stopFailsQueuedCommands() async throws {
            _ = await bench([])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let results = CompletionLog()
            for index: UInt8 in 1...3 {
                authenticator.execute(Self.log([index]), completion: results.handler("\(index)"))
            }
            let waiter = Task { try await authenticator.execute(Self.log([4])) }
            await until { authenticator.pendingCommandCount == 4 }
            authenticator.stop(errorMessage: "Sign-in cancelled")
            let entries = await results.wait(for: 3)
            #expect(entries.allSatisfy { authenticatorError($0.result) == .sessionEnded(.stopped) })
            await #expect(throws: NFCAuthenticatorError.sessionEnded(.stopped)) { try await waiter.value }
            #expect(NFCAuthenticatorError.sessionEnded(.stopped).readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            #expect(await authenticator.ended() == .stopped)
            #expect(await events.wait(for: 1) == [.ended(.stopped)])
            // The reader is free again: another session can begin.
            #expect(!SessionCoordinator.shared.isBusy)
        }

        @Test func selectIdentifiersNarrowTheAppsList() async throws {
            let card = ISO7816Card(uid: Self.uidA, applets: [ProbeApplet(), OATHApplet()])
            _ = await bench([card])
            // The app's list starts with the probe's AID: a plain authenticator selects it.
            let plain = NFCAuthenticator()
            #expect(try await plain.connect().initialSelectedAID == ProbeApplet.aidHex)
            plain.stop()
            #expect(await plain.ended() == .stopped)
            // Narrowed to OATH, the session selects OATH on the same card.
            let oathOnly = NFCAuthenticator(selectIdentifiers: ["A0000005272101"])
            #expect(try await oathOnly.connect().initialSelectedAID == "A0000005272101")
            let oath = try await OATHSession(transmitter: oathOnly)
            #expect(try await oath.list().isEmpty)
            oathOnly.stop()
        }

        @Test func aSessionInvalidatedFromOutsideEndsAsUserCanceled() async throws {
            _ = await bench([])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let results = CompletionLog()
            authenticator.execute(Self.log([1]), completion: results.handler("1"))
            // On iOS: the user taps Cancel on the scanning sheet.
            let session = try #require(authenticator.state.withLock { $0.session })
            session.invalidate()
            _ = await results.wait(for: 1)
            #expect(authenticatorError(results.result("1")) == .sessionEnded(.userCanceled))
            #expect(await authenticator.ended() == .userCanceled)
            #expect(await events.wait(for: 1) == [.ended(.userCanceled)])
        }

        @Test func aTagThatIsNotISO7816RestartsPollingOnce() async throws {
            let bench = await bench([try VirtualTagKind.ntag213.make()])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            #expect(await events.wait(for: 1) == [.restarted(.noISO7816Tag([.miFare]))])
            let result = CompletionLog()
            authenticator.execute(Self.log([1]), completion: result.handler("1"))
            await bench.field.place(ProbeApplet.card(uid: Self.uidA))
            _ = await result.wait(for: 1)
            #expect((try? result.result("1")?.get().data) == [1])
            let all = await events.wait(for: 2)
            // The NTAG still in the field did not make polling restart again.
            #expect(
                all == [
                    .restarted(.noISO7816Tag([.miFare])),
                    .connected(
                        NFCAuthenticatorTag(
                            identifier: Data(Self.uidA), initialSelectedAID: ProbeApplet.aidHex,
                            historicalBytes: authenticator.connectedTag?.historicalBytes)),
                ])
            authenticator.stop()
        }

        @Test func aFailedConnectRestartsPolling() async throws {
            let bench = await bench([ProbeApplet.card(uid: Self.uidA)])
            // A tag from an earlier session: connecting to it fails.
            let delegate = TagReaderDelegate()
            let earlier = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            earlier.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let stale = tags.first else {
                Issue.record("expected a tag")
                return
            }
            earlier.invalidate()
            _ = await delegate.log.nextSignificant()
            await bench.field.removeAll()

            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let session = try #require(authenticator.state.withLock { $0.session })
            authenticator.detected([stale], in: session)
            let restarted = await events.wait(for: 1)
            guard case .restarted(.connectionFailed)? = restarted.first else {
                Issue.record("expected a polling restart, got \(restarted)")
                return
            }
            #expect(authenticator.connectedTag == nil)
            await bench.field.place(ProbeApplet.card(uid: Self.uidB))
            #expect(try await authenticator.connected().identifier == Data(Self.uidB))
            #expect(try await authenticator.execute(Self.log([9])).data == [9])
            authenticator.stop()
        }

        @Test func cancelAllAndRestartKeepTheAuthenticatorUsable() async throws {
            let bench = await bench([])
            let events = AuthenticatorEvents()
            let authenticator = NFCAuthenticator(delegate: events)
            authenticator.start()
            let results = CompletionLog()
            for index: UInt8 in 1...3 {
                authenticator.execute(Self.log([index]), timeout: .seconds(5), completion: results.handler("\(index)"))
            }
            authenticator.cancelAll()
            let cancelled = await results.wait(for: 3)
            #expect(cancelled.allSatisfy { authenticatorError($0.result) == .cancelled })
            #expect(authenticator.isRunning && authenticator.pendingCommandCount == 0)

            await bench.field.place(ProbeApplet.card(uid: Self.uidA))
            let tag = try await authenticator.connected()
            #expect(try await authenticator.execute(Self.log([4])).data == [4])
            #expect(await probeLog(bench) == [[4]])

            // restart(): the card is released, found again, and used again.
            authenticator.restart()
            let afterRestart = await events.wait(for: 3)
            #expect(afterRestart == [.connected(tag), .disconnected(.pollingRestarted), .connected(tag)])
            #expect(try await authenticator.execute(Self.log([5])).data == [5])
            #expect(await probeLog(bench) == [[4], [5]])
            authenticator.stop()
        }

        @Test func aStartTheSessionRefusesEndsTheAuthenticator() async throws {
            _ = await SessionBench([], configuration: NFCAppConfiguration(usageDescription: nil, readerSessionFormats: []))
            let authenticator = NFCAuthenticator()
            authenticator.start()
            let reason = await authenticator.ended()
            guard case .failed(let error)? = reason else {
                Issue.record("expected a failed start, got \(String(describing: reason))")
                return
            }
            #expect(error.code == .readerErrorSecurityViolation)
            await #expect(throws: NFCAuthenticatorError.sessionEnded(reason ?? .stopped)) { try await authenticator.execute(Self.log([1])) }
            // Never started: commands and waiters fail with notStarted.
            let idle = NFCAuthenticator()
            await #expect(throws: NFCAuthenticatorError.notStarted) { try await idle.connected() }
            await #expect(throws: NFCAuthenticatorError.notStarted) { try await idle.execute(Self.log([1])) }
            #expect(await idle.ended() == nil)
        }
    }
}
