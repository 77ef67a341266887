import ArgumentParser
import Foundation
import NFCBytes
import NFCJSON
import NFCPCSC
import NFCReaders
import NFCSimulator
import NFCTransport

/// `nfc readers [--watch] [--json]`
struct ReadersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List readers: sim (the simulator) always, then PC/SC readers.",
        discussion: """
            Each PC/SC reader's tag is shown with its ATR in words (PC/SC Part 3: a storage card's \
            standard and name, an ISO/IEC 14443-4 card's historical bytes). With --watch, readers \
            and cards are shown as they come and go, as pcsc_scan does, until Ctrl-C; with --json, \
            one JSON object per event and line.
            """
    )

    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false
    @Flag(name: .long, help: "Show readers and cards as they come and go, until Ctrl-C.")
    var watch = false

    func run() async throws {
        if watch { return try await watchReaders() }
        let image = SimulatorHome.defaultImagePath
        var pcsc: [PCSCReaderStatus] = []
        var problem: String?
        do {
            pcsc = try PCSCDriver().readerStatus(probingProfiles: true)
        } catch {
            problem = error.reason
        }
        if json {
            var entries: [JSONValue] = [.object([("name", .string("sim")), ("kind", .string("simulator")), ("image", .string(image))])]
            for reader in pcsc {
                var fields: [(String, JSONValue)] = [
                    ("name", .string(reader.name)), ("kind", .string("pcsc")), ("tagPresent", .bool(reader.tagPresent)),
                    ("atr", reader.tagPresent ? .string(Hex.encode(reader.atr)) : .null),
                    ("profile", .string(reader.profile.rawValue)), ("profileSource", .string(reader.profileSource.rawValue)),
                    ("capabilities", .array(reader.profile.capabilities.sorted().map { .string($0.rawValue) })),
                ]
                if reader.tagPresent { fields.append(("card", ReaderEvents.json(ATRDescription(atr: reader.atr)))) }
                entries.append(.object(fields))
            }
            Output.line(JSONValue.array(entries).serialized(pretty: true))
        } else {
            Output.line("sim\tsimulated field with a persistent virtual tag (\(image))")
            for reader in pcsc {
                let card = reader.tagPresent ? "tag present (ATR \(Hex.encode(reader.atr)): \(ATRDescription(atr: reader.atr)))" : "no tag"
                let profile = "profile \(reader.profile) (\(reader.profileSource))"
                Output.line(TerminalText.escape(reader.name) + "\tPC/SC, \(profile), " + TerminalText.escape(card))
            }
        }
        if let problem { Output.error("PC/SC: \(problem)") }
    }

    /// Polls PC/SC's reader states every quarter second and prints what changed, until a signal.
    private func watchReaders() async throws {
        guard PCSCDriver.isLibraryAvailable else {
            throw CLIError("the PC/SC library (libpcsclite.so.1) is not installed; install pcscd")
        }
        let stopped = Guarded(false)
        let signals = SignalStop { stopped.withLock { $0 = true } }
        defer { signals.cancel() }
        if !json { Output.error("watching PC/SC readers (Ctrl-C to stop)") }
        var events = ReaderEvents()
        while !stopped.withLock({ $0 }) {
            let reading: Result<[PCSCReaderStatus], TransportError>
            do {
                reading = .success(try PCSCDriver().readerStatus())
            } catch {
                reading = .failure(error)
            }
            for event in events.update(reading) {
                Output.line(json ? event.json.serialized() : TerminalText.escape(event.text))
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }
}

/// What changed between two readings of PC/SC's readers: readers added and removed, cards in and out.
struct ReaderEvents {
    /// One change.
    struct Event {
        enum Kind: String {
            case readerAdded = "reader-added", readerRemoved = "reader-removed"
            case cardInserted = "card-inserted", cardRemoved = "card-removed", problem
        }
        let kind: Kind
        let reader: String
        var atr: [UInt8] = []
        var problem: String?

        var text: String {
            let time = ReaderEvents.clock()
            switch kind {
            case .readerAdded: return "\(time)  + reader  \(reader)"
            case .readerRemoved: return "\(time)  - reader  \(reader)"
            case .cardInserted: return "\(time)  + card    \(reader): ATR \(Hex.encode(atr)): \(ATRDescription(atr: atr))"
            case .cardRemoved: return "\(time)  - card    \(reader)"
            case .problem: return "\(time)  ! PC/SC   \(problem ?? "")"
            }
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("event", .string(kind.rawValue))]
            if kind == .problem {
                fields.append(("reason", .string(problem ?? "")))
            } else {
                fields.append(("reader", .string(reader)))
            }
            if kind == .cardInserted {
                fields += [("atr", .string(Hex.encode(atr))), ("card", ReaderEvents.json(ATRDescription(atr: atr)))]
            }
            return .object(fields)
        }
    }

    private var readers: [String: [UInt8]?] = [:]
    private var lastProblem: String?

    /// The events that take the last reading to `reading` (a failure is one problem event, and
    /// every reader then counts as gone).
    mutating func update(_ reading: Result<[PCSCReaderStatus], TransportError>) -> [Event] {
        var events: [Event] = []
        let now: [String: [UInt8]?]
        switch reading {
        case .success(let statuses):
            lastProblem = nil
            now = Dictionary(statuses.map { ($0.name, $0.tagPresent ? $0.atr : nil) }, uniquingKeysWith: { first, _ in first })
        case .failure(let error):
            if error.reason != lastProblem { events.append(Event(kind: .problem, reader: "", problem: error.reason)) }
            lastProblem = error.reason
            now = [:]
        }
        for (name, card) in readers.sorted(by: { $0.key < $1.key }) where now[name] == nil {
            if card != nil { events.append(Event(kind: .cardRemoved, reader: name)) }
            events.append(Event(kind: .readerRemoved, reader: name))
        }
        for (name, atr) in now.sorted(by: { $0.key < $1.key }) {
            let before = readers[name]
            if before == nil { events.append(Event(kind: .readerAdded, reader: name)) }
            let previous = before ?? nil
            if previous != atr {
                if previous != nil { events.append(Event(kind: .cardRemoved, reader: name)) }
                if let atr { events.append(Event(kind: .cardInserted, reader: name, atr: atr)) }
            }
        }
        readers = now
        return events
    }

    /// An ATR's description as JSON.
    static func json(_ description: ATRDescription) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("kind", .string(description.kind.rawValue)), ("description", .string(description.description)),
        ]
        if let standard = description.standard { fields.append(("standard", .string(standard))) }
        if let name = description.cardName { fields.append(("name", .string(name))) }
        if !description.historicalBytes.isEmpty { fields.append(("historicalBytes", .string(Hex.encode(description.historicalBytes)))) }
        return .object(fields)
    }

    /// `HH:MM:SS`, local time.
    static func clock() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}
