import NFCBytes
import NFCTransport

/// A connection to a virtual tag in a ``SimulatedField``.
public final class SimulatedConnection: TagConnection {
    /// The tag as it was when the connection opened.
    public let target: TargetInfo
    /// The simulated reader's limits (``SimulatedReaderConfiguration/limits``).
    public let limits: ExchangeLimits
    /// The bit rate agreed at activation.
    public let bitRate: BitRate
    /// The meter the field charges for every exchange on this connection.
    public let meter: AirTimeMeter
    /// The tag this connection talks to.
    public let tagID: VirtualTagID
    private let field: SimulatedField
    private let open = Guarded(true)

    init(field: SimulatedField, id: VirtualTagID, target: TargetInfo, limits: ExchangeLimits, bitRate: BitRate, meter: AirTimeMeter) {
        self.field = field
        self.tagID = id
        self.target = target
        self.limits = limits
        self.bitRate = bitRate
        self.meter = meter
    }

    /// Sends one frame to the tag and returns its answer, after the field charges the exchange's air time and applies
    /// any armed fault.
    ///
    /// - Throws: `TransportError` `.notConnected` after ``disconnect()``; `.tagLost` when the tag has left or leaves during
    /// the command; `.timeout` when it does not answer or answers later than `timeout`; `.frameTooLong` when the command
    /// or the answer exceeds the reader's limits; `.unsupportedCommand` for a native command a `readAndWriteOnly` reader
    /// cannot carry; `.transmission` for an injected CRC error.
    public func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard open.withLock({ $0 }) else { throw TransportError(.notConnected, "the connection to \(tagID) is closed") }
        return try await field.exchange(tagID, command: command, timeout: timeout, meter: meter)
    }

    /// Activates the tag again (as after a field reset), charging the activation's air time.
    ///
    /// - Throws: `TransportError` `.notConnected` after ``disconnect()``; `.tagLost` when the tag is not in the field.
    public func reactivate() async throws(TransportError) {
        guard open.withLock({ $0 }) else { throw TransportError(.notConnected, "the connection to \(tagID) is closed") }
        try await field.activate(tagID, meter: meter)
    }

    /// Closes the connection; later calls throw `.notConnected`. The tag stays in the field.
    public func disconnect() async {
        open.withLock { $0 = false }
    }
}
