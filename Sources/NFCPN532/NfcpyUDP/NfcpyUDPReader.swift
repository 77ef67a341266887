import Dispatch
import NFCBytes
import NFCTransport

/// `nfcpy-udp:HOST:PORT`: a reader whose card is nfcpy's own tag emulation on its software UDP
/// frontend (`nfc.ContactlessFrontend('udp:HOST:PORT')` listening as `LocalTarget('212F')` with
/// `Type3TagEmulation`) — an outside check of our Type 3 engine.
///
/// nfcpy emulates only Type 3 (FeliCa) tags, so this reader polls FeliCa at 212 kbit/s only:
/// Polling (JIS X 6319-4 §9.1: `LEN 00 SC SC RC TSN`) for system code `12FC` (NDEF) with request
/// code 1, then for the wildcard `FFFF`. It keeps one socket for its life, as nfcpy's listener
/// answers the address that polled it, and since nfcpy matches no answer to its command, it
/// throws away stale datagrams before each command. Disconnecting sends `RFOFF`, which ends
/// nfcpy's listen.
public actor NfcpyUDPReader: ReaderDriver {
    /// `nfcpy-udp:HOST:PORT`.
    public nonisolated let name: String
    private let link: NfcpyUDPLink
    private var connected = false
    private var handles: UInt64 = 0
    private var lastIDm: [UInt8]?
    /// How long a poll waits for the listener's answer (200 ms unless set): nfcpy answers from
    /// Python, after its own scheduling, so far slower than a card.
    let pollWait: Duration
    /// The least an exchange waits, whatever its time-out says (500 ms unless set; see ``pollWait``).
    let minimumExchangeWait: Duration
    /// How often ``events(matching:)`` polls while no card is connected.
    static let eventPollInterval = Duration.milliseconds(250)

    /// A reader for the nfcpy listener at `host` and `port`, whose polls wait `pollWait` for an
    /// answer and whose exchanges wait at least `minimumExchangeWait`; the socket opens on first use.
    public init(
        host: String, port: UInt16, pollWait: Duration = .milliseconds(200), minimumExchangeWait: Duration = .milliseconds(500)
    ) {
        self.pollWait = pollWait
        self.minimumExchangeWait = minimumExchangeWait
        link = NfcpyUDPLink(host: host, port: port)
        name = "nfcpy-udp:\(host):\(port)"
    }

    /// FeliCa cards answering a Polling for `12FC`, else for `FFFF`; none for other technologies.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        guard mask.contains(.felica), !connected else { return [] }
        for systemCode: [UInt8] in [[0x12, 0xFC], [0xFF, 0xFF]] {
            let polling: [UInt8] = [0x06, 0x00] + systemCode + [0x01, 0x00]
            let reply = try await link.exchange(.frame(.f212, polling), waiting: pollWait)
            guard case .frame(.f212, let answer)? = reply else { continue }
            guard answer.count >= 18, Int(answer[0]) == answer.count, answer[1] == 0x01 else { continue }
            let code =
                answer.count >= 20 ? UInt16(answer[18]) << 8 | UInt16(answer[19]) : UInt16(systemCode[0]) << 8 | UInt16(systemCode[1])
            let idm = Array(answer[2..<10])
            // The same card keeps its handle from poll to poll, so a connect after a later poll finds it.
            if lastIDm != idm {
                handles += 1
                lastIDm = idm
            }
            return [TargetInfo(handle: handles, identifier: idm, parameters: .felica(.init(pmm: Array(answer[10..<18]), systemCode: code)))]
        }
        return []
    }

    /// Arrivals and departures, polling every 250 ms while no card is connected.
    public func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderEvent.self)
        let task = Task {
            var present: TargetInfo?
            while !Task.isCancelled {
                if !self.connected {
                    let found = (try? await self.targets(matching: mask))?.first
                    if let old = present, found?.identifier != old.identifier {
                        continuation.yield(.targetLeft(old))
                        present = nil
                    }
                    if present == nil, let found {
                        continuation.yield(.targetArrived(found))
                        present = found
                    }
                }
                try? await Task.sleep(for: Self.eventPollInterval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Connects to the card the polls found (the listener stays activated until `RFOFF`).
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        guard case .felica = target.parameters, target.handle == handles else {
            throw TransportError(.noSuchTarget, "\(name): \(target) is not the card the polls found")
        }
        connected = true
        return NfcpyUDPConnection(reader: self, target: target, meter: meter)
    }

    /// One FeliCa command: `212F LEN command`, the answer's LEN checked and removed.
    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard connected else { throw TransportError(.notConnected, "\(name): no card is connected") }
        let wait = max(timeout, minimumExchangeWait)
        guard let answer = try await link.exchange(.frame(.f212, [UInt8(command.count + 1)] + command), waiting: wait) else {
            throw TransportError(.timeout, "\(name): no answer in \(wait)")
        }
        guard case .frame(.f212, let framed) = answer, let length = framed.first, Int(length) == framed.count, framed.count >= 2 else {
            throw TransportError(.protocolViolation, "\(name): the answer \"\(answer)\" is not a FeliCa frame with its LEN byte")
        }
        return Array(framed.dropFirst())
    }

    /// Switches the field off (`RFOFF`): nfcpy's listener ends its activation.
    func disconnect() async {
        guard connected else { return }
        connected = false
        await link.send(.fieldOff)
    }
}

