import Dispatch
import NFCBytes
import NFCPN532
import NFCSimulator
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two connected stream sockets: a serial line in a test, without a terminal.
func socketPair() -> (host: Int32, chip: Int32) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc)
    let kind = Int32(SOCK_STREAM.rawValue)
    #else
    let kind = SOCK_STREAM
    #endif
    precondition(socketpair(AF_UNIX, kind, 0, &fds) == 0, "socketpair failed")
    // A write to a pair whose other end a test closed must be an error, not the end of the process.
    signal(SIGPIPE, SIG_IGN)
    return (fds[0], fds[1])
}

/// A ``PN532Driver`` on one end of a socket pair and the virtual PN532 on the other, with the
/// simulated field in front of it: the whole host path, as over a pseudo-terminal.
final class VirtualBoard: Sendable {
    let driver: PN532Driver
    let field: SimulatedField
    let line: PN532Line
    private let stopped = Guarded(false)
    private let served: Task<Void, Never>

    init(_ kinds: [VirtualTagKind]) async throws {
        let field = SimulatedField(clock: SimulatedClock())
        for kind in kinds { await field.place(try kind.make()) }
        self.field = field
        let (host, chip) = socketPair()
        let line = PN532Line(fileDescriptor: host, name: "pn532:test")
        self.line = line
        let stopped = self.stopped
        served = Task.detached {
            await VirtualPN532.serve(fileDescriptor: chip, driver: field, stopped: stopped)
            _ = close(chip)
        }
        // The chip shares the test process with the whole suite: scheduling delays are not protocol failures.
        driver = PN532Driver(name: "pn532:test", slack: .seconds(20)) { () throws(TransportError) -> PN532Line in line }
    }

    /// Stops the chip and waits for it.
    func stop() async {
        stopped.withLock { $0 = true }
        line.close()
        await served.value
    }
}

/// The other end of a socket pair, answering each command frame the way a test says: hostile or
/// broken chips (wrong checksums, error frames, silence, a line that closes).
final class ScriptedChip: Sendable {
    /// What the chip writes for a command frame (its data from the command code on); `nil`
    /// closes the line.
    typealias Script = @Sendable (_ data: [UInt8], _ count: Int) -> [UInt8]?
    let line: PN532Line
    /// Every frame the host wrote, in order (NACKs included).
    let received = Guarded<[PN532Frame]>([])
    private let stopped = Guarded(false)
    /// One element per frame received: what ``received(until:)`` waits on.
    private let arrivals: AsyncStream<Void>

    init(_ script: @escaping Script) {
        let (host, chip) = socketPair()
        line = PN532Line(fileDescriptor: host, name: "pn532:scripted")
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        self.arrivals = arrivals
        let (received, stopped) = (self.received, self.stopped)
        DispatchQueue(label: "scripted-chip").async {
            var decoder = PN532FrameDecoder()
            var commands = 0
            var buffer = [UInt8](repeating: 0, count: 512)
            loop: while !stopped.withLock({ $0 }) {
                var poller = pollfd(fd: chip, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(chip, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for case .success(let frame) in decoder.feed(buffer[0..<count]) {
                    received.withLock { $0.append(frame) }
                    arrived.yield()
                    let data: [UInt8]
                    switch frame {
                    case .information(_, let bytes): data = bytes
                    case .nack: data = [0xFF]  // a NACK reaches the script as FF
                    default: continue
                    }
                    commands += 1
                    guard let answer = script(data, commands) else { break loop }
                    _ = answer.withUnsafeBytes { write(chip, $0.baseAddress, $0.count) }
                }
            }
            _ = close(chip)
            arrived.finish()
        }
    }

    /// The frames received once `condition` holds for them, waiting for each new frame (no
    /// polling); what was received when the chip's thread ended if it never does.
    func received(until condition: ([PN532Frame]) -> Bool) async -> [PN532Frame] {
        var iterator = arrivals.makeAsyncIterator()
        while true {
            let frames = received.withLock { $0 }
            if condition(frames) { return frames }
            guard await iterator.next() != nil else { return received.withLock { $0 } }
        }
    }

    /// An ACK and a good response to `data` with `bytes` after the response code.
    static func answer(_ data: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        PN532Frame.ack.bytes + PN532Frame.response(to: data[0], bytes).bytes
    }

    /// Answers for the driver's start: SAMConfiguration, GetFirmwareVersion (a PN532 1.6),
    /// RFConfiguration; nil for anything else.
    static func start(_ data: [UInt8]) -> [UInt8]? {
        switch data.first {
        case 0x14, 0x32: answer(data, [])
        case 0x02: answer(data, [0x32, 0x01, 0x06, 0x07])
        default: nil
        }
    }

    /// A driver on this line. The slack is long (the chip's thread shares the machine with the
    /// whole suite) unless a silent case wants its time-out soon (50 ms: three sends take 0.2 s).
    func driver(slack: Duration = .seconds(5)) -> PN532Driver {
        let line = self.line
        return PN532Driver(name: "pn532:scripted", slack: slack) { () throws(TransportError) -> PN532Line in line }
    }

    /// Stops the chip's thread: it sees the line closed, or the flag within 50 ms. Never waits
    /// (a test's `defer` runs on one of Swift concurrency's few threads).
    func stop() {
        stopped.withLock { $0 = true }
        line.close()
    }
}
