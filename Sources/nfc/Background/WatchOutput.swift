import Foundation
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCTransport
import OpenCoreNFC

/// `nfc watch`'s output: one line per event, text or JSON (docs/background.md), written whole
/// under a lock so lines from different readers and handler threads never interleave.
final class WatchOutput: Sendable {
    let json: Bool
    private let lock = Guarded(())

    init(json: Bool) { self.json = json }

    private func emit(_ event: String, _ fields: [(String, JSONValue)], text: String) {
        let line: String
        if json {
            let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            line = JSONValue.object([("event", .string(event)), ("time", .string(time))] + fields).serialized(pretty: false)
        } else {
            line = TerminalText.escape(text)
        }
        lock.withLock { _ in Output.line(line) }
    }

    static func uid(_ target: TargetInfo) -> String { Hex.encode(target.identifier, uppercase: true) }

    func tap(_ tap: NFCBackgroundTap, handler: [String]?) {
        let dispatch = tap.dispatch
        var fields: [(String, JSONValue)] = [("reader", .string(tap.reader)), ("uid", .string(Self.uid(tap.target)))]
        fields += DispatchText.json(dispatch, handler: handler)
        if let message = dispatch.message, let bytes = try? message.encoded() {
            fields.append(("ndef", .string(Hex.encode(bytes))))
        }
        let outcome = DispatchText.lines(dispatch, handler: nil).joined(separator: "; ")
        emit("tap", fields, text: "[\(tap.reader)] tap \(Self.uid(tap.target)): \(outcome)")
    }

    func readFailed(reader: String, target: TargetInfo, reason: String) {
        emit(
            "read-failed", [("reader", .string(reader)), ("uid", .string(Self.uid(target))), ("reason", .string(reason))],
            text: "[\(reader)] tap \(Self.uid(target)): cannot read: \(reason)")
    }

    func left(reader: String, target: TargetInfo) {
        emit("left", [("reader", .string(reader)), ("uid", .string(Self.uid(target)))], text: "[\(reader)] \(Self.uid(target)) left")
    }

    func reader(_ name: String, added: Bool) {
        emit(
            "reader", [("reader", .string(name)), ("state", .string(added ? "added" : "removed"))],
            text: "[\(name)] reader \(added ? "added" : "removed")")
    }

    func problem(reader: String, _ reason: String) {
        emit("error", [("reader", .string(reader)), ("reason", .string(reason))], text: "[\(reader)] \(reason)")
    }

    func handler(reader: String, uid: String, url: String, command: [String], ending: HandlerRunner.Ending, elapsed: Duration) {
        var fields: [(String, JSONValue)] = [
            ("reader", .string(reader)), ("uid", .string(uid)), ("url", .string(url)),
            ("handler", .array(command.map(JSONValue.string))),
        ]
        let milliseconds = Int64(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let summary: String
        switch ending {
        case .exited(let code):
            fields += [("status", .string(code == 0 ? "ok" : "failed")), ("exitCode", .int(Int64(code)))]
            summary = code == 0 ? "handler finished" : "handler failed with exit status \(code)"
        case .signalled(let number):
            fields += [("status", .string("failed")), ("signal", .int(Int64(number)))]
            summary = "handler killed by signal \(number)"
        case .timedOut:
            fields.append(("status", .string("timeout")))
            summary = "handler did not finish in time and was killed"
        case .notStarted(let reason):
            fields += [("status", .string("not-started")), ("reason", .string(reason))]
            summary = "handler not started: \(reason)"
        }
        fields.append(("milliseconds", .int(milliseconds)))
        emit("handler", fields, text: "[\(reader)] \(uid): \(summary) (\(command[0]))")
    }
}
