import NDEF
import NFCBytes
import NFCSimulator
import NFCTags
import NFCTransport

/// An NDEF message of exactly `length` encoded bytes (one MIME record `a/b`), at least 6.
func type2Message(length: Int, fill: UInt8 = 0x5A) -> [UInt8] {
    let short = length <= 6 + 255
    let payload = [UInt8](repeating: fill, count: max(length - (short ? 6 : 9), 0))
    let record = NDEFRecord(typeNameFormat: .media, type: "a/b", payload: payload)
    return (try? NDEFMessage(record).encoded()) ?? []
}

/// A catalogue Type 2 chip with its memory edited (pages 0–2 must stay consistent with the UID).
func type2Tag(_ kind: VirtualTagKind, blank: Bool = false, edit: (inout [UInt8]) -> Void = { _ in }) throws -> Type2Tag {
    guard let tag = try kind.make(blank: blank) as? Type2Tag else { throw TransportError(.noSuchTarget, "\(kind) is not a Type 2 tag") }
    var image = tag.image
    var memory = image.memory.bytes
    edit(&memory)
    image.memory = HexBytes(memory)
    return try Type2Tag(image: image)
}

/// Writes bytes into a memory image from a byte address.
func type2Put(_ bytes: [UInt8], at address: Int, in memory: inout [UInt8]) {
    memory.replaceSubrange(address..<address + bytes.count, with: bytes)
}

/// A connection that records every frame and, when its limits say so, carries only READ and
/// WRITE as a PC/SC reader with pseudo-APDUs would (anything else: `unsupportedCommand`).
final class Type2RecordingConnection: TagConnection {
    let inner: any TagConnection
    private let log = Guarded<[[UInt8]]>([])

    init(_ inner: any TagConnection) { self.inner = inner }

    var target: TargetInfo { inner.target }
    var limits: ExchangeLimits { inner.limits }
    var bitRate: BitRate { inner.bitRate }
    var meter: AirTimeMeter { inner.meter }

    /// Every frame sent, in order.
    var frames: [[UInt8]] { log.withLock { $0 } }
    /// The command codes sent, in order.
    var codes: [UInt8] { frames.compactMap(\.first) }
    /// How many frames began with `code`.
    func count(_ code: UInt8) -> Int { codes.filter { $0 == code }.count }
    func clear() { log.withLock { $0 = [] } }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        log.withLock { $0.append(command) }
        if case .readAndWriteOnly(let readLength) = inner.limits.nativeCommands {
            guard let code = command.first, code == 0x30 || code == 0xA2 else {
                throw TransportError(.unsupportedCommand, "the reader carries READ and WRITE only")
            }
            if code == 0x30, readLength < 16 { throw TransportError(.frameTooLong, "READ answers 16 bytes") }
        }
        return try await inner.transceive(command, timeout: timeout)
    }

    func reactivate() async throws(TransportError) { try await inner.reactivate() }
    func disconnect() async { await inner.disconnect() }
}

/// A field holding one tag, connected, with the meter reset after activation.
struct Type2Bench {
    let field: SimulatedField
    let id: VirtualTagID
    let connection: Type2RecordingConnection
    let engine: Type2Engine

    init(_ tag: some VirtualTag, configuration: SimulatedReaderConfiguration = .ideal, engine: Type2Engine = Type2Engine()) async throws {
        field = SimulatedField(configuration: configuration)
        id = await field.place(tag)
        self.engine = engine
        connection = try await Self.connect(field, id)
    }

    init(
        _ kind: VirtualTagKind, blank: Bool = false, configuration: SimulatedReaderConfiguration = .ideal,
        engine: Type2Engine = Type2Engine()
    ) async throws {
        try await self.init(try kind.make(blank: blank), configuration: configuration, engine: engine)
    }

    static func connect(_ field: SimulatedField, _ id: VirtualTagID) async throws -> Type2RecordingConnection {
        let targets = try await field.targets(matching: .iso14443A)
        guard let target = targets.first(where: { $0.handle == id.rawValue }) else {
            throw TransportError(.noSuchTarget, "\(id) is not in the field")
        }
        let meter = AirTimeMeter()
        let connection = try await field.connect(to: target, meter: meter)
        meter.reset()
        return Type2RecordingConnection(connection)
    }

    /// Brings the tag back after it left (a fault) and opens a new connection.
    func reinsertAndConnect() async throws -> Type2RecordingConnection {
        await field.reinsert(id)
        return try await Self.connect(field, id)
    }

    /// The chip's state now.
    func chip() async -> Type2Tag? { await field.tag(id, as: Type2Tag.self) }

    /// The chip's memory now.
    func memory() async -> [UInt8] { await chip()?.memory ?? [] }
}

/// An older Type 2 chip (MIFARE Ultralight, Ultralight C, NTAG203) emulated over a catalogue chip:
/// it does not know GET_VERSION, FAST_READ, READ_SIG or PWD_AUTH and answers them with silence
/// (or a NAK), then stays mute until reactivated.
struct LegacyType2Tag: VirtualTag {
    var inner: Type2Tag
    var nakUnknown = false
    private var mute = false

    init(_ inner: Type2Tag, nakUnknown: Bool = false) {
        self.inner = inner
        self.nakUnknown = nakUnknown
    }

    var identifier: [UInt8] { inner.identifier }
    var parameters: TargetInfo.Parameters { inner.parameters }
    mutating func powerOn() {
        mute = false
        inner.powerOn()
    }
    mutating func activate(context: ExchangeContext) -> [AirFrame] {
        mute = false
        return inner.activate(context: context)
    }
    mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        if mute { return .mute }
        guard let code = command.first, [0x30, 0xA2, 0xA0, 0x50].contains(code) else {
            mute = true
            return nakUnknown ? .nak(0x0) : .mute
        }
        return inner.respond(to: command, context: context)
    }
}

extension SimulatedReaderConfiguration {
    /// A reader whose answers are at most `bytes` long.
    static func type2Responses(upTo bytes: Int) -> SimulatedReaderConfiguration {
        SimulatedReaderConfiguration(
            limits: ExchangeLimits(maxCommandLength: 64, maxResponseLength: bytes, extendedLengthAPDUs: false, nativeCommands: .all))
    }

    /// A PC/SC-style reader: pseudo-APDU READ of 16 bytes and WRITE of one page, nothing else.
    static let type2ReadAndWriteOnly = SimulatedReaderConfiguration(
        maximumBitRate: .kbps106,
        limits: ExchangeLimits(
            maxCommandLength: 64, maxResponseLength: 18, extendedLengthAPDUs: false, nativeCommands: .readAndWriteOnly(readLength: 16))
    )
}
