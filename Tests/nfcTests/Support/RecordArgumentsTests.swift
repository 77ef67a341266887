import ArgumentParser
import Foundation
import NDEF
import Testing

@testable import nfc

/// The record options of `nfc ndef encode` and `nfc write`, parsed and run in process: their order
/// across options comes from the arguments ArgumentParser parsed (``Invocation``), not from the
/// process's command line, so a test drives them as Main does.
@Suite struct RecordArgumentsTests {
    /// Parses `arguments` as Main does and runs the command with them as the invocation.
    func run(_ arguments: [String]) async throws {
        try await Invocation.$arguments.withValue(arguments) {
            var command = try NFCCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
    }

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString).bin").path
    }

    @Test("nfc ndef encode in process: records keep their command-line order across options")
    func encodeKeepsOrder() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await run([
            "ndef", "encode", "--text", "first", "--uri", "https://example.org/2", "--text", "third", "--lang", "fr", "-o", path,
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let typed = try NDEFMessage(decoding: bytes).records.map { try $0.typed() }
        #expect(
            typed == [
                .text(TextRecord(text: "first", languageCode: "en")), .uri(URIRecord(uri: "https://example.org/2")),
                .text(TextRecord(text: "third", languageCode: "fr")),
            ])
    }

    @Test("A --lang with no --text before it is a usage error, raised in process")
    func langBeforeText() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try await run(["ndef", "encode", "--lang", "fr", "--text", "x", "-o", path])
            Issue.record("expected a usage error")
        } catch let error as CLIError {
            #expect(error.code == .usage)
            #expect(error.description.contains("--lang fr must follow the --text"))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing written")
    }

    @Test("specs(from:): --name=value, payloads after their --mime/--external, nothing after --")
    func specs() throws {
        let specs = try RecordArguments.specs(from: [
            "--uri=https://a.example", "--mime", "text/plain", "--hex", "6869", "--external", "example.com:t", "--file", "p.bin",
            "--", "--uri", "ignored",
        ])
        #expect(
            specs == [
                .uri("https://a.example"), .mime("text/plain", payload: .hex("6869")), .external("example.com:t", payload: .file("p.bin")),
            ])
        #expect(throws: CLIError.self) { try RecordArguments.specs(from: ["--hex", "00"]) }
        #expect(try RecordArguments.specs(from: []) == [])
    }
}
