import Foundation
import Testing

/// `nfc write --loop` on a folder of images, each file appearing a tap: tag after tag, never the
/// same UID twice, a counter in the template or one message per line of a file, a log of UID →
/// message, a summary at the end.
@Suite(.serialized, .timeLimit(.minutes(2))) struct WriteLoopCommandTests {
    private let folder: URL
    private let spare: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)")
        spare = FileManager.default.temporaryDirectory.appendingPathComponent("loop-spare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: spare, withIntermediateDirectories: true)
    }

    /// A fresh NTAG213 image with its own UID, made outside the watched folder.
    private func blank(_ uid: String) async throws -> URL {
        let url = spare.appendingPathComponent("\(uid)-\(UUID().uuidString).json")
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "--uid", uid, "-o", url.path]).status == 0)
        return url
    }

    /// Taps a tag: its image appears in the folder.
    private func tap(_ image: URL, as name: String) throws {
        try FileManager.default.copyItem(at: image, to: folder.appendingPathComponent(name))
    }

    private func texts(_ name: String) async throws -> [String] {
        let read = try await NFCTool.run(["read", "--reader", "sim:" + folder.appendingPathComponent(name).path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any]
        return (object?["records"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String ?? $0["uri"] as? String }
    }

    @Test func aTemplateCountsTheTagsAndARepeatIsSkipped() async throws {
        let log = spare.appendingPathComponent("loop.log").path
        let loop = try WatchProcess(command: [
            "write", "--loop", "--reader", "sim:" + folder.path, "--text", "Ticket {n}", "--uri", "https://example.org/t/{n}",
            "--start", "7", "--count", "3", "--log", log, "--json",
        ])
        let uids = ["04a10000000001", "04a10000000002", "04a10000000003"]
        try tap(try await blank(uids[0]), as: "a.json")
        let first = await loop.next()
        #expect(first?["uid"] as? String == uids[0] && first?["n"] as? Int == 7, "\(String(describing: first))")
        try tap(try await blank(uids[0]), as: "a-again.json")  // the same UID presented again: skipped
        try tap(try await blank(uids[1]), as: "b.json")
        let second = await loop.next()
        #expect(second?["uid"] as? String == uids[1] && second?["n"] as? Int == 8, "\(String(describing: second))")
        try tap(try await blank(uids[2]), as: "c.json")
        let third = await loop.next()
        #expect(third?["uid"] as? String == uids[2] && third?["n"] as? Int == 9)
        let summary = await loop.next()?["summary"] as? [String: Any]
        #expect(
            summary?["written"] as? Int == 3 && summary?["repeats"] as? Int == 1 && summary?["failed"] as? Int == 0,
            "\(String(describing: summary))")
        let (status, stderr) = await loop.ended()
        #expect(status == 0 && loop.process.terminationReason == .exit, "the loop ends by itself after --count: \(stderr)")

        #expect(try await texts("a.json") == ["Ticket 7", "https://example.org/t/7"])
        #expect(try await texts("b.json") == ["Ticket 8", "https://example.org/t/8"])
        #expect(try await texts("c.json") == ["Ticket 9", "https://example.org/t/9"])
        #expect(try await texts("a-again.json") == [], "the repeat was not written")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let logged = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(logged.map { $0["uid"] as? String } == uids.map { $0 })
        #expect(logged.allSatisfy { ($0["message"] as? String)?.isEmpty == false && $0["time"] is String })
        let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func aCSVFileGivesEachTagItsMessageAndEndsTheLoop() async throws {
        let csv = spare.appendingPathComponent("badges.csv")
        try Data("text,uri\n\"Ada, Countess\",https://example.org/ada\nGrace,\n".utf8).write(to: csv)
        let loop = try WatchProcess(command: ["write", "--loop", "--reader", "sim:" + folder.path, "--from", csv.path, "--json"])
        try tap(try await blank("04b10000000001"), as: "ada.json")
        #expect(await loop.next()?["n"] as? Int == 1)
        try tap(try await blank("04b10000000002"), as: "grace.json")
        #expect(await loop.next()?["n"] as? Int == 2)
        #expect((await loop.next()?["summary"] as? [String: Any])?["written"] as? Int == 2, "the end of the file ends the loop")
        #expect(await loop.ended().status == 0)
        #expect(try await texts("ada.json") == ["Ada, Countess", "https://example.org/ada"])
        #expect(try await texts("grace.json") == ["Grace"])
    }

    @Test func ctrlCEndsTheLoopWithASummary() async throws {
        let loop = try WatchProcess(command: ["write", "--loop", "--reader", "sim:" + folder.path, "--text", "badge {n}", "--json"])
        try tap(try await blank("04c10000000001"), as: "one.json")
        #expect(await loop.next()?["n"] as? Int == 1)
        let (status, stderr) = await loop.interrupt()
        #expect(status == 0 && loop.process.terminationReason == .exit, "Ctrl-C ends the loop cleanly: \(stderr)")
        #expect((await loop.next()?["summary"] as? [String: Any])?["written"] as? Int == 1)
        #expect(try await texts("one.json") == ["badge 1"])
    }

    @Test func badLoopArgumentsAreRefusedAtOnce() async throws {
        for (arguments, message) in [
            (["write", "--count", "3", "--text", "x"], "go with --loop"),
            (["write", "--loop", "--count", "0", "--text", "x"], "--count must be 1 or more"),
            (["write", "--loop", "--from", "/nonexistent.csv", "--text", "x"], "leave out records"),
            (["write", "--loop", "--reader", "nfcpy-udp:54321", "--text", "x"], "write --loop takes"),
            (["write", "--loop", "--reader", "sim:" + folder.path, "--uri", "no-scheme-{n}"], "has no scheme"),
        ] {
            let result = try await NFCTool.run(arguments)
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let csv = spare.appendingPathComponent("bad.csv")
        try Data("name\nAda\n".utf8).write(to: csv)
        let badHeader = try await NFCTool.run(["write", "--loop", "--reader", "sim:" + folder.path, "--from", csv.path])
        #expect(badHeader.status == 2 && badHeader.stderr.contains("line 1: column \"name\""), "\(badHeader.stderr)")
    }
}
