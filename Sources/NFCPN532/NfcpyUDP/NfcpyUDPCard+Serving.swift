import Dispatch
import NFCBytes
import NFCTransport

extension NfcpyUDPCard {
    /// What a reader sent and what the card answered so far.
    package struct Statistics: Sendable, Hashable {
        /// Frames received, by bit rate and technology.
        package var received: [NfcpyUDPFrame.NfcpyBitRate: Int] = [:]
        /// `RFOFF` datagrams received.
        package var fieldOffs = 0
        /// Datagrams the card answered.
        package var answered = 0
        /// Nothing yet.
        package init() {}
    }

    /// An open UDP port for ``NfcpyUDPCard/serve(port:driver:stopped:afterOutput:)``.
    package final class Port: Sendable {
        let socket: UDPSocket
        /// The address and port bound, e.g. `127.0.0.1:54321`.
        package let description: String
        /// The port bound (the one the system chose when asked for port 0).
        package let port: UInt16

        /// Binds `host` (an IPv4 address or name; `0.0.0.0` for every interface) and `port` (0: any free one).
        /// - Throws: `TransportError` `.noSuchTarget` for a host that does not resolve,
        ///   `.sharingViolation` when the port is taken.
        package init(host: String, port: UInt16) throws(TransportError) {
            let address = try UDPSocket.Address.resolve(host, port: port)
            socket = try UDPSocket(binding: address)
            let bound = socket.localAddress
            description = bound.description
            self.port = bound.port
        }

        /// Closes the port; call it after ``NfcpyUDPCard/serve(port:driver:stopped:afterOutput:)`` returned (its thread reads the socket until then).
        package func close() { socket.close() }
    }

    /// Answers nfcpy's UDP reader as the card of `driver`'s field, on `port`, until `stopped`
    /// turns true. Datagrams are read on a thread of their own (100 ms polls, so that a stop is
    /// seen at once), answered in order, each answer sent at once to the datagram's sender (nfcpy
    /// takes a late answer for the answer to its next command); `afterOutput` runs after each
    /// answer (the emulator queues an image save there).
    @discardableResult
    package static func serve(
        port: Port, driver: any ReaderDriver, stopped: Guarded<Bool>, afterOutput: @escaping @Sendable () async -> Void = {}
    ) async -> Statistics {
        let card = NfcpyUDPCard(driver: driver)
        let socket = port.socket
        let (incoming, feed) = AsyncStream.makeStream(of: (bytes: [UInt8], sender: UDPSocket.Address).self)
        DispatchQueue(label: "opencorenfc.nfcpy-udp.serve").async {
            while !stopped.withLock({ $0 }) {
                if let datagram = socket.receive(waiting: 100) { feed.yield(datagram) }
            }
            feed.finish()
        }
        var statistics = Statistics()
        for await (bytes, sender) in incoming {
            guard let frame = NfcpyUDPFrame(datagram: bytes) else { continue }
            switch frame {
            case .fieldOff: statistics.fieldOffs += 1
            case .frame(let rate, _): statistics.received[rate, default: 0] += 1
            }
            guard let answer = await card.receive(frame) else { continue }
            try? socket.send(answer.datagram, to: sender)
            statistics.answered += 1
            await afterOutput()
        }
        _ = await card.receive(.fieldOff)
        return statistics
    }
}
