import Dispatch
import Foundation
import ISO7816
import NFCBytes
import NFCTransport
import Testing

@testable import OpenCoreNFC

/// The authenticator's command queue over a transmitter the test controls, on a simulated clock:
/// ordering, timeouts, late answers, cancellation and a lost transmitter.
@Suite(.timeLimit(.minutes(1))) final class APDUCommandQueueTests: Sendable {
    let clock = SimulatedClock()
    private let gates = Guarded<[GateTransmitter]>([])

    /// A transmitter whose exchanges still waiting when the test ends are released then.
    func gate(autoAnswer: Bool = false) -> GateTransmitter {
        let transmitter = GateTransmitter(autoAnswer: autoAnswer)
        gates.withLock { $0.append(transmitter) }
        return transmitter
    }

    deinit {
        for transmitter in gates.withLock({ $0 }) { transmitter.releaseAll() }
    }

    func makeQueue() -> APDUCommandQueue {
        let queue = APDUCommandQueue(clock: clock, callbackQueue: DispatchQueue(label: "test.callbacks"))
        queue.open()
        return queue
    }

    static func command(_ tag: UInt8) -> CommandAPDU { CommandAPDU(ins: 0x40, data: [tag]) }
    static func bytes(_ tag: UInt8) -> [UInt8] { [0x00, 0x40, 0x00, 0x00, 0x01, tag] }

    @Test func concurrentSubmittersRunOneAtATimeInSubmissionOrder() async throws {
        let queue = makeQueue()
        let transmitter = gate(autoAnswer: true)
        let log = CompletionLog()
        let ids = IDLog()
        // 16 tasks submit 8 commands each; half of them before a transmitter is attached.
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for index in 0..<8 {
                        if task == 8 && index == 0 { queue.attach(transmitter) }
                        let data: [UInt8] = [UInt8(task), UInt8(index)]
                        let id = queue.submit(
                            .exchange(CommandAPDU(ins: 0x40, data: data), .standard), timeout: nil, onTimeout: nil,
                            completion: log.handler("\(task).\(index)"))
                        ids.record(id, data)
                        await Task.yield()
                    }
                }
            }
        }
        let entries = await log.wait(for: 128)
        #expect(transmitter.maxInFlight == 1)
        // The card saw the commands in the order of their numbers.
        let expected = ids.all.sorted { $0.key < $1.key }.map { [0x00, 0x40, 0x00, 0x00, 0x02] + $0.value }
        #expect(transmitter.received == expected)
        // Each task's commands kept their order, and each got its own answer.
        for task in 0..<16 {
            let sent = transmitter.received.filter { $0[5] == UInt8(task) }.map { $0[6] }
            #expect(sent == Array(0..<8))
        }
        for entry in entries {
            let parts = entry.label.split(separator: ".").compactMap { UInt8($0) }
            #expect((try? entry.result.get().data) == [0x00, 0x40, 0x00, 0x00, 0x02] + parts)
        }
        // Completions ran in the order the commands ran.
        let completedOrder = entries.compactMap { try? $0.result.get().data }
        #expect(completedOrder == expected)
    }

    final class IDLog: Sendable {
        private let map = Guarded<[UInt64: [UInt8]]>([:])
        func record(_ id: UInt64, _ data: [UInt8]) { map.withLock { $0[id] = data } }
        var all: [UInt64: [UInt8]] { map.withLock { $0 } }
    }

    @Test func aTimeoutFailsTheCommandCallsItsHandlerAndTheQueueContinues() async throws {
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        let timeouts = Counter()
        queue.submit(
            .exchange(Self.command(1), .standard), timeout: .seconds(2),
            onTimeout: {
                // The handler runs before the completion.
                #expect(log.entries.isEmpty)
                timeouts.increment()
            }, completion: log.handler("slow"))
        queue.submit(
            .exchange(Self.command(2), .standard), timeout: .seconds(2), onTimeout: timeouts.increment, completion: log.handler("next"))
        await transmitter.arrivals(1)
        await until { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1)
        #expect(log.entries.isEmpty && transmitter.received.count == 1)
        clock.advance(by: .milliseconds(1))
        _ = await log.wait(for: 1)
        #expect(authenticatorError(log.result("slow")) == .timedOut(after: .seconds(2)))
        #expect(timeouts.count == 1)
        // The next command started while the slow one's exchange is still out.
        await transmitter.arrivals(2)
        #expect(transmitter.received == [Self.bytes(1), Self.bytes(2)])
        // The late answer is discarded; the next command gets its own.
        #expect(transmitter.answer(Self.bytes(1), with: .success([0xAA, 0x90, 0x00])))
        #expect(transmitter.answer(Self.bytes(2), with: .success([0xBB, 0x90, 0x00])))
        let entries = await log.wait(for: 2)
        #expect(entries.count == 2)
        #expect((try? log.result("next")?.get()) == ResponseAPDU(data: [0xBB], statusWord: .success))
        // Its timer was cancelled: time passing later fires nothing.
        clock.advance(by: .seconds(10))
        #expect(timeouts.count == 1)
        #expect(clock.sleeperCount == 0)
        #expect(queue.count == 0)
    }

    @Test func anAbandonedCommandSendsNoMoreExchanges() async throws {
        // The timed-out command's late answer announces more data (61xx): its GET RESPONSE must
        // not reach the card, where it would take the next command's pending answer.
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        queue.submit(.exchange(Self.command(1), .standard), timeout: .seconds(1), onTimeout: nil, completion: log.handler("slow"))
        queue.submit(.exchange(Self.command(2), .standard), timeout: nil, onTimeout: nil, completion: log.handler("next"))
        await transmitter.arrivals(1)
        await until { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(1))
        await transmitter.arrivals(2)
        transmitter.answer(Self.bytes(1), with: .success([0xAA, 0x61, 0x10]))
        await until { queue.discardedCount == 1 }
        #expect(transmitter.received == [Self.bytes(1), Self.bytes(2)])
        transmitter.answer(Self.bytes(2), with: .success([0xBB, 0x90, 0x00]))
        _ = await log.wait(for: 2)
        #expect(authenticatorError(log.result("slow")) == .timedOut(after: .seconds(1)))
        #expect((try? log.result("next")?.get().data) == [0xBB])
        #expect(transmitter.received == [Self.bytes(1), Self.bytes(2)])
    }

    @Test func anAnswerArrivingAfterTheDeadlineIsATimeoutEveryTime() async throws {
        // A transmitter that takes 3 s of simulated time: the deadline passes inside the
        // exchange, so the timer and the answer race; the outcome must not depend on who wins.
        struct SlowTransmitter: APDUTransmitter {
            let clock: SimulatedClock
            let supportsExtendedLength = true
            func transmit(_ command: [UInt8]) async throws -> [UInt8] {
                clock.advance(by: .seconds(3))
                return [0x90, 0x00]
            }
        }
        let queue = makeQueue()
        queue.attach(SlowTransmitter(clock: clock))
        let log = CompletionLog()
        let timeouts = Counter()
        for round in 0..<25 {
            queue.submit(
                .exchange(Self.command(UInt8(round)), .standard), timeout: .seconds(1), onTimeout: timeouts.increment,
                completion: log.handler("\(round)"))
        }
        let entries = await log.wait(for: 25)
        #expect(entries.allSatisfy { authenticatorError($0.result) == .timedOut(after: .seconds(1)) })
        #expect(timeouts.count == 25)
        #expect(entries.map(\.label) == (0..<25).map { "\($0)" })
    }

    @Test func aNegativeTimeoutNeverFires() async throws {
        #expect(NFCAuthenticator.limit(.seconds(-1)) == nil)
        #expect(NFCAuthenticator.limit(.nanoseconds(-1)) == nil)
        #expect(NFCAuthenticator.limit(.zero) == .zero)
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        let timeouts = Counter()
        queue.submit(
            .exchange(Self.command(1), .standard), timeout: NFCAuthenticator.limit(.seconds(-1)), onTimeout: timeouts.increment,
            completion: log.handler("a"))
        await transmitter.arrivals(1)
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(3600))
        #expect(log.entries.isEmpty && queue.count == 1)
        transmitter.answer(Self.bytes(1), with: .success([0x90, 0x00]))
        _ = await log.wait(for: 1)
        #expect((try? log.result("a")?.get())?.statusWord == .success)
        #expect(timeouts.count == 0)
    }

    @Test func cancelAllFailsTheRunningAndQueuedCommandsAndTheQueueStaysUsable() async throws {
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        for tag: UInt8 in 1...4 {
            queue.submit(.exchange(Self.command(tag), .standard), timeout: .seconds(5), onTimeout: nil, completion: log.handler("\(tag)"))
        }
        await transmitter.arrivals(1)
        queue.cancelAll()
        let entries = await log.wait(for: 4)
        #expect(entries.map(\.label) == ["1", "2", "3", "4"])
        #expect(entries.allSatisfy { authenticatorError($0.result) == .cancelled })
        #expect(NFCAuthenticatorError.cancelled.readerErrorCode == nil)
        // Their timers are gone; the abandoned exchange's answer is discarded.
        await until { clock.sleeperCount == 0 }
        transmitter.answer(Self.bytes(1), with: .success([0x90, 0x00]))
        // A new command runs normally.
        queue.submit(.exchange(Self.command(5), .standard), timeout: nil, onTimeout: nil, completion: log.handler("5"))
        await transmitter.arrivals(2)
        transmitter.answer(Self.bytes(5), with: .success([0x55, 0x90, 0x00]))
        _ = await log.wait(for: 5)
        #expect((try? log.result("5")?.get().data) == [0x55])
        #expect(log.entries.count == 5)
    }

    @Test func cancellingOneCommandLeavesTheOthers() async throws {
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        let first = queue.submit(.exchange(Self.command(1), .standard), timeout: nil, onTimeout: nil, completion: log.handler("1"))
        let second = queue.submit(.exchange(Self.command(2), .standard), timeout: nil, onTimeout: nil, completion: log.handler("2"))
        queue.submit(.exchange(Self.command(3), .standard), timeout: nil, onTimeout: nil, completion: log.handler("3"))
        await transmitter.arrivals(1)
        queue.cancel(second)  // queued
        queue.cancel(first)  // running: abandoned, the third starts
        await transmitter.arrivals(2)
        #expect(transmitter.received == [Self.bytes(1), Self.bytes(3)])
        transmitter.answer(Self.bytes(3), with: .success([0x90, 0x00]))
        let entries = await log.wait(for: 3)
        #expect(entries.map(\.label) == ["2", "1", "3"])
        #expect(authenticatorError(log.result("1")) == .cancelled && authenticatorError(log.result("2")) == .cancelled)
        #expect((try? log.result("3")?.get())?.statusWord == .success)
    }

    @Test func aLostTransmitterFailsTheRestAndLaterCommandsWaitForTheNext() async throws {
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        for tag: UInt8 in 1...4 {
            queue.submit(.exchange(Self.command(tag), .standard), timeout: nil, onTimeout: nil, completion: log.handler("\(tag)"))
        }
        await transmitter.arrivals(1)
        transmitter.answer(Self.bytes(1), with: .success([0x90, 0x00]))
        await transmitter.arrivals(2)
        transmitter.answer(
            Self.bytes(2), with: .failure(NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: "tag#1 left the field")))
        let entries = await log.wait(for: 4)
        #expect((try? log.result("1")?.get())?.statusWord == .success)
        for label in ["2", "3", "4"] {
            #expect(authenticatorError(log.result(label)) == .tagConnectionLost("tag#1 left the field"))
        }
        #expect(entries.count == 4 && transmitter.received.count == 2)
        #expect(NFCAuthenticatorError.tagConnectionLost("").readerErrorCode == .readerTransceiveErrorTagConnectionLost)
        // Commands now wait for a transmitter.
        queue.submit(.exchange(Self.command(5), .standard), timeout: nil, onTimeout: nil, completion: log.handler("5"))
        #expect(queue.count == 1 && queue.attachedEpoch == nil)
        let next = gate(autoAnswer: true)
        queue.attach(next)
        _ = await log.wait(for: 5)
        #expect(next.received == [Self.bytes(5)])
    }

    @Test func otherExchangeErrorsReachTheCommandUnchanged() async throws {
        let queue = makeQueue()
        let transmitter = gate()
        queue.attach(transmitter)
        let log = CompletionLog()
        queue.submit(.exchange(Self.command(1), .standard), timeout: nil, onTimeout: nil, completion: log.handler("1"))
        queue.submit(.exchange(Self.command(2), .standard), timeout: nil, onTimeout: nil, completion: log.handler("2"))
        await transmitter.arrivals(1)
        transmitter.answer(Self.bytes(1), with: .success([0x90]))  // one byte: not a response APDU
        await transmitter.arrivals(2)
        transmitter.answer(Self.bytes(2), with: .failure(NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "CRC")))
        _ = await log.wait(for: 2)
        guard case .failure(let first)? = log.result("1"), case .failure(let second)? = log.result("2") else {
            Issue.record("expected two failures")
            return
        }
        #expect(first is APDUError)
        #expect((second as? NFCReaderError)?.code == .readerTransceiveErrorTagResponseError)
        // The transmitter stays attached.
        #expect(queue.attachedEpoch != nil)
    }

    @Test func aClosedQueueRefusesCommandsUntilOpened() async throws {
        let queue = APDUCommandQueue(clock: clock, callbackQueue: DispatchQueue(label: "test.callbacks"))
        let log = CompletionLog()
        queue.submit(.raw([0x00, 0xA4, 0x04, 0x00]), timeout: nil, onTimeout: nil, completion: log.handler("never started"))
        queue.open()
        queue.submit(.raw([0x00, 0xA4, 0x04, 0x00]), timeout: nil, onTimeout: nil, completion: log.handler("queued"))
        queue.close(failing: .sessionEnded(.sessionTimeout))
        queue.submit(.raw([0x00, 0xA4, 0x04, 0x00]), timeout: nil, onTimeout: nil, completion: log.handler("after"))
        _ = await log.wait(for: 3)
        #expect(authenticatorError(log.result("never started")) == .notStarted)
        #expect(authenticatorError(log.result("queued")) == .sessionEnded(.sessionTimeout))
        #expect(authenticatorError(log.result("after")) == .sessionEnded(.sessionTimeout))
    }

    @Test func taskCancellationCancelsAnAwaitedCommand() async throws {
        let authenticator = NFCAuthenticator()
        authenticator.queue.open()
        let transmitter = gate()
        authenticator.queue.attach(transmitter)
        let running = Task { try await authenticator.execute(Self.command(1)) }
        await transmitter.arrivals(1)
        let queued = Task { try await authenticator.execute(Self.command(2)) }
        await until { authenticator.pendingCommandCount == 2 }
        queued.cancel()
        await #expect(throws: NFCAuthenticatorError.cancelled) { try await queued.value }
        running.cancel()
        await #expect(throws: NFCAuthenticatorError.cancelled) { try await running.value }
        #expect(authenticator.pendingCommandCount == 0)
        // A task cancelled before it submits fails at once.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await authenticator.execute(Self.command(3))
        }
        await #expect(throws: NFCAuthenticatorError.cancelled) { try await early.value }
        #expect(transmitter.received == [Self.bytes(1)])
    }

    @Test func anAPDUThatCannotBeEncodedIsNotQueued() async throws {
        let authenticator = NFCAuthenticator()
        authenticator.queue.open()
        let transmitter = gate(autoAnswer: true)
        authenticator.queue.attach(transmitter)
        let apdu = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0, data: Data(), expectedResponseLength: 70_000)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<NFCISO7816ResponseAPDU, any Error>, Never>) in
            let id = authenticator.execute(apdu) { continuation.resume(returning: $0) }
            #expect(id.rawValue == 0)
        }
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is APDUError)
        #expect(transmitter.received.isEmpty)
        // A valid one goes through, numbered from 1.
        let ok = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0, data: Data(), expectedResponseLength: 16)
        let response = try await authenticator.execute(ok)
        #expect(response.statusWord1 == 0x90 && response.payload == Data([0x00, 0xB0, 0x00, 0x00, 0x10]))
    }

    @Test func errorsNameTheirCauseAndCoreNFCsCode() throws {
        do {
            throw NFCAuthenticatorError.timedOut(after: .seconds(1))
        } catch NFCAuthenticatorError.Code.timedOut {
            // matched by code
        } catch {
            Issue.record("not matched by its code: \(error)")
        }
        #expect(NFCAuthenticatorError.timedOut(after: .seconds(1)) != .timedOut(after: .seconds(2)))
        #expect(NFCAuthenticatorError.timedOut(after: .seconds(1)).timeout == .seconds(1))
        #expect(NFCAuthenticatorError.tagConnectionLost("tag#3 left the field").description.contains("tag#3 left the field"))
        #expect(NFCAuthenticatorError.pollingRestarted.readerError?.code == .readerTransceiveErrorTagNotConnected)
        let busy = NFCReaderError(.readerSessionInvalidationErrorSystemIsBusy, reason: "another reader session is active")
        let cases: [(NFCReaderError, NFCAuthenticatorEndReason)] = [
            (NFCReaderError(.readerSessionInvalidationErrorUserCanceled, reason: "x"), .userCanceled),
            (NFCReaderError(.readerSessionInvalidationErrorSessionTimeout, reason: "x"), .sessionTimeout),
            (busy, .failed(busy)),
        ]
        for (sessionError, reason) in cases {
            #expect(NFCAuthenticatorEndReason(sessionError: sessionError) == reason)
            #expect(NFCAuthenticatorError.sessionEnded(reason).readerErrorCode == sessionError.code)
            #expect(NFCAuthenticatorError.sessionEnded(reason).endReason == reason)
        }
        #expect(NFCAuthenticatorEndReason.stopped.readerErrorCode == .readerSessionInvalidationErrorUserCanceled)
    }
}
