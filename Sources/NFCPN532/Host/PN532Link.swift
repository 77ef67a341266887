import Dispatch
import NFCBytes
import NFCTransport

/// The host's side of the PN532 dialog over a ``PN532Line`` (NXP UM0701-02 §6.2.3): one command
/// at a time — the command frame, the chip's ACK, then its response frame.
///
/// - **Wake-up.** Before the first frame the link sends the HSU wake-up sequence, `55 55` and
///   zeros (§6.2.2 "HSU wake up condition"), which a PN532 asleep after power-on needs.
/// - **ACK.** The manual has the host resend a command whose ACK does not come within 15 ms
///   (§6.2.3). The link waits 15 ms plus its ``slack`` plus the frame's time on the wire, and
///   sends the frame at most three times. The slack (500 ms unless given) covers what the manual
///   does not see: a USB-serial adapter holds received bytes for up to its latency timer (16 ms
///   on FTDI chips), and a loaded host — or a virtual PN532 sharing it — answers late. A real
///   chip acknowledges within a millisecond, so the slack costs nothing unless a frame was lost,
///   and a resend, which makes the chip run the command twice, stays the rare case it should be.
/// - **Damaged answers.** A response with a wrong checksum is asked for again with a NACK
///   (§6.2.1.4), at most three times; then the exchange fails as `.transmission`.
/// - **Time-outs.** A response that does not come within the command's time-out (plus the
///   frame's time on the wire and the slack) is aborted with an ACK (§6.2.1.3), so
///   the chip is ready for the next command, and the exchange fails as `.timeout`.
/// - **The error frame** (§6.2.1.5) is the chip refusing the command: `.unsupportedCommand`,
///   naming the command.
///
/// Calls from several tasks at once are queued: the line never carries two commands
/// interleaved. Each exchange runs on the link's own dispatch queue (its waits are `poll`s with
/// time-outs), so no Swift concurrency thread is held while the chip works.
package final class PN532Link: @unchecked Sendable {
    /// The line to the chip.
    package let line: PN532Line
    private let queue = DispatchQueue(label: "opencorenfc.pn532.link")
    // Confined to `queue`:
    private var decoder = PN532FrameDecoder()
    private var pending: [Result<PN532Frame, PN532FrameError>] = []
    private var awake = false
    private let tally = Guarded(Counters())

    /// What went over the line since the link was made.
    package struct Counters: Sendable, Hashable {
        /// Commands sent (each counted once, however often it was resent).
        package var commands = 0
        /// Bytes written, frames and wake-up included.
        package var bytesSent = 0
        /// Bytes read.
        package var bytesReceived = 0
        /// Command frames sent again because no ACK came.
        package var resends = 0
        /// NACKs sent for damaged responses.
        package var nacks = 0
        /// The last 256 commands' codes, in order (for tests and the benchmark).
        package var commandCodes: [UInt8] = []
    }

    /// The HSU wake-up: `55 55` then zeros, long enough for the chip's oscillator (§6.2.2; the
    /// same sixteen bytes libnfc sends).
    static let wakeUp: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
    /// §6.2.3: the host waits 15 ms for the ACK, plus the slack.
    static let acknowledgementWait: Duration = .milliseconds(15)
    /// The slack a link allows unless told otherwise.
    package static let defaultSlack: Duration = .milliseconds(500)
    /// Added to every wait, for the ACK and for the response: what the adapter and the host may
    /// hold bytes back.
    package let slack: Duration

    /// A link over `line`, allowing `slack` on top of the manual's waits.
    package init(line: PN532Line, slack: Duration = PN532Link.defaultSlack) {
        self.line = line
        self.slack = slack
    }

    /// What went over the line so far.
    package var counters: Counters { tally.withLock { $0 } }

    /// Runs one command: its response's bytes after the response code.
    /// - Parameters:
    ///   - command: the command.
    ///   - parameters: its bytes after the command code.
    ///   - timeout: how long the chip may take to answer once it has acknowledged.
    /// - Throws: `TransportError` — `.timeout` (no ACK after three sends, or no response),
    ///   `.transmission` (damaged answers), `.protocolViolation` (an answer to another command),
    ///   `.unsupportedCommand` (the error frame), `.frameTooLong`, and the line's own errors.
    package func execute(_ command: PN532Command, _ parameters: [UInt8] = [], timeout: Duration) async throws(TransportError) -> [UInt8] {
        let result: Result<[UInt8], TransportError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(TransportError) -> [UInt8] in try self.perform(command, parameters, timeout) })
            }
        }
        return try result.get()
    }

    private func perform(_ command: PN532Command, _ parameters: [UInt8], _ timeout: Duration) throws(TransportError) -> [UInt8] {
        guard parameters.count + 2 <= PN532Frame.maximumLength else {
            throw TransportError(
                .frameTooLong,
                "\(line.name): \(command.manualName) with \(parameters.count) bytes exceeds the PN532's \(PN532Frame.maximumLength)-byte frame"
            )
        }
        if !awake {
            try send(Self.wakeUp)
            awake = true
        }
        line.discardInput()
        decoder = PN532FrameDecoder()
        pending = []
        tally.withLock {
            $0.commands += 1
            $0.commandCodes.append(command.rawValue)
            if $0.commandCodes.count > 256 { $0.commandCodes.removeFirst() }
        }
        let frame = PN532Frame.command(command.rawValue, parameters).bytes
        try sendAcknowledged(frame, command)
        return try response(to: command, within: timeout + line.transferTime(of: PN532Frame.maximumLength + 9) + slack)
    }

    /// Sends the frame until the chip acknowledges it, at most three times.
    private func sendAcknowledged(_ frame: [UInt8], _ command: PN532Command) throws(TransportError) {
        for attempt in 1...3 {
            if attempt > 1 { tally.withLock { $0.resends += 1 } }
            try send(frame)
            let deadline = ContinuousClock.now + Self.acknowledgementWait + slack + line.transferTime(of: frame.count + 6)
            while let next = try nextFrame(until: deadline) {
                switch next {
                case .success(.ack): return
                case .success(.syntaxError):
                    throw TransportError(
                        .unsupportedCommand,
                        "\(line.name): the PN532 refused \(command.manualName)'s frame (its error frame, UM0701-02 §6.2.1.5)")
                case .success(.information(let tfi, let data)):
                    throw TransportError(
                        .protocolViolation,
                        "\(line.name): \(command.manualName) was answered without an ACK (TFI \(Hex.encode([tfi], uppercase: true)), \(data.count) bytes)"
                    )
                case .success(.nack), .failure:
                    continue  // a damaged ACK: wait for the deadline, then send again
                }
            }
        }
        throw TransportError(.timeout, "\(line.name): the PN532 did not acknowledge \(command.manualName) (three sends, UM0701-02 §6.2.3)")
    }

    /// Waits for the response frame to `command`, asking again with a NACK when it is damaged.
    private func response(to command: PN532Command, within timeout: Duration) throws(TransportError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var damaged = 0
        while true {
            guard let next = try nextFrame(until: deadline) else {
                // An ACK aborts the command (§6.2.1.3): the chip is ready for the next one.
                try? send(PN532Frame.ack.bytes)
                throw TransportError(.timeout, "\(line.name): no answer to \(command.manualName) within \(timeout)")
            }
            switch next {
            case .success(.information(let tfi, let data)):
                guard tfi == PN532Frame.pn532ToHost, data.first == command.rawValue &+ 1 else {
                    let code = data.first.map { Hex.encode([$0], uppercase: true) } ?? "none"
                    throw TransportError(
                        .protocolViolation,
                        "\(line.name): \(command.manualName) was answered with TFI \(Hex.encode([tfi], uppercase: true)) and code \(code)")
                }
                return Array(data.dropFirst())
            case .success(.syntaxError):
                throw TransportError(
                    .unsupportedCommand, "\(line.name): the PN532 refused \(command.manualName) (its error frame, UM0701-02 §6.2.1.5)")
            case .success(.ack), .success(.nack):
                continue  // the ACK of a resent frame
            case .failure(let error):
                damaged += 1
                tally.withLock { $0.nacks += 1 }
                guard damaged <= 3 else {
                    throw TransportError(
                        .transmission, "\(line.name): \(command.manualName)'s answer arrived damaged \(damaged) times (\(error))")
                }
                try send(PN532Frame.nack.bytes)  // §6.2.1.4: the chip sends its response again
            }
        }
    }

    private func send(_ bytes: [UInt8]) throws(TransportError) {
        try line.write(bytes, timeout: line.transferTime(of: bytes.count) + .seconds(1))
        tally.withLock { $0.bytesSent += bytes.count }
    }

    /// The next frame (or damaged frame) the line brings before `deadline`, or nil.
    private func nextFrame(until deadline: ContinuousClock.Instant) throws(TransportError) -> Result<PN532Frame, PN532FrameError>? {
        while pending.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let bytes = try line.read(timeout: left)
            guard !bytes.isEmpty else { return nil }
            tally.withLock { $0.bytesReceived += bytes.count }
            pending += decoder.feed(bytes)
        }
        return pending.removeFirst()
    }
}