/// The reader's socket and its one peer. Each exchange — throw away stale datagrams, send, wait
/// for the next datagram — runs whole on a serial dispatch queue, so that exchanges never
/// interleave and no wait holds a thread of Swift concurrency.
final class NfcpyUDPLink: Sendable {
    private let host: String
    private let port: UInt16
    private let queue = DispatchQueue(label: "opencorenfc.nfcpy-udp.reader")
    private let state = Guarded<(socket: UDPSocket, peer: UDPSocket.Address)?>(nil)

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The socket, opened on first use (on the queue).
    private func open() throws(TransportError) -> (UDPSocket, UDPSocket.Address) {
        if let open = state.withLock({ $0 }) { return open }
        let peer = try UDPSocket.Address.resolve(host, port: port)
        let socket = try UDPSocket(binding: UDPSocket.Address(address: 0, port: 0))
        state.withLock { $0 = (socket, peer) }
        return (socket, peer)
    }

    /// Sends `frame` and returns the next datagram nfcpy's frontend understands, or nil after `wait`.
    func exchange(_ frame: NfcpyUDPFrame, waiting wait: Duration) async throws(TransportError) -> NfcpyUDPFrame? {
        let result: Result<NfcpyUDPFrame?, TransportError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(TransportError) -> NfcpyUDPFrame? in try self.blockingExchange(frame, wait) })
            }
        }
        return try result.get()
    }

    /// Sends `frame` expecting no answer.
    func send(_ frame: NfcpyUDPFrame) async {
        await withCheckedContinuation { continuation in
            queue.async {
                if let (socket, peer) = try? self.open() { try? socket.send(frame.datagram, to: peer) }
                continuation.resume()
            }
        }
    }

    private func blockingExchange(_ frame: NfcpyUDPFrame, _ wait: Duration) throws(TransportError) -> NfcpyUDPFrame? {
        let (socket, peer) = try open()
        socket.drain()
        try socket.send(frame.datagram, to: peer)
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard let (bytes, sender) = socket.receive(waiting: Int32(max(1, min(milliseconds, 60_000)))) else { continue }
            guard sender == peer else { continue }  // only the listener answers
            if let answer = NfcpyUDPFrame(datagram: bytes) { return answer }
        }
    }
}

/// The connection to nfcpy's emulated Type 3 tag.
final class NfcpyUDPConnection: TagConnection, Sendable {
    let target: TargetInfo
    /// FeliCa frames up to 254 bytes with their LEN byte.
    let limits = ExchangeLimits(maxCommandLength: 253, maxResponseLength: 253, extendedLengthAPDUs: false, nativeCommands: .all)
    let bitRate = BitRate.kbps212
    let meter: AirTimeMeter
    private let reader: NfcpyUDPReader
    private let closed = Guarded(false)

    init(reader: NfcpyUDPReader, target: TargetInfo, meter: AirTimeMeter) {
        self.reader = reader
        self.target = target
        self.meter = meter
    }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard !closed.withLock({ $0 }) else { throw TransportError(.notConnected, "\(reader.name): the connection is closed") }
        guard command.count <= limits.maxCommandLength else {
            throw TransportError(.frameTooLong, "\(reader.name): a command of \(command.count) bytes (at most \(limits.maxCommandLength))")
        }
        return try await meter.measure(sending: command) { () throws(TransportError) -> [UInt8] in
            try await reader.transceive(command, timeout: timeout)
        }
    }

    func reactivate() async throws(TransportError) {
        guard !closed.withLock({ $0 }) else { throw TransportError(.notConnected, "\(reader.name): the connection is closed") }
    }

    func disconnect() async {
        let wasClosed = closed.withLock { state in
            defer { state = true }
            return state
        }
        if !wasClosed { await reader.disconnect() }
    }
}
