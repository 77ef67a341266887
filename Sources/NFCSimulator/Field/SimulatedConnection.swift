import NFCBytes
import NFCTransport

/// A connection to a virtual tag in a ``SimulatedField``.
public final class SimulatedConnection: TagConnection {
    public let target: TargetInfo
    public let limits: ExchangeLimits
    public let bitRate: BitRate
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

    public func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard open.withLock({ $0 }) else { throw TransportError(.notConnected, "the connection to \(tagID) is closed") }
        return try await field.exchange(tagID, command: command, timeout: timeout, meter: meter)
    }

    public func reactivate() async throws(TransportError) {
        guard open.withLock({ $0 }) else { throw TransportError(.notConnected, "the connection to \(tagID) is closed") }
        try await field.activate(tagID, meter: meter)
    }

    public func disconnect() async {
        open.withLock { $0 = false }
    }
}
