import NFCBytes
import NFCTransport

/// The initiator's connection to the card a PN532 target's host program plays
/// (``PN532TargetField``). With the chip's PICC emulation the card takes APDUs (the chip runs
/// the ISO/IEC 14443-4 blocks); without it, raw frames.
final class PN532TargetConnection: TagConnection, Sendable {
    let target: TargetInfo
    let limits = PN532TargetField.limits
    let bitRate = BitRate.kbps106
    let meter: AirTimeMeter
    private let field: PN532TargetField
    private let closed = Guarded(false)

    init(field: PN532TargetField, target: TargetInfo, meter: AirTimeMeter) {
        self.field = field
        self.target = target
        self.meter = meter
    }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard !closed.withLock({ $0 }) else {
            throw TransportError(.notConnected, "\(field.name): the connection to \(target) is closed")
        }
        guard command.count <= limits.maxCommandLength else {
            throw TransportError(.frameTooLong, "\(field.name): a command of \(command.count) bytes (at most \(limits.maxCommandLength))")
        }
        return try await meter.measure(sending: command) { () throws(TransportError) -> [UInt8] in
            try await field.exchange(command, handle: target.handle, timeout: timeout)
        }
    }

    /// The card stays active until released; there is nothing to do again.
    func reactivate() async throws(TransportError) {
        guard !closed.withLock({ $0 }) else {
            throw TransportError(.notConnected, "\(field.name): the connection to \(target) is closed")
        }
    }

    func disconnect() async {
        let wasClosed = closed.withLock { state in
            defer { state = true }
            return state
        }
        if !wasClosed { await field.release(handle: target.handle) }
    }
}
