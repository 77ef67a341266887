import Foundation
import NFCBytes
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches readers with `SCardGetStatusChange` on a thread of its own and reports tags
/// arriving and leaving: first what is present, then one arrival per tap (pcsc-lite's event
/// counter tells a new tap from a tag held still), a departure when a tag or its reader goes.
///
/// Survives pcscd restarting (re-establishes its context every 250 ms until it can) and
/// readers being plugged and unplugged (the PnP pseudo reader wakes it; the list is re-read
/// after every change).
final class PCSCEventMonitor: Sendable {
    private let driver: PCSCDriver
    private let mask: TechnologyMask
    private let emit: @Sendable (ReaderEvent) -> Void
    private let finish: @Sendable () -> Void
    private let running = Guarded<(stopped: Bool, context: PCSCContext?)>((false, nil))

    /// `finish` runs when the monitor ends: stopped, or no PC/SC library on this machine.
    init(driver: PCSCDriver, mask: TechnologyMask, emit: @escaping @Sendable (ReaderEvent) -> Void, finish: @escaping @Sendable () -> Void)
    {
        self.driver = driver
        self.mask = mask
        self.emit = emit
        self.finish = finish
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "OpenCoreNFC PC/SC events"
        thread.start()
    }

    func stop() {
        let context = running.withLock { value -> PCSCContext? in
            value.stopped = true
            return value.context
        }
        context?.cancel()
    }

    private var stopped: Bool { running.withLock { $0.stopped } }

    private func run() {
        defer { finish() }
        guard case .success(let library) = PCSCLibrary.shared else { return }
        var present: [String: (counter: UInt32, target: TargetInfo?)] = [:]
        var lastState: [String: UInt32] = [:]
        var context: PCSCContext?
        while !stopped {
            if context == nil {
                // A new context is a new pcscd (or the first): its event counters start again,
                // so whatever was present is reported gone and found afresh.
                for (reader, known) in present {
                    if let target = known.target { leave(target) }
                    driver.forget(reader: reader)
                }
                present = [:]
                lastState = [:]
                context = try? PCSCContext(library: library)
                running.withLock { $0.context = context }
                if context == nil {
                    pause(milliseconds: 250)
                    continue
                }
            }
            guard let current = context else { continue }
            let readers: [String]
            do {
                readers = try current.readers().filter(driver.matchesFilter)
            } catch {
                context = nil
                pause(milliseconds: 250)
                continue
            }
            for gone in present.keys where !readers.contains(gone) {
                if let target = present[gone]?.target { leave(target) }
                present[gone] = nil
                lastState[gone] = nil
                driver.forget(reader: gone)
            }
            let all = readers + [PCSCABI.plugAndPlayReader]
            let states = ReaderStateArray(readers: all)
            for (index, reader) in all.enumerated() { states.setCurrentState(index, lastState[reader] ?? 0) }
            let status = current.waitForChange(states, timeoutMilliseconds: 500)
            if stopped { break }
            switch status {
            case .success:
                break
            case .timeout, .cancelled, .systemCancelled:
                continue
            case .unknownReader, .readerUnavailable, .noReadersAvailable:
                continue  // the list changed under us: read it again
            default:
                if status.meansServiceGone { context = nil }
                pause(milliseconds: 250)
                continue
            }
            for (index, reader) in all.enumerated() {
                let raw = states.eventState(index)
                lastState[reader] = raw & ~PCSCABI.ReaderState.changed.rawValue
                guard index < readers.count else { continue }
                let flags = PCSCABI.ReaderState(rawValue: raw & 0xFFFF)
                let counter = raw >> 16
                let hasTag = flags.contains(.present) && !flags.contains(.mute)
                if hasTag {
                    if let known = present[reader], known.counter == counter { continue }
                    if let target = present[reader]?.target { leave(target) }
                    let entry = try? driver.identify(reader: reader, atr: states.atr(index), eventCounter: counter, context: current)
                    present[reader] = (counter, entry?.target)
                    if let target = entry?.target, mask.contains(target.technology) { emit(.targetArrived(target)) }
                } else if let known = present[reader] {
                    if let target = known.target { leave(target) }
                    present[reader] = nil
                    driver.forget(reader: reader)
                }
            }
        }
        running.withLock { $0.context = nil }
    }

    private func leave(_ target: TargetInfo) {
        if mask.contains(target.technology) { emit(.targetLeft(target)) }
    }

    private func pause(milliseconds: UInt32) {
        // The monitor's own thread, waiting for pcscd to come back: real time is what counts.
        usleep(milliseconds * 1000)
    }
}
