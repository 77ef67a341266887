import Foundation
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// Runs one command's work on the tag of the reader the options name, then saves and reports.
enum TagSession {
    /// Opens the reader, connects, hands the connection and the tag's engine to `body`, saves
    /// the simulated tag, and prints statistics when asked.
    /// - Parameter access: whether the command only reads the tag or may change it (a simulated
    ///   tag's image is then locked exclusively, and saved only if it changed).
    /// - Parameter password: `--password`: PWD_AUTH right after activation, before `body`.
    static func run<T>(
        _ options: ReaderOptions, access: TagImageAccess, json: Bool = false, password: TagPasswordOptions? = nil,
        _ body: (any TagConnection, any NDEFTagEngine) async throws -> T
    ) async throws -> (T, ExchangeStatistics) {
        try await runResettable(options, access: access, json: json, password: password) { tag in
            try await body(tag.connection, tag.engine)
        }
    }

    /// ``run(_:access:json:_:)`` for a command that may take the tag out and activate it again
    /// (`nfc apdu`'s `reset`): `body` gets the tag as a ``ResettableTag``.
    static func runResettable<T>(
        _ options: ReaderOptions, access: TagImageAccess, json: Bool = false, password: TagPasswordOptions? = nil,
        _ body: (ResettableTag) async throws -> T
    ) async throws -> (T, ExchangeStatistics) {
        let reader = try await CLIReaders.open(options, access: access)
        let connection: any TagConnection
        do {
            connection = try await reader.connect()
        } catch {
            _ = try? await reader.finish()
            throw error
        }
        reader.meter.reset()  // activation is not the command's work
        let tag = ResettableTag(reader: reader, connection: connection)
        let result: Result<T, any Error>
        do {
            try await password?.authenticate(on: tag.connection)
            result = .success(try await body(tag))
        } catch {
            result = .failure(error)
        }
        await tag.connection.disconnect()
        if case .notKept(let reason) = try await reader.finish() {
            Output.error("note: the tag's own change (a counter) was not saved: \(reason)")
        }
        let statistics = reader.meter.statistics
        if options.stats && !json { Output.error(StatisticsText.line(statistics)) }
        switch result {
        case .success(let value): return (value, statistics)
        case .failure(let error as TagEngineError):
            // A Type 2 tag that NAKs a read or write without a password given may be protected.
            let hint =
                error.code == .tagError && password?.password == nil && password?.passwordFile == nil
                    && TagFamily(tag.connection.target) == .type2 && password != nil
                ? "; if the tag is password-protected, give --password" : ""
            throw CLIError(EngineErrorText.line(error) + hint)
        case .failure(let error): throw error
        }
    }
}

/// The tag a command works on, which it may reset: disconnect (the card leaves its active state,
/// a PC/SC card is reset) and connect again, as `scriptor`'s `reset` does.
final class ResettableTag {
    private let reader: any CLIReader
    /// The connection to use now; a ``reset()`` replaces it.
    private(set) var connection: any TagConnection

    init(reader: any CLIReader, connection: any TagConnection) {
        self.reader = reader
        self.connection = connection
    }

    /// The engine for the tag's family.
    var engine: any NDEFTagEngine { TagEngines.engine(for: TagFamily(connection.target)) }

    /// Disconnects and connects to the tag again.
    func reset() async throws {
        if let refusal = reader.resetRefusal { throw CLIError(.usage, refusal) }
        await connection.disconnect()
        connection = try await reader.connect()
    }
}

/// `--stats` output.
enum StatisticsText {
    static func line(_ s: ExchangeStatistics) -> String {
        let ms = Double(s.airTimeMicroseconds) / 1000
        return
            "stats: \(s.commands) commands, \(s.bytesSent) B sent, \(s.bytesReceived) B received, air time \(String(format: "%.2f", ms)) ms"
    }

    static func json(_ s: ExchangeStatistics) -> JSONValue {
        .object([
            ("commands", .int(Int64(s.commands))),
            ("bytesSent", .int(Int64(s.bytesSent))),
            ("bytesReceived", .int(Int64(s.bytesReceived))),
            ("airTimeMicroseconds", .int(s.airTimeMicroseconds)),
        ])
    }
}

/// One line for a failed tag operation.
enum EngineErrorText {
    static func line(_ error: TagEngineError) -> String {
        var text = error.reason.isEmpty ? error.code.name : "\(error.code.name): \(error.reason)"
        if let status = error.tagStatus, !status.isEmpty {
            text += " (tag answered \(status.map { String(format: "%02x", $0) }.joined()))"
        }
        return text
    }
}
