import Foundation
import Testing

@Suite(.serialized) struct TagCommandTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-tag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func newThenShowEveryType() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for type in ["ntag213", "ntag215", "ntag216", "ultralight", "type4", "iso7816", "slix2", "iso15693-2k", "felica-lite-s", "felica"] {
            let path = directory.appendingPathComponent("\(type).json").path
            let created = try await NFCTool.run(["tag", "new", type, "-o", path])
            #expect(created.status == 0, "\(type): \(created.stderr)")
            #expect(created.stdout.hasPrefix("wrote \(path): \(type),"))
            let shown = try await NFCTool.run(["tag", "show", path, "--json"])
            #expect(shown.status == 0)
            #expect(shown.stdout.contains("\"type\" : \"\(type)\"") || shown.stdout.contains("\"type\": \"\(type)\""), "\(shown.stdout)")
        }
    }

    @Test func refusesToOverwriteWithoutForce() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tag.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag216", "-o", path]).status == 0)
        let again = try await NFCTool.run(["tag", "new", "slix2", "-o", path])
        #expect(again.status != 0)
        #expect(again.stderr.contains("exists"))
        #expect(try await NFCTool.run(["tag", "show", path]).stdout.hasPrefix("ntag216,"))
        #expect(try await NFCTool.run(["tag", "new", "slix2", "-o", path, "--force"]).status == 0)
        #expect(try await NFCTool.run(["tag", "show", path]).stdout.hasPrefix("slix2,"))
    }

    @Test func givenUID() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tag.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "--uid", "04:11:22:33:44:55:66", "-o", path]).status == 0)
        #expect(try await NFCTool.run(["tag", "show", path]).stdout.contains("UID 04112233445566"))
        let bad = try await NFCTool.run(["tag", "new", "ntag213", "--uid", "0411", "-o", directory.appendingPathComponent("bad.json").path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("uid"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad.json").path))
    }

    @Test func unknownTypeIsRejected() async throws {
        let result = try await NFCTool.run(["tag", "new", "mifare-classic", "-o", "/tmp/never.json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("ntag213"))
    }

    @Test func corruptImageGetsAOneLineReason() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("corrupt.json").path
        try Data(#"{"format":"opencorenfc-tag-image","version":1,"type":"slix2","tag":{"model":"icodeSLIX2"}}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        let result = try await NFCTool.run(["tag", "show", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("malformed at tag."))
    }

    @Test func importsAFlipperDump() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = FlipperFixtures.ntag213
        let dumpPath = directory.appendingPathComponent("tag.nfc").path
        try Data(dump.utf8).write(to: URL(fileURLWithPath: dumpPath))
        let imagePath = directory.appendingPathComponent("tag.json").path
        let result = try await NFCTool.run(["tag", "import", dumpPath, "-o", imagePath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await NFCTool.run(["tag", "show", imagePath]).stdout.hasPrefix("ntag213, iso14443A, UID 04a78b62c21b90"))

        try Data(dump.replacingOccurrences(of: "Page 44: 00 00 00 00\n", with: "").utf8).write(to: URL(fileURLWithPath: dumpPath))
        let broken = try await NFCTool.run(["tag", "import", dumpPath, "-o", directory.appendingPathComponent("other.json").path])
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("Page 44"))
    }
}
