import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc watch` on simulated readers (directories of tag images): taps, tags held, removals,
/// handlers that fail or hang, several readers at once, Ctrl-C.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WatchCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A folder a watch treats as one reader's field.
    func field(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An NTAG215 image holding `uri`, kept outside any field.
    func image(_ name: String, uid: String, uri: String) async throws -> URL {
        let path = directory.appendingPathComponent(name + ".json")
        let created = try await NFCTool.run(["tag", "new", "ntag215", "--uid", uid, "-o", path.path, "--force"])
        #expect(created.status == 0, "\(created.stderr)")
        let written = try await NFCTool.run(["write", "--reader", "sim:" + path.path, "--uri", uri])
        #expect(written.status == 0, "\(written.stderr)")
        return path
    }

    /// Taps a tag: the image appears in the field at once (copied aside, then renamed in).
    func tap(_ image: URL, on field: URL) throws {
        let staging = directory.appendingPathComponent(".staging-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: image, to: staging)
        try FileManager.default.moveItem(at: staging, to: field.appendingPathComponent(image.lastPathComponent))
    }

    func takeAway(_ image: URL, from field: URL) throws {
        try FileManager.default.removeItem(at: field.appendingPathComponent(image.lastPathComponent))
    }

    func configuration(_ json: String) throws -> String {
        let path = directory.appendingPathComponent("apps-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: path)
        return path.path
    }

    @Test("Taps, a tag held while another comes, removal and a second tap")
    func tapsHoldsRemovals() async throws {
        let reader = try field("reader")
        let first = try await image("first", uid: "04A1A2A3A4A5A6", uri: "https://example.org/first")
        let second = try await image("second", uid: "04B1B2B3B4B5B6", uri: "tel:+15550100")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--json"])
        try tap(first, on: reader)
        let one = try await #require(watch.next())
        #expect(one["event"] as? String == "tap")
        #expect(one["uid"] as? String == "04A1A2A3A4A5A6")
        #expect(one["url"] as? String == "https://example.org/first")
        #expect(one["target"] as? String == "system:safari")
        #expect(one["reader"] as? String == "sim:" + reader.path)
        // The first tag stays on the reader: the next event is the second tag, not a repeat.
        try tap(second, on: reader)
        let two = try await #require(watch.next())
        #expect(two["event"] as? String == "tap" && two["uid"] as? String == "04B1B2B3B4B5B6")
        #expect(two["target"] as? String == "system:phone")
        try takeAway(first, from: reader)
        let left = try await #require(watch.next())
        #expect(left["event"] as? String == "left" && left["uid"] as? String == "04A1A2A3A4A5A6")
        try tap(first, on: reader)
        let again = try await #require(watch.next())
        #expect(again["event"] as? String == "tap" && again["uid"] as? String == "04A1A2A3A4A5A6")
        let ended = await watch.interrupt()
        #expect(ended.status == 0, "Ctrl-C exits cleanly: \(ended.stderr)")
    }

    @Test("A failing handler is reported and the watch goes on; the URL is an argument, not shell text")
    func failingHandler() async throws {
        let reader = try field("reader")
        let record = directory.appendingPathComponent("argument.txt")
        let config = try configuration(
            """
            {"handlers": {"phone": ["/bin/sh", "-c", "exit 3"],
                          "safari": ["/bin/sh", "-c", "printf '%s' \\"$0\\" > '\(record.path)'"]}}
            """)
        let failing = try await image("failing", uid: "04C1C2C3C4C5C6", uri: "tel:+15550101")
        let hostile = try await image("hostile", uid: "04D1D2D3D4D5D6", uri: "https://example.org/a;echo$(id)`x`'q")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--apps", config, "--json"])
        try tap(failing, on: reader)
        var skipped: [[String: Any]] = []
        let handler = try await #require(watch.next("handler", skipped: &skipped))
        #expect(handler["status"] as? String == "failed")
        #expect(handler["exitCode"] as? Int == 3)
        try tap(hostile, on: reader)
        let tapped = try await #require(watch.next("tap", skipped: &skipped))
        let url = try #require(tapped["url"] as? String)
        let done = try await #require(watch.next("handler", skipped: &skipped))
        #expect(done["status"] as? String == "ok", "\(done)")
        #expect(try String(contentsOf: record, encoding: .utf8) == url, "the handler got the URL as it is")
        await #expect(watch.interrupt().status == 0)
    }

    @Test("A hung handler is killed at its time limit and delays no tap")
    func hungHandler() async throws {
        let reader = try field("reader")
        let config = try configuration(#"{"handlers": {"phone": ["/bin/sh", "-c", "sleep 60"]}}"#)
        let slow = try await image("slow", uid: "04E1E2E3E4E5E6", uri: "tel:+15550102")
        let next = try await image("next", uid: "04F1F2F3F4F5F6", uri: "mailto:a@example.org")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--apps", config, "--handler-timeout", "3", "--json"])
        try tap(slow, on: reader)
        await #expect(watch.next()?["event"] as? String == "tap")
        try tap(next, on: reader)
        let second = try await #require(watch.next())
        #expect(
            second["event"] as? String == "tap" && second["uid"] as? String == "04F1F2F3F4F5F6",
            "the next tap is reported while the first handler still runs")
        let killed = try await #require(watch.next())
        #expect(killed["event"] as? String == "handler" && killed["status"] as? String == "timeout", "\(killed)")
        await #expect(watch.interrupt().status == 0)
    }

    @Test("Readers are watched independently")
    func severalReaders() async throws {
        let east = try field("east")
        let west = try field("west")
        let config = try configuration(#"{"handlers": {"phone": ["/bin/sh", "-c", "sleep 60"]}}"#)
        let a = try await image("a", uid: "04010203040506", uri: "tel:+1")
        let b = try await image("b", uid: "04111213141516", uri: "sms:+2")
        let watch = try WatchProcess([
            "--reader", "sim:" + east.path, "--reader", "sim:" + west.path, "--apps", config, "--json", "--handler-timeout", "60",
        ])
        try tap(a, on: east)
        let first = try await #require(watch.next())
        #expect(first["reader"] as? String == "sim:" + east.path)
        try tap(b, on: west)
        let second = try await #require(watch.next())
        #expect(second["reader"] as? String == "sim:" + west.path && second["url"] as? String == "sms:+2")
        let ended = await watch.interrupt()
        #expect(ended.status == 0, "Ctrl-C ends the watch with a handler still running: \(ended.stderr)")
    }

    @Test("Unreadable images and tags are reported, and the watch goes on")
    func badInput() async throws {
        let reader = try field("reader")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--json"])
        try Data("{\"type\": \"ntag215\", \"tag\": {".utf8).write(to: reader.appendingPathComponent("corrupt.json"))
        let problem = try await #require(watch.next())
        #expect(problem["event"] as? String == "error")
        #expect((problem["reason"] as? String)?.contains("corrupt.json") == true)
        let blank = directory.appendingPathComponent("blank.json")
        #expect(try await NFCTool.run(["tag", "new", "ntag215", "--blank", "-o", blank.path]).status == 0)
        try tap(blank, on: reader)
        let failed = try await #require(watch.next())
        #expect(failed["event"] as? String == "read-failed", "\(failed)")
        let empty = directory.appendingPathComponent("empty.json")
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "--uid", "04212223242526", "-o", empty.path]).status == 0)
        try tap(empty, on: reader)
        let nothing = try await #require(watch.next())
        #expect(
            nothing["event"] as? String == "tap" && nothing["delivered"] as? Bool == false && nothing["reason"] as? String == "no-message")
        await #expect(watch.interrupt().status == 0)
    }

    @Test func textOutput() async throws {
        let reader = try field("reader")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path])
        try await tap(try image("t", uid: "04313233343536", uri: "https://example.org/t"), on: reader)
        let line = try await #require(watch.next())
        let text = try #require(line["unparsed"] as? String)
        #expect(text.hasPrefix("[sim:\(reader.path)] tap 04313233343536: record 0: https://example.org/t; delivered to safari"), "\(text)")
        let ended = await watch.interrupt()
        #expect(ended.status == 0 && ended.stderr.contains("watching sim:\(reader.path)"))
    }

    @Test("A FIFO in the field is skipped with a warning: taps go on, and Ctrl-C still stops the watch")
    func fifoDoesNotWedgeTheWatch() async throws {
        let reader = try field("fifo")
        #expect(mkfifo(reader.appendingPathComponent("trap.json").path, 0o600) == 0)
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--json"])
        let warning = try #require(await watch.next())
        #expect(
            warning["event"] as? String == "error" && (warning["reason"] as? String)?.contains("not a regular file; skipped") == true,
            "\(warning)")
        try await tap(try image("f", uid: "04414243444546", uri: "https://example.org/f"), on: reader)
        let tapped = try #require(await watch.next())
        #expect(tapped["event"] as? String == "tap" && tapped["url"] as? String == "https://example.org/f", "\(tapped)")
        await #expect(watch.interrupt().status == 0)
    }

    @Test("A missing folder is reported and watched for; taps count once it appears")
    func missingFolderIsReportedThenWatched() async throws {
        let reader = directory.appendingPathComponent("later")
        let watch = try WatchProcess(["--reader", "sim:" + reader.path, "--json"])
        let warning = try #require(await watch.next())
        #expect((warning["reason"] as? String)?.contains("no such file or folder; watching for it to appear") == true, "\(warning)")
        try FileManager.default.createDirectory(at: reader, withIntermediateDirectories: true)
        try await tap(try image("l", uid: "04515253545556", uri: "https://example.org/l"), on: reader)
        var skipped: [[String: Any]] = []
        let tapped = try #require(await watch.next("tap", skipped: &skipped))
        #expect(tapped["url"] as? String == "https://example.org/l")
        #expect(skipped.contains { ($0["reason"] as? String)?.contains("appeared") == true }, "\(skipped)")
        await #expect(watch.interrupt().status == 0)
    }

    @Test func badArguments() async throws {
        let result = try await NFCTool.run(["watch", "--reader", "sim:/nonexistent", "--handler-timeout", "0"])
        #expect(result.status != 0 && result.stderr.contains("--handler-timeout"))
    }
}
