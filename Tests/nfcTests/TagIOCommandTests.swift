import Foundation
import Testing

/// `nfc scan/read/write/format/lock/dump` on simulated tags, run as a user would.
@Suite(.serialized) struct TagIOCommandTests {
    private func image(_ type: String, blank: Bool = false) async throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(type).json").path
        let created = try await NFCTool.run(["tag", "new", type, "-o", path] + (blank ? ["--blank"] : []))
        #expect(created.status == 0, "\(created.stderr)")
        return (directory, "sim:" + path)
    }

    @Test(arguments: ["ntag216", "topaz512", "topaz96", "type4", "slix2", "iso15693-2k", "felica-lite-s", "felica"])
    func writeThenReadAcrossRuns(type: String) async throws {
        let (directory, reader) = try await image(type)
        defer { try? FileManager.default.removeItem(at: directory) }
        let write = try await NFCTool.run([
            "write", "--reader", reader, "--uri", "https://example.com/\(type)", "--text", "hello", "--lang", "en",
        ])
        #expect(write.status == 0, "\(type): \(write.stderr)")
        let read = try await NFCTool.run(["read", "--reader", reader, "--json", "--stats"])
        #expect(read.status == 0, "\(type): \(read.stderr)")
        #expect(read.stdout.contains("https://example.com/\(type)"))
        #expect(read.stdout.contains("\"airTimeMicroseconds\""))
        #expect(read.stdout.contains("\"state\" : \"readWrite\"") || read.stdout.contains("\"state\": \"readWrite\""))
    }

    @Test func scanDescribesTheTag() async throws {
        let (directory, reader) = try await image("ntag213")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scan = try await NFCTool.run(["scan", "--reader", reader])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.hasPrefix("NTAG213"))
        #expect(scan.stdout.contains("capacity"))
    }

    @Test func formatABlankTagThenWrite() async throws {
        let (directory, reader) = try await image("ntag215", blank: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try await NFCTool.run(["read", "--reader", reader])
        #expect(before.status != 0)
        #expect(try await NFCTool.run(["format", "--reader", reader]).status == 0)
        #expect(try await NFCTool.run(["format", "--reader", reader]).status != 0)  // already formatted
        #expect(try await NFCTool.run(["write", "--reader", reader, "--text", "formatted"]).status == 0)
        #expect(try await NFCTool.run(["read", "--reader", reader]).stdout.contains("formatted"))
    }

    /// A Type 1 tag through the whole cycle: a blank Topaz 96 is found as NFC Forum Type 1, is
    /// formatted, written, locked, and refuses further writes.
    @Test func aTopazFromBlankToLocked() async throws {
        let (directory, reader) = try await image("topaz96", blank: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scan = try await NFCTool.run(["scan", "--reader", reader, "--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("\"family\" : \"type1\"") || scan.stdout.contains("\"family\": \"type1\""))
        #expect(scan.stdout.contains("Topaz 96"))
        #expect(scan.stdout.contains("notSupported"))
        #expect(try await NFCTool.run(["format", "--reader", reader]).status == 0)
        #expect(try await NFCTool.run(["write", "--reader", reader, "--text", "topaz"]).status == 0)
        #expect(try await NFCTool.run(["lock", "--reader", reader], stdin: "yes\n").status == 0)
        let refused = try await NFCTool.run(["write", "--reader", reader, "--text", "lost"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("readOnly"))
        #expect(try await NFCTool.run(["read", "--reader", reader]).stdout.contains("topaz"))
    }

    @Test func lockMakesTheTagReadOnly() async throws {
        let (directory, reader) = try await image("ntag213")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await NFCTool.run(["write", "--reader", reader, "--text", "kept"]).status == 0)
        #expect(try await NFCTool.run(["lock", "--reader", reader]).status == 0)
        let refused = try await NFCTool.run(["write", "--reader", reader, "--text", "lost"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("readOnly"))
        #expect(try await NFCTool.run(["read", "--reader", reader]).stdout.contains("kept"))
    }

    @Test func interruptedWriteLeavesOldNewOrEmpty() async throws {
        let (directory, reader) = try await image("ntag216")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await NFCTool.run(["write", "--reader", reader, "--text", "old message"]).status == 0)
        let cut = try await NFCTool.run([
            "write", "--reader", reader, "--remove-after", "3", "--text", String(repeating: "new ", count: 60),
        ])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("tagLost"))
        let read = try await NFCTool.run(["read", "--reader", reader])
        #expect(read.status == 0)
        #expect(read.stdout.contains("old message") || read.stdout.contains("new new") || read.stdout.contains("empty"))
    }

    @Test func dumpShowsMemory() async throws {
        let (directory, reader) = try await image("ntag213")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = try await NFCTool.run(["dump", "--reader", reader, "--json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.contains("e1101200"))
    }

    /// The README's quick start: `nfc read --stats` on a fresh machine creates the simulator's tag.
    @Test func quickStartReadsTheDefaultSimulatedTag() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_DATA_HOME": directory.path, "HOME": directory.path, "OPENCORENFC_SIM_IMAGE": ""]
        let first = try await NFCTool.run(["read", "--stats"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Smart Poster: http://nfc-forum.org"))
        #expect(first.stderr.contains("created a virtual NTAG216"))
        #expect(first.stderr.contains("stats: "))
        #expect(try await NFCTool.run(["write", "--uri", "https://example.com/again"], environment: environment).status == 0)
        let second = try await NFCTool.run(["read"], environment: environment)
        #expect(second.stdout.contains("https://example.com/again"))
        #expect(!second.stderr.contains("created"))
    }

    @Test func unknownReaderIsAOneLineError() async throws {
        let result = try await NFCTool.run(["read", "--reader", "ACS ACR122U 00 00"])
        #expect(result.status != 0)
        // "no PC/SC reader matches …" with pcscd running, "pcscd is not running" without.
        #expect(result.stderr.contains("pcsc:ACS ACR122U 00 00: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
