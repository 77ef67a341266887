import NFCSimulator
import NFCTransport
import Testing

@testable import OpenCoreNFC

/// The session lifecycle, event by event, without a session, a delegate or a reader: each test
/// pins one of the rules ``SessionStateMachine`` documents (Apple's `NFCReaderSession.h`,
/// `NFCTagReaderSession.h`, `NFCNDEFReaderSession.h`, `NFCTag.h`).
@Suite struct SessionStateMachineTests {
    /// A reader the machine only holds; it is never asked for anything.
    final class IdleDriver: ReaderDriver {
        let name = "idle"
        func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] { [] }
        func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> { AsyncStream { $0.finish() } }
        func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
            throw TransportError(.notConnected, "idle")
        }
    }

    static func target(_ handle: UInt64) -> TargetInfo {
        TargetInfo(handle: handle, identifier: [0x04, UInt8(handle)], parameters: .iso14443A(.init(atqa: 0x0044, sak: 0x00)))
    }

    /// A machine that has begun, been activated and told the delegate.
    static func active(_ mode: SessionStateMachine.DeliveryMode) -> SessionStateMachine {
        var machine = SessionStateMachine(technologies: .all, mode: mode)
        _ = machine.begin()
        _ = machine.activate(driver: IdleDriver(), tasks: [])
        _ = machine.becomeReady()
        return machine
    }

    @Test func beginsOnceReadyOnlyWhenToldAndNeverAgainAfterTheEnd() {
        var machine = SessionStateMachine(technologies: .all, mode: .pauseUntilRestart)
        let step35 = machine.begin()
        #expect(step35)
        let step36 = !machine.begin()
        #expect(step36)
        let step37 = machine.activate(driver: IdleDriver(), tasks: [])
        #expect(step37)
        // Active, but not ready until the delegate is about to hear of it.
        #expect(machine.phase == .active && !machine.isReady)
        let step40 = machine.becomeReady()
        #expect(step40)
        #expect(machine.isReady)
        let ending = machine.end()
        #expect(ending != nil)
        let step44 = machine.end() == nil
        #expect(step44)
        #expect(!machine.isReady && machine.phase == .invalidated)
        let step46 = !machine.begin()
        #expect(step46)
        let step47 = !machine.becomeReady()
        #expect(step47)
    }

    @Test func anEndWhileStartingLeavesNothingToActivate() {
        var machine = SessionStateMachine(technologies: .all, mode: .pauseUntilRestart)
        let step52 = machine.begin()
        #expect(step52)
        _ = machine.end()
        let step54 = !machine.activate(driver: IdleDriver(), tasks: [])
        #expect(step54)
        #expect(machine.scanStart() == nil)
    }

    @Test func aTagSessionPausesAfterADeliveryUntilRestartPolling() throws {
        var machine = Self.active(.pauseUntilRestart)
        let start = try #require(machine.scanStart())
        let step61 = machine.scanned([Self.target(1)], startRound: start.round).map(\.handle) == [1]
        #expect(step61)
        #expect(machine.isPaused)
        // A new tag is not scanned for while polling waits.
        let step64 = machine.targetArrived(2) == .none
        #expect(step64)
        #expect(machine.scanStart() == nil)
        // restartPolling: a new round, both tags found again.
        let step67 = machine.restartPolling() != nil
        #expect(step67)
        let again = try #require(machine.scanStart())
        #expect(again.round == start.round + 1)
        let step70 = machine.scanned([Self.target(1), Self.target(2)], startRound: again.round).map(\.handle) == [1, 2]
        #expect(step70)
    }

    @Test func aScanOvertakenByRestartPollingDeliversNothing() throws {
        var machine = Self.active(.pauseUntilRestart)
        let start = try #require(machine.scanStart())
        _ = machine.restartPolling(technologies: .iso15693)
        let step77 = machine.scanned([Self.target(1)], startRound: start.round).isEmpty
        #expect(step77)
        #expect(machine.technologies == .iso15693)
    }

    @Test func aReadOnlyNDEFSessionReadsOnAndReadsARetappedTagAgain() throws {
        var machine = Self.active(.automaticRestart)
        let start = try #require(machine.scanStart())
        let step84 = machine.scanned([Self.target(1)], startRound: start.round).count == 1
        #expect(step84)
        #expect(!machine.isPaused)
        // Still resting: not delivered twice.
        let step87 = machine.scanned([Self.target(1)], startRound: start.round).isEmpty
        #expect(step87)
        // Removed and tapped again: delivered again.
        _ = machine.targetLeft(1)
        let step90 = machine.targetArrived(1) == .scan
        #expect(step90)
        let step91 = machine.scanned([Self.target(1)], startRound: start.round).count == 1
        #expect(step91)
        // restartPolling has no effect there (NFCNDEFReaderSession.h).
        let step93 = machine.restartPolling() == nil
        #expect(step93)
        #expect(machine.round == start.round)
    }

    @Test func anNDEFSessionLearnsItsModeAtTheFirstDelivery() throws {
        var machine = Self.active(.unknown)
        let start = try #require(machine.scanStart())
        _ = machine.scanned([Self.target(1)], startRound: start.round)
        #expect(machine.isPaused)
        let step102 = machine.resolveMode(.automaticRestart)
        #expect(step102)
        #expect(!machine.isPaused)
        let step104 = !machine.resolveMode(.pauseUntilRestart)  // learned once
        #expect(step104)
    }

    @Test func availabilityNeedsTheRoundThePresenceAndNoOtherConnectedTag() throws {
        var machine = Self.active(.pauseUntilRestart)
        let start = try #require(machine.scanStart())
        _ = machine.scanned([Self.target(1), Self.target(2)], startRound: start.round)
        #expect(machine.isAvailable(1, round: start.round) && machine.isAvailable(2, round: start.round))
        #expect(machine.usability(of: 1, round: start.round, requireConnected: true)?.code == .readerTransceiveErrorTagNotConnected)
        machine.markConnected(1, round: start.round)
        #expect(machine.usability(of: 1, round: start.round, requireConnected: true) == nil)
        // Another tag is connected: the first is no longer available.
        #expect(!machine.isAvailable(2, round: start.round))
        // The connected tag leaves the field.
        _ = machine.targetLeft(1)
        #expect(!machine.isAvailable(1, round: start.round))
        #expect(machine.usability(of: 1, round: start.round, requireConnected: true)?.code == .readerTransceiveErrorTagConnectionLost)
        // A tag of an earlier round.
        _ = machine.restartPolling()
        #expect(machine.usability(of: 2, round: start.round, requireConnected: false)?.code == .readerTransceiveErrorTagNotConnected)
        _ = machine.end()
        #expect(machine.usability(of: 2, round: start.round + 1, requireConnected: false)?.code == .readerTransceiveErrorSessionInvalidated)
    }

    @Test func aRestartArmedForTheNextFieldChangeFiresOnceOrAtOnceWhenTheFieldChangedAlready() throws {
        var machine = Self.active(.pauseUntilRestart)
        let start = try #require(machine.scanStart())
        _ = machine.scanned([Self.target(1)], startRound: start.round)
        let step132 = !machine.restartOnFieldChange()
        #expect(step132)
        let step133 = machine.targetArrived(2) == .restart
        #expect(step133)
        _ = machine.restartPolling()
        // The field changed before the restart was asked for: restart now.
        let next = try #require(machine.scanStart())
        _ = machine.scanned([Self.target(1)], startRound: next.round)
        let step138 = machine.targetArrived(3) == .none
        #expect(step138)
        let step139 = machine.restartOnFieldChange()
        #expect(step139)
    }

    @Test func aConnectionOpenedForATagThatLeftIsHandedBackToClose() async throws {
        // Real connections, from a simulated field with one NTAG.
        let field = SimulatedField(clock: SimulatedClock())
        await field.place(try VirtualTagKind.ntag213.make())
        let found = try #require(try await field.targets(matching: .all).first)
        var machine = Self.active(.pauseUntilRestart)
        let start = try #require(machine.scanStart())
        _ = machine.scanned([found], startRound: start.round)
        let kept = try await field.connect(to: found, meter: AirTimeMeter())
        let step151 = machine.opened(kept, for: found.handle, round: start.round) == nil
        #expect(step151)
        #expect(machine.connection(for: found.handle) === kept)
        let step153 = machine.targetLeft(found.handle).connection === kept
        #expect(step153)
        let late = try await field.connect(to: found, meter: AirTimeMeter())
        let step155 = machine.opened(late, for: found.handle, round: start.round) === late
        #expect(step155)
    }
}
