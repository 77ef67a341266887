import Foundation
import Testing

/// swift-log through the tool: quiet by default; `-v`, `-vv` and `OPENCORENFC_LOG` show what the
/// engines do, on standard error, never on standard output.
struct LoggingCommandTests {
    private func image() async throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("tag.json").path
        let created = try await NFCTool.run(["tag", "new", "ntag216", "-o", path])
        #expect(created.status == 0, "\(created.stderr)")
        return (directory, "sim:" + path)
    }

    @Test func quietByDefault() async throws {
        let (directory, reader) = try await image()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = try await NFCTool.run(["read", "--reader", reader])
        #expect(read.status == 0)
        #expect(!read.stderr.contains("opencorenfc."), "\(read.stderr)")
    }

    /// `-v`: each engine operation at debug, no frames.
    @Test func verboseShowsOperations() async throws {
        let (directory, reader) = try await image()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = try await NFCTool.run(["read", "--reader", reader, "-v"])
        #expect(read.status == 0)
        #expect(read.stderr.contains("nfc: debug opencorenfc.tags: "), "\(read.stderr)")
        #expect(read.stderr.contains(" done"), "\(read.stderr)")
        #expect(!read.stderr.contains("nfc: trace"), "\(read.stderr)")
        #expect(!read.stdout.contains("opencorenfc."))
    }

    /// `-vv`: every frame, as hex — the NTAG216's GET_VERSION (`60`) and the FAST_READ of pages
    /// 2–5 that takes the capability container with its neighbours (`3A 02 05`) among them
    /// (NTAG213/215/216 datasheet §10.1 and §10.3).
    @Test func veryVerboseShowsEveryFrame() async throws {
        let (directory, reader) = try await image()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = try await NFCTool.run(["read", "--reader", reader, "-vv"])
        #expect(read.status == 0)
        #expect(read.stderr.contains("nfc: trace opencorenfc.tags: → 60"), "\(read.stderr)")
        #expect(read.stderr.contains("nfc: trace opencorenfc.tags: → 3a0205"), "\(read.stderr)")
        #expect(read.stderr.contains("nfc: trace opencorenfc.tags: ← "), "\(read.stderr)")
    }

    @Test func theEnvironmentSetsTheLevelForAnyCommand() async throws {
        let (directory, reader) = try await image()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = try await NFCTool.run(["read", "--reader", reader], environment: ["OPENCORENFC_LOG": "trace"])
        #expect(read.stderr.contains("nfc: trace opencorenfc.tags: → "), "\(read.stderr)")
        let unknown = try await NFCTool.run(["read", "--reader", reader], environment: ["OPENCORENFC_LOG": "loud"])
        #expect(unknown.status == 0)
        #expect(!unknown.stderr.contains("opencorenfc."), "\(unknown.stderr)")
    }
}

/// `--help` and `nfc help COMMAND` print ArgumentParser's help on standard output and exit 0
/// (`nfc help` runs ArgumentParser's help command, whose run() throws the help request).
struct HelpCommandTests {
    @Test(arguments: [["--help"], ["help"], ["read", "--help"], ["help", "read"], ["ndef", "encode", "--help"]])
    func helpIsPrintedAndSucceeds(_ arguments: [String]) async throws {
        let result = try await NFCTool.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: nfc"), "\(result.stdout)")
        #expect(!result.stderr.contains("CommandError"), "\(result.stderr)")
    }

    @Test func readHelpNamesTheSharedOptions() async throws {
        let result = try await NFCTool.run(["help", "read"])
        #expect(result.stdout.contains("--reader"))
        #expect(result.stdout.contains("--verbose"))
    }
}
