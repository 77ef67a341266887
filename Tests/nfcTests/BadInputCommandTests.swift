import Foundation
import NFCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 16, items 5–8: nothing blocks on a FIFO, partial results say so, the encoder writes only
/// what reads back, and every error says where, with a documented exit status (and as JSON under --json).
@Suite(.serialized) struct BadInputCommandTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// An NTAG213 holding a message, with PROT set and AUTH0 = 4: pages 04h–2Ch need the password.
    private func protectedNTAG(in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("protected.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "-o", path]).status == 0)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + path, "--text", "secret"]).status == 0)
        var object = try #require(json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)))
        var tag = try #require(object["tag"] as? [String: Any])
        var memory = Array(try #require(tag["memory"] as? String).utf8)
        func setByte(_ index: Int, _ value: UInt8) {
            let hex = Array(String(format: "%02x", value).utf8)
            memory[index * 2] = hex[0]
            memory[index * 2 + 1] = hex[1]
        }
        setByte(41 * 4 + 3, 0x04)  // CFG0 AUTH0 (NTAG213/215/216 datasheet §8.5.7)
        setByte(42 * 4, 0x80)  // CFG1 ACCESS.PROT: reads need the password too
        setByte(43 * 4, 0x12)  // PWD ≠ FFFFFFFF
        tag["memory"] = String(decoding: memory, as: UTF8.self)
        object["tag"] = tag
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("scan prints the identity it read and why the NDEF status is missing; dump marks refused pages")
    func partialResultsAreSaid() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = "sim:" + (try await protectedNTAG(in: directory))
        let scan = try await NFCTool.run(["scan", "--reader", reader])
        #expect(scan.status == 6, "incomplete: \(scan.stderr)")
        #expect(scan.stdout.hasPrefix("NTAG213") && scan.stdout.contains("UID") && scan.stdout.contains("memory       180 bytes"))
        #expect(
            scan.stdout.contains("NDEF         unavailable: protected: 04h–2Ch (41 pages) refused without the password"), "\(scan.stdout)")
        let scanJSON = try await NFCTool.run(["scan", "--reader", reader, "--json"])
        #expect(scanJSON.status == 6)
        #expect((json(scanJSON.stdout)?["ndef"] as? [String: Any])?["state"] as? String == "unavailable")
        let dump = try await NFCTool.run(["dump", "--reader", reader])
        #expect(dump.status == 6)
        #expect(dump.stdout.contains("03h  e1 10 12 00"))
        #expect(dump.stdout.contains("04h  ?? unreadable through 2Ch (41 rows)"), "\(dump.stdout)")
        #expect(dump.stderr.contains("incomplete dump: 41 rows from 04h could not be read"))
        let dumpJSON = try await NFCTool.run(["dump", "--reader", reader, "--json"])
        #expect(dumpJSON.status == 6)
        let object = try #require(json(dumpJSON.stdout))
        #expect(object["complete"] as? Bool == false && (object["rows"] as? [Any])?.count == 4)
        #expect(((object["unreadable"] as? [[String: Any]])?.first?["count"] as? Int) == 41)
        let whole = try await NFCTool.run([
            "dump", "--reader",
            "sim:"
                + (try await {
                    let path = directory.appendingPathComponent("open.json").path
                    _ = try await NFCTool.run(["tag", "new", "ntag213", "-o", path])
                    return path
                }()),
        ])
        #expect(whole.status == 0 && !whole.stdout.contains("unreadable"))
    }

    @Test(arguments: [
        (["--text", "hi", "--lang", ""], "Text record has no language code"),
        (["--uri", "https://a\u{01}b"], "control characters"),
        (["--uri", "example.com"], "has no scheme"),
    ])
    func theEncoderRefusesWhatWouldNotReadBack(arguments: [String], reason: String) async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let encoded = try await NFCTool.run(["ndef", "encode"] + arguments)
        #expect(encoded.status == 2 && encoded.stderr.contains(reason), "\(encoded.status) \(encoded.stderr)")
        let image = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag216", "-o", image]).status == 0)
        let written = try await NFCTool.run(["write", "--reader", "sim:" + image] + arguments)
        #expect(written.status == 2 && written.stderr.contains(reason), "\(written.status) \(written.stderr)")
    }

    @Test func aMessageOverTheDecodersLimitIsNotEncoded() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = directory.appendingPathComponent("big.bin")
        try Data(count: 17 << 20).write(to: payload)
        let result = try await NFCTool.run(["ndef", "encode", "--mime", "application/octet-stream", "--payload-file", payload.path])
        #expect(result.status == 2 && result.stderr.contains("exceeds the limit"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func misspeltJSONKeysAreErrorsWithTheirPath() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let message = directory.appendingPathComponent("m.json")
        try Data(#"{"records": [{"text": "bonjour", "langauge": "fr"}]}"#.utf8).write(to: message)
        let encoded = try await NFCTool.run(["ndef", "encode", "--json", message.path])
        #expect(encoded.status == 2 && encoded.stderr.contains("$.records[0].langauge: unknown key"), "\(encoded.stderr)")
        let image = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag216", "-o", image]).status == 0)
        let written = try await NFCTool.run(["write", "--reader", "sim:" + image, "--json", message.path])
        #expect(written.status == 2 && written.stderr.contains("langauge"))
        // A record that would not read back is refused for its own reason, not for its keys.
        try Data(#"{"records": [{"text": "x", "language": ""}]}"#.utf8).write(to: message)
        let invalid = try await NFCTool.run(["ndef", "encode", "--json", message.path])
        #expect(
            invalid.status == 2 && invalid.stderr.contains("would not read back") && !invalid.stderr.contains("unknown key"),
            "\(invalid.stderr)")
        // What nfc read --json prints is accepted back as it is.
        #expect(
            try await NFCTool.run(["write", "--reader", "sim:" + image, "--text", "round trip", "--uri", "https://example.com"]).status == 0
        )
        let read = try await NFCTool.run(["read", "--reader", "sim:" + image, "--json"])
        try Data(read.stdout.utf8).write(to: message)
        #expect(try await NFCTool.run(["ndef", "encode", "--json", message.path]).status == 0)
    }

    @Test("A bad value in an image names its field, line and offset, and no Swift type")
    func imageErrorsSayWhere() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "-o", path]).status == 0)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let counters = try #require(text.range(of: "\"counters\" : [\n      0"))
        text.replaceSubrange(counters, with: "\"counters\" : [\n      -1")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let shown = try await NFCTool.run(["tag", "show", path])
        #expect(shown.status == 2)
        #expect(
            shown.stderr.contains("tag.counters[0]") && shown.stderr.contains("found -1") && shown.stderr.contains("line "),
            "\(shown.stderr)")
        let read = try await NFCTool.run(["read", "--reader", "sim:" + path, "--json"])
        #expect(read.status == 2)
        let error = try #require(json(read.stdout)?["error"] as? [String: Any], "a JSON error object on stdout: \(read.stdout)")
        #expect(error["code"] as? String == "badInput" && error["exitStatus"] as? Int == 2)
        #expect(error["field"] as? String == "tag.counters[0]" && error["offset"] is Int && error["file"] as? String == path)
        try Data(#"{"format": "opencorenfc-tag-image", "version": 1, "type": "ntag213", "tag": []}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        let wrongShape = try await NFCTool.run(["tag", "show", path])
        #expect(wrongShape.stderr.contains("expected an object, found an array"))
        #expect(!wrongShape.stderr.contains("Dictionary") && !wrongShape.stderr.contains("Swift"))
    }

    @Test("Exit statuses: not found 3, bad input 2, usage 64, busy 5, permission 4")
    func distinctExitStatuses() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try await NFCTool.run(["read", "--reader", "sim:" + directory.appendingPathComponent("none.json").path])
        #expect(missing.status == 3)
        #expect(try await NFCTool.run(["ndef", "decode", "zz"]).status == 2)
        #expect(try await NFCTool.run(["read", "--no-such-option"]).status == 64)
        let missingJSON = try await NFCTool.run(["scan", "--json", "--reader", "sim:" + directory.path + "/none.json"])
        #expect((json(missingJSON.stdout)?["error"] as? [String: Any])?["code"] as? String == "notFound")
        let dispatchJSON = try await NFCTool.run(["dispatch", "d10120", "--json"])
        #expect(
            dispatchJSON.status == 2 && (json(dispatchJSON.stdout)?["error"] as? [String: Any])?["code"] as? String == "badInput",
            "\(dispatchJSON.stdout)")
        let path = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "-o", path]).status == 0)
        // Another process holds the image: a command waits its lock timeout, then says busy.
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let busy = try await NFCTool.run(
            ["write", "--reader", "sim:" + path, "--text", "x"], environment: ["OPENCORENFC_LOCK_TIMEOUT": "0.2"])
        #expect(busy.status == 5 && busy.stderr.contains("in use by another command"), "\(busy.stderr)")
        flock(fd, LOCK_UN)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + path, "--text", "x"]).status == 0)
    }

    @Test("FIFOs, devices and folders given as files are refused at once", .timeLimit(.minutes(1)))
    func nonRegularPathsAreRefused() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [
            ["read", "--reader", "sim:" + fifo], ["tag", "show", fifo], ["ndef", "decode", "--message", fifo],
            ["ndef", "decode", "--message", directory.path], ["dispatch", "d1010655052b31353535", "--apps", fifo],
            ["tag", "show", "/dev/zero"],
        ] {
            let result = try await NFCTool.run(arguments)
            #expect(result.status == 2 && result.stderr.contains("not a regular file"), "\(arguments): \(result.stderr)")
        }
        let lint = try await NFCTool.run(["lint", fifo])
        #expect(lint.status == 2 && (lint.stdout + lint.stderr).contains("not a regular file"), "\(lint.stdout)")
        let apps = directory.appendingPathComponent("apps.json")
        try Data(#"{"associations": {"a.example": "fifo.json"}}"#.utf8).write(to: apps)
        let association = try await NFCTool.run(["dispatch", "d1010655052b31353535", "--apps", apps.path])
        #expect(association.status == 2 && association.stderr.contains("associations.a.example: cannot read"), "\(association.stderr)")
    }
}
