import Foundation
import Testing

/// `nfc scan --all`: every tag in the field — here each image of a `sim:FOLDER`, one simulated
/// field — as libnfc's nfc-list lists every target (Integration/pn532 compares the two through the
/// virtual PN532).
@Suite(.serialized, .timeLimit(.minutes(1))) struct ScanAllCommandTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-field-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func image(_ kind: String, _ name: String, uid: String? = nil) async throws {
        let created = try await NFCTool.run(
            ["tag", "new", kind, "-o", directory.appendingPathComponent(name).path] + (uid.map { ["--uid", $0] } ?? []))
        #expect(created.status == 0, "\(created.stderr)")
    }

    @Test func listsEveryTagInTheFieldAndOneTagCommandsRefuseSeveral() async throws {
        try await image("ntag213", "a.json")
        try await image("ntag215", "b.json", uid: "04010203040506")
        try await image("slix2", "c.json")
        try await image("felica-lite-s", "d.json")
        try Data("not an image".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let field = "sim:" + directory.path

        let scan = try await NFCTool.run(["scan", "--all", "--reader", field, "--json", "--stats"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        let tags = try #require(object["tags"] as? [[String: Any]])
        #expect(object["count"] as? Int == 4)
        #expect(Set(tags.compactMap { $0["family"] as? String }) == ["type2", "type5", "type3"])
        #expect(tags.contains { $0["uid"] as? String == "04010203040506" && $0["model"] as? String == "NTAG215" })
        #expect(tags.allSatisfy { ($0["ndef"] as? [String: Any])?["state"] as? String == "readWrite" })
        #expect((object["stats"] as? [String: Any])?["commands"] as? Int ?? 0 > 0)

        let text = try await NFCTool.run(["scan", "--all", "--reader", field])
        #expect(text.status == 0 && text.stdout.contains("NTAG215") && text.stdout.contains("ICODE SLIX2"))
        #expect(text.stdout.hasSuffix("4 tags\n"), "\(text.stdout)")

        let one = try await NFCTool.run(["read", "--reader", field])
        #expect(one.status == 64 && one.stderr.contains("4 tags in the field"), "\(one.stderr)")
        let change = try await NFCTool.run(["write", "--reader", field, "--text", "x"])
        #expect(change.status == 64 && change.stderr.contains("needs one image"), "\(change.stderr)")
    }

    @Test func oneTagAndAnEmptyFolder() async throws {
        try await image("type4", "only.json")
        let single = try await NFCTool.run(["scan", "--all", "--reader", "sim:" + directory.appendingPathComponent("only.json").path])
        #expect(single.status == 0 && single.stdout.hasSuffix("1 tag\n"), "\(single.stdout)")
        let folder = try await NFCTool.run(["scan", "--reader", "sim:" + directory.path])
        #expect(folder.status == 0 && folder.stdout.contains("Type 4"), "a folder of one tag is that tag: \(folder.stderr)")

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try await NFCTool.run(["scan", "--all", "--reader", "sim:" + empty.path])
        #expect(none.status == 3 && none.stderr.contains("no tag images"), "\(none.stderr)")
        let noneJSON = try await NFCTool.run(["scan", "--all", "--reader", "sim:" + empty.path, "--json"])
        #expect(noneJSON.status == 3 && noneJSON.stdout.contains(#""error""#), "an error object under --json: \(noneJSON.stdout)")
    }

    @Test func aProtectedTagAmongOthersIsReportedIncomplete() async throws {
        try await image("ntag213", "locked.json")
        try await image("type4", "open.json")
        let locked = "sim:" + directory.appendingPathComponent("locked.json").path
        let protect = try await NFCTool.run(["protect", "--reader", locked, "--password", "01020304", "--read"])
        #expect(protect.status == 0, "\(protect.stderr)")
        let scan = try await NFCTool.run(["scan", "--all", "--reader", "sim:" + directory.path])
        #expect(scan.status == 6 && scan.stdout.contains("give it with --password"), "\(scan.stdout)")
        let opened = try await NFCTool.run(["scan", "--all", "--reader", "sim:" + directory.path, "--password", "01020304"])
        #expect(
            opened.status == 0, "the password opens the Type 2 tag and is not sent to the Type 4 one: \(opened.stdout) \(opened.stderr)")
    }
}
