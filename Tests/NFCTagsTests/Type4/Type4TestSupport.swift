import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// A field holding one tag, connected, with the meter reset after activation.
struct Type4Bench {
    let field: SimulatedField
    let id: VirtualTagID
    var connection: any TagConnection
    let meter: AirTimeMeter

    init(_ tag: some VirtualTag, reader: SimulatedReaderConfiguration = .ideal) async throws {
        field = SimulatedField(configuration: reader)
        id = await field.place(tag)
        meter = AirTimeMeter()
        connection = try await Self.connect(field, meter: meter)
        meter.reset()
    }

    static func connect(_ field: SimulatedField, meter: AirTimeMeter) async throws -> any TagConnection {
        let targets = try await field.targets(matching: .all)
        guard let target = targets.first else { throw TransportError(.noSuchTarget, "no tag in the field") }
        return try await field.connect(to: target, meter: meter)
    }

    /// Brings the tag back after it left (a fault) and connects again.
    mutating func reinsert() async throws {
        await field.reinsert(id)
        connection = try await Self.connect(field, meter: meter)
        meter.reset()
    }

    /// The tag as a Type 4 Tag (nil for a bare card).
    func type4Tag() async -> Type4Tag? { await field.tag(id, as: Type4Tag.self) }

    /// The NDEF application of whatever card the tag is.
    func application() async -> NDEFApplication? {
        if let tag = await field.tag(id, as: Type4Tag.self) { return tag.ndefApplication }
        return await field.tag(id, as: ISO7816Card.self)?.applet(NDEFApplication.self)
    }

    func milliseconds() -> Double { Type4Fixtures.milliseconds(meter.statistics.airTime) }
}

enum Type4Fixtures {
    /// An NDEF message of exactly `size` bytes (≥ 16): one MIME record `text/plain` (long form)
    /// whose payload is a pattern seeded by `seed` with no zero byte (so it
    /// differs from an erased file everywhere but the record header).
    static func message(size: Int, seed: UInt8 = 1) -> [UInt8] {
        let payload = max(size - 16, 0)
        let type = Array("text/plain".utf8)
        let header: [UInt8] = [
            0xC2, UInt8(type.count), UInt8(truncatingIfNeeded: payload >> 24),
            UInt8(truncatingIfNeeded: payload >> 16), UInt8(truncatingIfNeeded: payload >> 8),
            UInt8(truncatingIfNeeded: payload),
        ]
        return header + type + (0..<payload).map { UInt8(1 + ($0 &* 7 &+ Int(seed) &* 13) % 255) }
    }

    /// A short URI record message (`https://example.org/n`).
    static func uri(_ suffix: String) -> [UInt8] {
        let payload = [0x04] + Array("example.org/\(suffix)".utf8)
        return [0xD1, 0x01, UInt8(payload.count), 0x55] + payload
    }

    /// A CC file of the short form (15 bytes), every field chosen by the test.
    static func capabilityContainer(
        ccLength: UInt16 = 0x000F, version: UInt8 = 0x20, mle: UInt16 = 0x00FF, mlc: UInt16 = 0x00FF,
        tlv: [UInt8] = [0x04, 0x06], fileID: UInt16 = 0xE104, size: UInt16 = 0x0800, read: UInt8 = 0x00, write: UInt8 = 0x00
    ) -> [UInt8] {
        [UInt8(ccLength >> 8), UInt8(ccLength & 0xFF), version, UInt8(mle >> 8), UInt8(mle & 0xFF), UInt8(mlc >> 8), UInt8(mlc & 0xFF)]
            + tlv + [UInt8(fileID >> 8), UInt8(fileID & 0xFF), UInt8(size >> 8), UInt8(size & 0xFF), read, write]
    }

    /// An ISO-DEP card with an NDEF application whose CC and NDEF file bytes the test chooses (a
    /// tag that may lie).
    static func card(
        cc: [UInt8], ndefFile: [UInt8], ndefFileID: UInt16 = 0xE104, aid: [UInt8] = NDEFApplication.applicationIdentifier,
        ccWritable: Bool = false, ndefWritable: Bool = true, extendedLength: Bool = false, offsetDataObjects: Bool = false
    ) -> ISO7816Card {
        let application = NDEFApplication(
            aid: aid,
            files: [
                NDEFApplication.File(id: 0xE103, contents: cc, writeAccess: ccWritable ? .always : .never),
                NDEFApplication.File(id: ndefFileID, contents: ndefFile, writeAccess: ndefWritable ? .always : .never),
            ],
            maxReadLength: extendedLength ? 0xFFFF : 255, maxUpdateLength: extendedLength ? 0xFFFF : 255,
            offsetDataObjects: offsetDataObjects
        )
        return ISO7816Card(configuration: ISO7816Card.Configuration(extendedLength: extendedLength), applets: [application])
    }

    /// An NDEF file of `size` bytes: NLEN then the message, zeros after.
    static func ndefFile(size: Int, nlen: Int, message: [UInt8] = []) -> [UInt8] {
        let head = [UInt8(truncatingIfNeeded: nlen >> 8), UInt8(truncatingIfNeeded: nlen)] + message
        return head + [UInt8](repeating: 0, count: max(size - head.count, 0))
    }

    /// A reader without extended-length APDUs whose answers are at most `maxResponse` bytes.
    static func shortReader(maxResponse: Int = 258, rate: BitRate = .kbps848) -> SimulatedReaderConfiguration {
        SimulatedReaderConfiguration(
            maximumBitRate: rate,
            limits: ExchangeLimits(maxCommandLength: 261, maxResponseLength: maxResponse, extendedLengthAPDUs: false, nativeCommands: .all)
        )
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// An NDEF application whose answers a test may rewrite (a tag that lies or misbehaves).
struct MisbehavingApplet: ISO7816Applet {
    var inner: NDEFApplication
    /// Returns a replacement answer, or `nil` to keep the application's own.
    let rewrite: @Sendable (SimCommandAPDU, SimResponseAPDU) -> SimResponseAPDU?

    var aid: [UInt8] { inner.aid }
    mutating func select(command: SimCommandAPDU) -> SimResponseAPDU { inner.select(command: command) }
    mutating func deselect() { inner.deselect() }
    mutating func reset() { inner.reset() }
    mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        let answer = inner.process(command)
        return rewrite(command, answer) ?? answer
    }
    var appletImage: ISO7816AppletImage? { nil }
}

extension MisbehavingApplet {
    /// A default Type 4 Tag's application holding `message`, answering through `rewrite`.
    static func card(
        message: [UInt8] = Type4Fixtures.uri("lie"), rewrite: @escaping @Sendable (SimCommandAPDU, SimResponseAPDU) -> SimResponseAPDU?
    ) throws -> ISO7816Card {
        let tag = try Type4Tag(message: message)
        guard let application = tag.ndefApplication else { throw TagEngineError(.notFormatted, "no application") }
        var card = tag.card
        card.applets = [MisbehavingApplet(inner: application, rewrite: rewrite)]
        return card
    }
}

/// Runs `body` and returns the ``TagEngineError`` it throws, or nil if it threw nothing.
func engineError(_ body: () async throws(TagEngineError) -> Void) async -> TagEngineError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
