import Dispatch
import ISO7816
import NFCTransport

/// A fuzz input read as the answers a hostile tag or card gives, one per command.
///
/// Framing: one length byte `n` then `n` answer bytes; `FF hi lo` gives a longer length; `FE`
/// means "no answer" (the exchange times out). When the script runs out the tag is lost.
/// Seeds are written in the same framing (``AnswerScript/encode(_:)``).
final class AnswerScript: @unchecked Sendable {
    private var bytes: ArraySlice<UInt8>
    private let lock = DispatchSemaphore(value: 1)
    private(set) var exchanges = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    static let timeoutMarker: UInt8 = 0xFE
    static let longMarker: UInt8 = 0xFF

    /// The next answer: bytes, or nil for a timeout; throws `.tagLost` when the script is over.
    func next() throws(TransportError) -> [UInt8]? {
        lock.wait()
        defer { lock.signal() }
        exchanges += 1
        guard let first = bytes.first, exchanges < 4096 else { throw TransportError(.tagLost, "script over") }
        bytes = bytes.dropFirst()
        var length = Int(first)
        if first == Self.timeoutMarker { return nil }
        if first == Self.longMarker {
            guard bytes.count >= 2 else { throw TransportError(.tagLost, "script over") }
            length = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
            bytes = bytes.dropFirst(2)
        }
        let answer = Array(bytes.prefix(length))
        bytes = bytes.dropFirst(length)
        return answer
    }

    /// Frames recorded answers (nil: a timeout) for a seed file.
    static func encode(_ answers: [[UInt8]?]) -> [UInt8] {
        var out: [UInt8] = []
        for answer in answers {
            guard let answer else {
                out.append(timeoutMarker)
                continue
            }
            if answer.count < Int(timeoutMarker) {
                out.append(UInt8(answer.count))
            } else {
                out += [longMarker, UInt8(truncatingIfNeeded: answer.count >> 8), UInt8(truncatingIfNeeded: answer.count)]
            }
            out += answer
        }
        return out
    }
}

/// A tag connection whose tag answers from an ``AnswerScript``.
final class ScriptedConnection: TagConnection {
    let target: TargetInfo
    let limits: ExchangeLimits
    let bitRate: BitRate = .kbps106
    let meter = AirTimeMeter()
    let script: AnswerScript

    init(target: TargetInfo, limits: ExchangeLimits, script: AnswerScript) {
        self.target = target
        self.limits = limits
        self.script = script
    }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard let answer = try script.next() else { throw TransportError(.timeout, "no answer") }
        return answer
    }

    func reactivate() async throws(TransportError) {}
    func disconnect() async {}
}

/// An APDU transmitter whose card answers from an ``AnswerScript``.
struct ScriptedTransmitter: APDUTransmitter {
    let supportsExtendedLength: Bool
    let script: AnswerScript

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        guard let answer = try script.next() else { throw TransportError(.timeout, "no answer") }
        return answer
    }
}

/// Records what a real (simulated) connection answers, to write seeds.
final class RecordingConnection: TagConnection, @unchecked Sendable {
    let inner: any TagConnection
    private(set) var answers: [[UInt8]?] = []
    var target: TargetInfo { inner.target }
    var limits: ExchangeLimits { inner.limits }
    var bitRate: BitRate { inner.bitRate }
    var meter: AirTimeMeter { inner.meter }

    init(_ inner: any TagConnection) { self.inner = inner }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        do {
            let answer = try await inner.transceive(command, timeout: timeout)
            answers.append(answer)
            return answer
        } catch  where error.code == .timeout {
            answers.append(nil)
            throw error
        }
    }

    func reactivate() async throws(TransportError) { try await inner.reactivate() }
    func disconnect() async { await inner.disconnect() }
    func reset() { answers = [] }
}

/// An APDU transmitter over a connection to an ISO-DEP card.
struct ConnectionTransmitter: APDUTransmitter {
    let connection: any TagConnection
    var supportsExtendedLength: Bool { connection.limits.extendedLengthAPDUs }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        try await connection.transceive(command, timeout: .seconds(1))
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs async work to completion from libFuzzer's synchronous callback. The scripted
/// connections never suspend for long, so the cooperative pool finishes the task at once.
func runBlocking<T>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    guard let value = box.value else { fatalError("task ended without a value") }  // trap-ok: harness
    return value
}
