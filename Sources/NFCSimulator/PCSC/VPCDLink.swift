import Logging
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The card side of vpcd, pcscd's virtual reader driver (vsmartcard vpcd protocol): a TCP client
/// that makes an ``EmulatedReaderFront`` the card in vpcd's reader.
///
/// Every message either way is a 2-byte big-endian length and a payload. vpcd sends 1-byte
/// control payloads — `00` power off, `01` power on, `02` reset (none answered), `04` get ATR
/// (answered with the ATR) — and APDUs, answered with the response APDU. Closing the socket
/// removes the card. Each reply goes out as one `send` on a `TCP_NODELAY` socket.
///
/// ``serve(_:removeAfter:afterCommand:)`` is a blocking loop: run it on a thread of its own.
/// ``stop()`` may be called from any thread; it shuts the socket down so the loop returns
/// ``VPCDLinkEnding/stopped`` at once. A link can connect again after a connection ended
/// (pcscd restarted), but not after ``stop()``.
public final class VPCDLink: Sendable {
    /// The control payloads of the vpcd protocol.
    enum Control: UInt8 {
        case powerOff = 0x00
        case powerOn = 0x01
        case reset = 0x02
        case getATR = 0x04
    }

    /// Where vpcd listens.
    public let endpoint: VPCDEndpoint

    private struct State {
        var socket: Int32?
        var stopRequested = false
    }

    private let state = Guarded(State())

    /// A link to vpcd at `endpoint` (the local host's first reader by default); it connects only when asked.
    public init(endpoint: VPCDEndpoint = VPCDEndpoint()) {
        self.endpoint = endpoint
    }

    deinit {
        state.withLock { state in
            if let fd = state.socket { close(fd) }
        }
    }

    /// Whether ``stop()`` was called.
    public var isStopRequested: Bool { state.withLock { $0.stopRequested } }

    /// Whether a connection is open.
    public var isConnected: Bool { state.withLock { $0.socket != nil } }

    /// Connects to vpcd (nothing to do when connected).
    /// - Throws: ``VPCDLinkError/connectionRefused(_:)`` when nothing listens (pcscd not
    ///   running), ``VPCDLinkError/stopped`` after ``stop()``, or another connection failure.
    public func connect() throws(VPCDLinkError) {
        if isConnected { return }
        let fd = try TCPSocket.connect(to: endpoint) { self.isStopRequested }
        let kept = state.withLock { state -> Bool in
            guard !state.stopRequested else { return false }
            state.socket = fd
            return true
        }
        if !kept {
            close(fd)
            throw .stopped
        }
        EmulationLog.logger.debug("connected to vpcd", metadata: ["endpoint": "\(endpoint)"])
    }

    /// Answers vpcd until the connection ends, and says why it ended; the socket is closed then.
    ///
    /// - Parameters:
    ///   - front: the reader and its tag; power and reset messages reach it, APDUs are answered
    ///     by it. It keeps its state (tag memory, command count) across connections.
    ///   - removeAfter: the card leaves after this many APDUs in all (``EmulatedReaderFront/commandCount``):
    ///     the next APDU closes the connection without an answer, as a tag pulled out mid-command.
    ///   - afterCommand: called after each APDU's answer was sent (e.g. to save the tag when
    ///     ``EmulatedReaderFront/lastCommandWroteMemory``).
    public func serve(
        _ front: inout EmulatedReaderFront, removeAfter: Int? = nil,
        afterCommand: (EmulatedReaderFront) -> Void = { _ in }
    ) -> VPCDLinkEnding {
        guard let fd = state.withLock({ $0.socket }) else {
            return isStopRequested ? .stopped : .failed(.notConnected)
        }
        defer { disconnect() }
        while true {
            let payload: [UInt8]
            switch receive(fd) {
            case .message(let bytes): payload = bytes
            case .ended(let ending):
                EmulationLog.logger.debug("vpcd connection ended: \(ending)", metadata: ["endpoint": "\(endpoint)"])
                return ending
            }
            if payload.count == 1 {
                guard let control = Control(rawValue: payload[0]) else { continue }
                switch control {
                case .powerOff: front.powerOff()
                case .powerOn, .reset: front.powerOn()
                case .getATR:
                    if let ending = reply(front.atr, on: fd) { return ending }
                }
                continue
            }
            guard !payload.isEmpty else { continue }
            if let removeAfter, front.commandCount >= removeAfter {
                return .cardRemoved(afterCommands: front.commandCount)
            }
            EmulationLog.logger.trace("→ \(Hex.encode(payload))")
            var response = front.respond(to: payload)
            if response.count > 0xFFFF {
                // Not carried by a vpcd message; the client learns only that the length was wrong.
                response = ReaderStatusWord.wrongLength
            }
            EmulationLog.logger.trace("← \(Hex.encode(response))")
            if let ending = reply(response, on: fd) { return ending }
            afterCommand(front)
        }
    }

    /// Asks a running ``serve(_:removeAfter:afterCommand:)`` to end, and any later ``connect()``
    /// to fail; from any thread.
    public func stop() {
        state.withLock { state in
            state.stopRequested = true
            if let fd = state.socket { TCPSocket.shutDown(fd) }
        }
    }

    /// Closes the connection, which removes the card from vpcd's reader (only ``serve(_:removeAfter:afterCommand:)``
    /// does, when it returns: no other thread may close a socket it reads).
    private func disconnect() {
        let fd = state.withLock { state -> Int32? in
            defer { state.socket = nil }
            return state.socket
        }
        if let fd { close(fd) }
    }

    // MARK: Messages

    private enum Received {
        case message([UInt8])
        case ended(VPCDLinkEnding)
    }

    /// One message: the 2-byte big-endian length, then the payload.
    private func receive(_ fd: Int32) -> Received {
        let header: [UInt8]
        switch TCPSocket.read(fd, count: 2) {
        case .bytes(let bytes): header = bytes
        case .closed: return .ended(isStopRequested ? .stopped : .peerClosed)
        case .failed(let code): return .ended(isStopRequested ? .stopped : .failed(.io(operation: "recv", errno: code)))
        }
        guard header.count == 2 else { return .ended(.peerClosed) }
        let length = Int(header[0]) << 8 | Int(header[1])
        if length == 0 { return .message([]) }
        switch TCPSocket.read(fd, count: length) {
        case .bytes(let bytes): return .message(bytes)
        case .closed: return .ended(isStopRequested ? .stopped : .peerClosed)
        case .failed(let code): return .ended(isStopRequested ? .stopped : .failed(.io(operation: "recv", errno: code)))
        }
    }

    /// Sends a length-prefixed reply; returns how the link ended when it could not.
    private func reply(_ payload: [UInt8], on fd: Int32) -> VPCDLinkEnding? {
        guard payload.count <= 0xFFFF else { return .failed(.responseTooLong(payload.count)) }
        let message = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        let code = TCPSocket.write(fd, message)
        guard code != 0 else { return nil }
        if isStopRequested { return .stopped }
        if code == EPIPE || code == ECONNRESET { return .peerClosed }
        return .failed(.io(operation: "send", errno: code))
    }
}
