import NDEF
import NFCBytes
import NFCSimulator
import NFCTags
import NFCTransport

/// A simulated field holding one ISO/IEC 15693 tag, connected, for the Type 5 suites.
struct Type5Field {
    let field: SimulatedField
    let id: VirtualTagID
    let connection: any TagConnection
    let meter: AirTimeMeter

    /// Places a catalogue tag and connects; the meter starts at zero after activation.
    init(_ kind: VirtualTagKind, blank: Bool = false, configuration: SimulatedReaderConfiguration = .ideal) async throws {
        try await self.init(tag: kind.make(blank: blank), configuration: configuration)
    }

    /// Places a tag and connects; the meter starts at zero after activation.
    init(tag: any VirtualTag, configuration: SimulatedReaderConfiguration = .ideal) async throws {
        field = SimulatedField(configuration: configuration)
        id = await field.place(tag)
        (connection, meter) = try await Self.connect(field)
    }

    private init(field: SimulatedField, id: VirtualTagID, connection: any TagConnection, meter: AirTimeMeter) {
        self.field = field
        self.id = id
        self.connection = connection
        self.meter = meter
    }

    private static func connect(_ field: SimulatedField) async throws -> (any TagConnection, AirTimeMeter) {
        guard let target = try await field.targets(matching: .all).first else {
            throw TransportError(.noSuchTarget, "no tag in the field")
        }
        let meter = AirTimeMeter()
        let connection = try await field.connect(to: target, meter: meter)
        meter.reset()
        return (connection, meter)
    }

    /// Brings the tag back after a fault took it away and connects again.
    func reinserted() async throws -> Type5Field {
        await field.reinsert(id)
        let (connection, meter) = try await Self.connect(field)
        return Type5Field(field: field, id: id, connection: connection, meter: meter)
    }

    /// The tag's state now.
    func tag() async -> ISO15693Tag? { await field.tag(id, as: ISO15693Tag.self) }

    /// Replaces the tag's memory from a byte offset (a test's way to preset a malformed layout).
    func poke(_ bytes: [UInt8], at offset: Int) async throws {
        guard let tag = await tag() else { throw TransportError(.noSuchTarget, "no tag") }
        var memory = tag.blocks.flatMap { $0 }
        memory.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        let blocks = stride(from: 0, to: memory.count, by: 4).map { Array(memory[$0..<($0 + 4)]) }
        let rebuilt = try ISO15693Tag(
            model: tag.model, uid: tag.uid, blocks: blocks, afi: tag.afi, dsfid: tag.dsfid,
            lockedBlocks: tag.lockedBlocks, slix2: tag.slix2
        )
        await field.update(id) { $0 = rebuilt }
    }

    /// Air time in microseconds since the meter was last reset.
    var airTimeMicroseconds: Double { Type5Air.microseconds(meter.statistics.airTime) }
}

/// Messages and air-time arithmetic for the Type 5 suites.
enum Type5Fixtures {
    /// An encoded NDEF message of exactly `length` bytes (one MIME record `a/b`, ≥ 6 bytes),
    /// its payload filled from `seed`.
    static func message(length: Int, seed: UInt8 = 0x41) -> [UInt8] {
        let short = length - 6 <= 255
        let payloadLength = length - (short ? 6 : 9)
        let payload = (0..<payloadLength).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) }
        let bytes = (try? NDEFMessage(NDEFRecord(typeNameFormat: .media, type: "a/b", payload: payload)).encoded()) ?? []
        return bytes
    }

    /// The SLIX2 and ST25DV16K sample UIDs in wire order.
    static let slix2Wire: [UInt8] = ISO15693Tag.Model.icodeSLIX2.sampleUID.reversed()
    static let st25Wire: [UInt8] = ISO15693Tag.Model.st25dv16k.sampleUID.reversed()
}

enum Type5Air {
    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    /// AIRTIME.md's ISO/IEC 15693 exchange, in µs, for request and response payloads of so many
    /// bytes (the 2-byte CRC is added here): 113.28 + 302.08·n_req + 320.9 + 302.08 + 302.08·n_rsp + 309.2.
    static func exchange(request: Int, response: Int, processing: Double = 0) -> Double {
        113.28 + 302.08 * Double(request + 2) + 4352 / 13.56 + processing + 302.08 + 302.08 * Double(response + 2) + 4192 / 13.56
    }

    /// The physical minimum to read an NDEF message: one addressed (Extended) Read Multiple Blocks
    /// of every block from 0 to the message's last byte, 4-byte blocks.
    static func minimumRead(lastByte: Int, extended: Bool) -> Double {
        let blocks = lastByte / 4 + 1
        return exchange(request: extended ? 14 : 12, response: 1 + blocks * 4)
    }
}

/// A connection in front of a simulated one that behaves like a more limited tag or reader: it
/// refuses multi-block reads beyond a cap (with an error code, or silence), can claim larger
/// limits than the field has, and can cut an answer short. It counts what it refused.
final class Type5QuirkyConnection: TagConnection {
    let base: any TagConnection
    /// Read Multiple Blocks of more blocks than this are refused.
    let multiBlockCap: Int?
    /// The error code of a refusal; `nil` for silence (a timeout).
    let refusal: UInt8?
    /// Limits reported instead of the base connection's.
    let claimedLimits: ExchangeLimits?
    /// The answer to the command with this number (from 1) is cut to this many bytes.
    let truncate: (command: Int, length: Int)?
    private let counters = Guarded((commands: 0, refused: 0, frames: [[UInt8]]()))

    init(
        _ base: any TagConnection, multiBlockCap: Int? = nil, refusal: UInt8? = 0x0F,
        claimedLimits: ExchangeLimits? = nil, truncate: (command: Int, length: Int)? = nil
    ) {
        self.base = base
        self.multiBlockCap = multiBlockCap
        self.refusal = refusal
        self.claimedLimits = claimedLimits
        self.truncate = truncate
    }

    var refused: Int { counters.withLock { $0.refused } }
    var commands: Int { counters.withLock { $0.commands } }
    /// Every frame sent, in order.
    var frames: [[UInt8]] { counters.withLock { $0.frames } }
    var target: TargetInfo { base.target }
    var limits: ExchangeLimits { claimedLimits ?? base.limits }
    var bitRate: BitRate { base.bitRate }
    var meter: AirTimeMeter { base.meter }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        let number = counters.withLock {
            $0.commands += 1
            $0.frames.append(command)
            return $0.commands
        }
        if let cap = multiBlockCap, command.count >= 12, command[1] == 0x23 || command[1] == 0x33 {
            let wide = command[1] == 0x33
            let count = wide && command.count >= 14 ? Int(command[12]) | Int(command[13]) << 8 : Int(command[11])
            if count + 1 > cap {
                counters.withLock { $0.refused += 1 }
                guard let refusal else { throw TransportError(.timeout, "no answer") }
                return [0x01, refusal]
            }
        }
        let answer = try await base.transceive(command, timeout: timeout)
        if let truncate, truncate.command == number { return Array(answer.prefix(truncate.length)) }
        return answer
    }

    func reactivate() async throws(TransportError) { try await base.reactivate() }
    func disconnect() async { await base.disconnect() }
}
