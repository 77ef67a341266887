import Dispatch
import NFCBytes
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VirtualPN532 {
    /// Runs a virtual PN532 on a file descriptor — a pseudo-terminal's master side (`nfc emulate
    /// --pn532`) or one end of a socket pair (tests) — until `stopped` turns true or the other
    /// end closes for good. As a target the chip is the card in `targetField`.
    ///
    /// The descriptor is read on a thread of its own, with 100 ms polls (a blocking wait must not
    /// hold one of the few threads Swift concurrency runs the chip's commands on); the chip takes
    /// the bytes in order. A read of `EIO` — a terminal no client holds open yet, or any more — is
    /// waited out; an end of file ends the run. What the chip answers is written back, then
    /// `afterOutput` runs (the emulator queues an image save there). Returns what the host asked
    /// for.
    @discardableResult
    public static func serve(
        fileDescriptor fd: Int32, driver: any ReaderDriver, targetField: PN532TargetField = PN532TargetField(name: "pn532"),
        stopped: Guarded<Bool>, afterOutput: @escaping @Sendable () async -> Void = {}
    ) async -> Statistics {
        let chip = VirtualPN532(driver: driver, targetField: targetField) { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written <= 0 {
                    // A host that stopped reading must not hold the chip once the run is stopped.
                    guard errno == EINTR || errno == EAGAIN, !stopped.withLock({ $0 }) else { break }
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, 100)
                    continue
                }
                offset += written
            }
            await afterOutput()
        }
        let (incoming, feed) = AsyncStream.makeStream(of: [UInt8].self)
        DispatchQueue(label: "opencorenfc.pn532.serve").async {
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !stopped.withLock({ $0 }) {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    feed.yield(Array(buffer[0..<count]))
                } else if count == 0 {
                    break  // the other end closed
                } else if errno != EAGAIN && errno != EINTR {
                    usleep(10_000)  // EIO while no client has the terminal open
                }
            }
            feed.finish()
        }
        for await bytes in incoming { await chip.receive(bytes) }
        // A poll still waiting for a card would wait for ever: the line is gone, so abort it.
        await chip.abortCommands()
        await chip.waitForCommands()
        return await chip.statistics
    }

    /// Aborts whatever is queued or running, as the host's ACK does.
    func abortCommands() {
        for task in queued.values { task.cancel() }
    }

    /// Waits until the command queued last has finished (its response written).
    func waitForCommands() async {
        await running?.value
    }
}
