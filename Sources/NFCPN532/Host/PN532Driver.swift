import NFCBytes
import NFCTransport

/// A reader on a PN532 board over a serial line: the `pn532:PATH[:BAUD]` reader (a board on a
/// USB-serial adapter, `/dev/ttyUSB0`, or the virtual PN532 of `nfc emulate --pn532`).
///
/// What it does, from NXP's *PN532 User Manual* (UM0701-02):
/// - **Start.** The HSU wake-up and SAMConfiguration in normal mode (§7.2.10: a PN532 C106
///   starts in low-battery mode and takes no other command first), GetFirmwareVersion (§7.2.2:
///   IC `32` is a PN532; anything else is refused), and RFConfiguration item 5 with two passive
///   activation retries (§7.3.1), so that a poll with no card in the field answers at once
///   instead of waiting for one.
/// - **Polling.** InListPassiveTarget (§7.3.5) for ISO/IEC 14443 A (two cards at most, with RATS
///   for ISO-DEP cards), FeliCa at 212 kbit/s (Polling for any system code, asking for it) and
///   ISO/IEC 14443 B. ISO/IEC 15693 is not a PN532 technology: asking for it alone is a
///   `.unsupportedCommand` error that says so; with others it is left out.
/// - **Exchanges.** See `PN532Connection` (internal): InDataExchange for ISO-DEP cards and FeliCa, InCommunicateThru for other type A tags.
///
/// Each InListPassiveTarget replaces the targets the chip holds, so a target found by an earlier
/// poll is listed again (by its UID, or its system code and IDm) when it is connected. While a
/// connection is open, ``events(matching:)`` does not poll — a poll would release the connected
/// target —, and a tag that leaves then shows as `.tagLost` on the next exchange.
public actor PN532Driver: ReaderDriver {
    /// The reader's name as it was given (`pn532:/dev/ttyUSB0`).
    public nonisolated let name: String
    private let openLine: @Sendable () throws(TransportError) -> PN532Line
    private let slack: Duration
    private var link: PN532Link?
    private var starting: Task<Result<PN532Link, TransportError>, Never>?
    /// The firmware GetFirmwareVersion reported (IC, version, revision, support), once started.
    public private(set) var firmware: [UInt8] = []
    /// The targets the chip holds from its last InListPassiveTarget.
    private var listed: [Listed] = []
    /// Handles by modulation and identifier, so that a target keeps its handle across polls.
    private var handles: [[UInt8]: UInt64] = [:]
    /// Open connections; while there is one, event polling waits.
    private var openConnections = 0

    /// A target the chip holds: its number (Tg) and what the poll reported.
    struct Listed {
        let number: UInt8
        let info: TargetInfo
    }

    /// A reader on the serial device at `path` (opened on first use, raw 8N1 at `baudRate`).
    public init(path: String, baudRate: Int = 115_200) {
        name = baudRate == 115_200 ? "pn532:\(path)" : "pn532:\(path):\(baudRate)"
        openLine = { () throws(TransportError) -> PN532Line in try PN532Line.openSerial(path: path, baudRate: baudRate) }
        slack = PN532Link.defaultSlack
    }

    /// A reader over a line `open` makes on first use (a socket pair in tests), its link allowing
    /// `slack` on top of the manual's waits (`PN532Link`).
    package init(name: String, slack: Duration = PN532Link.defaultSlack, open: @escaping @Sendable () throws(TransportError) -> PN532Line) {
        self.name = name
        self.slack = slack
        openLine = open
    }

    /// The link, started on first use.
    /// - Throws: `TransportError` when the line cannot be opened or the chip does not start.
    package func started() async throws(TransportError) -> PN532Link {
        if let link { return link }
        if starting == nil {
            let (open, name, slack) = (openLine, self.name, self.slack)
            starting = Task { () -> Result<PN532Link, TransportError> in
                do throws(TransportError) {
                    let link = PN532Link(line: try open(), slack: slack)
                    let firmware = try await Self.start(link, name: name)
                    self.didStart(link, firmware: firmware)
                    return .success(link)
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let starting else { preconditionFailure("set above") }
        let result = await starting.value
        // Only this start's failure clears it: a newer start may be under way.
        if case .failure = result, self.starting == starting { self.starting = nil }
        return try result.get()
    }

    private func didStart(_ link: PN532Link, firmware: [UInt8]) {
        self.link = link
        self.firmware = firmware
    }

    /// SAMConfiguration, GetFirmwareVersion, RFConfiguration MaxRetries: the firmware's bytes.
    private static func start(_ link: PN532Link, name: String) async throws(TransportError) -> [UInt8] {
        _ = try await link.execute(.samConfiguration, [0x01], timeout: .seconds(1))
        let firmware = try await link.execute(.getFirmwareVersion, timeout: .seconds(1))
        guard firmware.count == 4, firmware[0] == 0x32 else {
            throw TransportError(
                .unsupportedCommand,
                "\(name): not a PN532 (GetFirmwareVersion answered \(Hex.encode(firmware, separator: " ")), IC 32 expected)")
        }
        // Item 5, MaxRetries: ATR_REQ FF (the reset value), PSL 01, passive activation 02.
        _ = try await link.execute(.rfConfiguration, [0x05, 0xFF, 0x01, 0x02], timeout: .seconds(1))
        return firmware
    }

    /// The targets in the field among `mask`'s technologies (ISO/IEC 15693 left out).
    /// - Throws: `TransportError` `.unsupportedCommand` when `mask` asks for ISO/IEC 15693
    ///   alone; the link's errors.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        guard !mask.subtracting(.iso15693).isEmpty else {
            throw TransportError(
                .unsupportedCommand,
                "\(name): a PN532 cannot read ISO/IEC 15693 tags (it speaks ISO/IEC 14443 A and B, FeliCa and Jewel; UM0701-02 §1)")
        }
        let link = try await started()
        var found: [TargetInfo] = []
        for modulation in PN532Modulation.allCases where mask.contains(modulation.technology) {
            found += try await list(modulation, link: link).map(\.info)
        }
        return found
    }

    /// The targets for `events(matching:)`: nil, without a poll, as soon as a connection is
    /// open (a poll would release its target; `connect` may have begun between two modulations).
    private func pollForEvents(_ mask: TechnologyMask) async throws(TransportError) -> [TargetInfo]? {
        guard !mask.subtracting(.iso15693).isEmpty else { return try await targets(matching: mask) }
        let link = try await started()
        var found: [TargetInfo] = []
        for modulation in PN532Modulation.allCases where mask.contains(modulation.technology) {
            guard openConnections == 0 else { return nil }
            found += try await list(modulation, link: link).map(\.info)
        }
        return found
    }

    /// Polls one modulation and records what the chip now holds.
    private func list(_ modulation: PN532Modulation, initiatorData: [UInt8]? = nil, link: PN532Link) async throws(TransportError)
        -> [Listed]
    {
        // The chip drops what it held when the poll starts, whatever comes of it.
        listed = []
        let answer = try await link.execute(
            .inListPassiveTarget, [modulation.maximumTargets, modulation.rawValue] + (initiatorData ?? modulation.pollData),
            timeout: .seconds(1))
        let parsed = try PN532TargetData.parse(answer, modulation: modulation, reader: name)
        listed = parsed.map { number, identifier, parameters in
            let key = [modulation.rawValue] + identifier
            let handle = handles[key] ?? UInt64(handles.count + 1)
            handles[key] = handle
            return Listed(number: number, info: TargetInfo(handle: handle, identifier: identifier, parameters: parameters))
        }
        return listed
    }

    /// Lists `target` again (the chip holds one list at a time): its number now.
    /// - Throws: `TransportError` `.tagLost` when it is no longer in the field.
    func relist(_ target: TargetInfo) async throws(TransportError) -> UInt8 {
        let link = try await started()
        let modulation = PN532Modulation(target)
        let initiatorData: [UInt8]
        switch target.parameters {
        case .iso14443A(let a) where a.isType1Platform: initiatorData = modulation.pollData
        case .iso14443A: initiatorData = PN532TargetData.cascaded(target.identifier)
        case .felica(let f): initiatorData = [0x00, UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF), 0x01, 0x00]
        default: initiatorData = modulation.pollData
        }
        let again = try await list(modulation, initiatorData: initiatorData, link: link)
        guard let match = again.first(where: { $0.info.identifier == target.identifier }) else {
            throw TransportError(.tagLost, "\(name): \(target) is no longer in the field")
        }
        return match.number
    }

    /// Activates `target` and opens a connection to it.
    /// - Throws: `TransportError` `.tagLost` when it left, `.unsupportedCommand` for ISO/IEC 15693.
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        if case .iso15693 = target.parameters {
            throw TransportError(.unsupportedCommand, "\(name): a PN532 cannot read ISO/IEC 15693 tags")
        }
        // Counted from the start: a poll between two of the awaits below would release the target.
        openConnections += 1
        do throws(TransportError) {
            let link = try await started()
            let number: UInt8
            if let held = listed.first(where: { $0.info.handle == target.handle }) {
                number = held.number
            } else {
                number = try await relist(target)
            }
            if listed.count > 1 {
                // Two cards held: InCommunicateThru goes to the current one, so make it this one (§7.3.12).
                let status = try await link.execute(.inSelect, [number], timeout: .seconds(1))
                if let error = status.first.flatMap({ PN532Status(rawValue: $0).transportError }) {
                    throw TransportError(error.code, "\(name): InSelect \(target): \(error.reason)")
                }
            }
            return PN532Connection(driver: self, link: link, target: target, number: number, meter: meter)
        } catch {
            openConnections -= 1
            throw error
        }
    }

    /// A connection ended (its target released): polling may go on, and connecting to the
    /// target again lists it again.
    func connectionClosed(number: UInt8) {
        openConnections = max(0, openConnections - 1)
        listed.removeAll { $0.number == number }
    }

    private var isPollingPaused: Bool { openConnections > 0 }

    /// Arrivals and departures, from a poll every 250 ms while no connection is open. The stream
    /// ends when the line fails for good (the board unplugged, the emulator gone).
    public nonisolated func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderEvent.self)
        let task = Task {
            var present: [UInt64: TargetInfo] = [:]
            while !Task.isCancelled {
                if await !self.isPollingPaused {
                    do throws(TransportError) {
                        let polled = try await self.pollForEvents(mask)
                        if let now = polled {
                            let seen = Set(now.map(\.handle))
                            for target in now where present[target.handle] == nil { continuation.yield(.targetArrived(target)) }
                            for (handle, target) in present where !seen.contains(handle) { continuation.yield(.targetLeft(target)) }
                            present = Dictionary(now.map { ($0.handle, $0) }, uniquingKeysWith: { first, _ in first })
                        }
                    } catch {
                        // A damaged or late answer: the next poll tries again; a line gone for good ends the stream.
                        let final: [TransportError.Code] = [
                            .readerRemoved, .notConnected, .noSuchTarget, .serviceUnavailable, .unsupportedCommand,
                        ]
                        if final.contains(error.code) { break }
                    }
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
