import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// A tag session over one FeliCa card, detected and (by default) connected, as an app's
/// `didDetect` handler leaves it.
struct FeliCaSessionBench {
    let bench: SessionBench
    let delegate: TagReaderDelegate
    let session: NFCTagReaderSession
    let tag: any NFCFeliCaTag
    let queue: DispatchQueue

    /// An app that reads the default FeliCa Standard card's two systems.
    static let standardConfiguration = NFCAppConfiguration(
        usageDescription: "Reads transit cards.",
        readerSessionFormats: [.tag],
        felicaSystemCodes: ["0003", "FE00"]
    )

    static let queueKey = DispatchSpecificKey<String>()

    static func start(
        _ card: any VirtualTag, configuration: NFCAppConfiguration = SessionBench.appConfiguration, connect: Bool = true
    ) async throws -> FeliCaSessionBench {
        let bench = await SessionBench([card], configuration: configuration)
        let delegate = TagReaderDelegate()
        let queue = DispatchQueue(label: "felica-tests")
        queue.setSpecific(key: queueKey, value: "session")
        let session = try #require(NFCTagReaderSession(pollingOption: .iso18092, delegate: delegate, queue: queue))
        session.begin()
        guard case .tags(let tags)? = await delegate.log.nextSignificant(), let first = tags.first,
            case .feliCa(let tag) = first
        else {
            throw FeliCaTestError.noTag
        }
        if connect { try await session.connect(to: first) }
        return FeliCaSessionBench(bench: bench, delegate: delegate, session: session, tag: tag, queue: queue)
    }

    /// Whether the caller runs on the session's queue.
    static var onSessionQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == "session" }
}

enum FeliCaTestError: Error { case noTag }

/// Block list elements: `80 nn` (2 bytes) and `00 nn nn` (3 bytes).
func element(_ block: UInt8) -> Data { Data([0x80, block]) }

/// A 16-byte block starting with these bytes.
func block(_ prefix: UInt8...) -> Data { Data(prefix + [UInt8](repeating: 0, count: 16 - prefix.count)) }

/// A FeliCa card that answers every command with bytes a test chooses (to check how answers
/// are parsed); the session's discovery Polling for 88B4 gets a well-formed answer, as a
/// Lite-S gives.
struct ScriptedFeliCaTag: VirtualTag {
    static let idm: [UInt8] = [0x01, 0x2E, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55]
    static let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    /// The answer per command code; commands not listed stay unanswered.
    var answers: [UInt8: [UInt8]]
    /// Whether the session's discovery Polling was answered.
    var discovered = false

    var identifier: [UInt8] { Self.idm }
    var parameters: TargetInfo.Parameters { .felica(.init(pmm: Self.pmm, systemCode: 0x88B4)) }
    mutating func powerOn() {}
    mutating func activate(context: ExchangeContext) -> [AirFrame] { [] }
    mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        if !discovered, command == [0x00, 0x88, 0xB4, 0x00, 0x00] {
            discovered = true
            return .bytes([0x01] + Self.idm + Self.pmm)
        }
        guard let code = command.first, let answer = answers[code] else { return .mute }
        return .bytes(answer)
    }
}
