import Foundation
import Testing

/// `nfc dump -o` (a copy of a tag as a tag image), `nfc restore` and `nfc format --wipe`, on
/// simulated tags, as tagtool's dump/load and libnfc's nfc-mfultralight r/w do on real ones.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TagCopyCommandTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    private func tag(_ kind: String, _ name: String, uid: String? = nil, text: String? = nil) async throws -> String {
        let file = path(name)
        let created = try await NFCTool.run(["tag", "new", kind, "-o", file] + (uid.map { ["--uid", $0] } ?? []))
        #expect(created.status == 0, "\(created.stderr)")
        if let text {
            let written = try await NFCTool.run(["write", "--reader", "sim:" + file, "--text", text])
            #expect(written.status == 0, "\(written.stderr)")
        }
        return file
    }

    /// `dump -o` checks READ_SIG's answer: a virtual tag's names the simulator's Type 2 test key,
    /// a real NTAG21x's (UID and signature as proxmark3's `recover_pk.py` carries them) NXP's
    /// NTAG21x key, a forged one none.
    @Test func aCopyChecksTheOriginalitySignature() async throws {
        let virtual = try await tag("ntag216", "virtual.json")
        let dumped = try await NFCTool.run(["dump", "--reader", "sim:" + virtual, "-o", path("virtual-copy.json")])
        #expect(dumped.stdout.contains("originality: signed with the OpenCoreNFC simulator (Type 2) test key"), "\(dumped.stdout)")
        for (signature, verdict, valid) in [
            ("8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3", "valid, signed with NXP's NTAG21x key", true),
            (String(repeating: "11", count: 32), "INVALID", false),
        ] {
            let file = try await tag("ntag216", "real-\(valid).json", uid: "04E10CDA993C80")
            var image = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self))
            var fields = try #require(image["tag"] as? [String: Any])
            fields["signature"] = signature.lowercased()
            image["tag"] = fields
            try JSONSerialization.data(withJSONObject: image).write(to: URL(fileURLWithPath: file))
            let text = try await NFCTool.run(["dump", "--reader", "sim:" + file, "-o", path("copy-\(valid).json")])
            #expect(text.status == 0 && text.stdout.contains("originality: " + verdict), "\(text.stdout) \(text.stderr)")
            let report = try await NFCTool.run(["dump", "--reader", "sim:" + file, "-o", path("copy-\(valid).json"), "--force", "--json"])
            let originality = try #require(try json(report.stdout)["originality"] as? [String: Any])
            #expect(originality["valid"] as? Bool == valid && originality["testKey"] as? Bool == false, "\(report.stdout)")
            #expect(originality["signer"] as? String == (valid ? "NTAG21x" : nil))
        }
    }

    @Test func aCopyIsATagAndRestoresOntoAnotherOfTheSameModel() async throws {
        let original = try await tag("ntag215", "original.json", text: "copied")
        let copy = path("copy.json")
        let dumped = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", copy])
        #expect(dumped.status == 0 && dumped.stdout.contains("135 pages"), "\(dumped.stdout) \(dumped.stderr)")
        #expect(dumped.stdout.contains("PWD and PACK cannot be read"))

        let read = try await NFCTool.run(["read", "--reader", "sim:" + copy, "--json"])
        #expect(read.status == 0 && read.stdout.contains("copied"), "the copy is a tag: \(read.stderr)")
        let shown = try await NFCTool.run(["tag", "show", copy, "--json"])
        let originalShown = try await NFCTool.run(["tag", "show", original, "--json"])
        #expect(try json(shown.stdout)["uid"] as? String == json(originalShown.stdout)["uid"] as? String)
        let image = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: copy)), as: UTF8.self))
        let tagFields = try #require(image["tag"] as? [String: Any])
        let unread = try #require(tagFields["unreadPages"] as? [[String: Int]])
        #expect(unread == [["first": 133, "last": 134]], "PWD and PACK are marked: \(unread)")

        try Data("kept".utf8).write(to: URL(fileURLWithPath: path("kept.json")))
        let again = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", path("kept.json")])
        #expect(again.status == 2 && again.stderr.contains("--force"), "an existing file is kept: \(again.stderr)")
        #expect(try String(contentsOfFile: path("kept.json"), encoding: .utf8) == "kept")
        #expect(try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", copy, "--force"]).status == 0)

        let blank = try await tag("ntag215", "blank.json", uid: "04a1a2a3a4a5a6")
        let restored = try await NFCTool.run(["restore", copy, "--reader", "sim:" + blank, "--json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        let report = try json(restored.stdout)
        #expect(report["restored"] as? Bool == true && (report["pagesWritten"] as? Int ?? 0) > 0, "\(restored.stdout)")
        let onBlank = try await NFCTool.run(["read", "--reader", "sim:" + blank, "--json"])
        #expect(onBlank.stdout.contains("copied"), "\(onBlank.stdout)")
        let blankShown = try await NFCTool.run(["tag", "show", blank, "--json"])
        #expect(try json(blankShown.stdout)["uid"] as? String == "04a1a2a3a4a5a6", "the UID is the chip's own")
        let twice = try await NFCTool.run(["restore", copy, "--reader", "sim:" + blank])
        #expect(twice.status == 0 && twice.stdout.contains("0 pages written"), "\(twice.stdout)")
    }

    @Test func aReadProtectedTagGivesAPartialCopyUnlessThePasswordIsGiven() async throws {
        let original = try await tag("ntag213", "protected.json", text: "behind a password")
        let protect = try await NFCTool.run(
            ["protect", "--reader", "sim:" + original, "--password", "0a0b0c0d", "--pack", "1234", "--from-page", "16", "--read"])
        #expect(protect.status == 0, "\(protect.stderr)")

        let partial = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", path("partial.json")])
        #expect(partial.status == 6, "a partial copy says so: \(partial.stderr)")
        #expect(partial.stderr.contains("incomplete copy: pages 10h–2Ch could not be read"), "\(partial.stderr)")
        let partialJSON = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", path("partial.json"), "--force", "--json"])
        #expect(partialJSON.status == 6)
        #expect(try json(partialJSON.stdout)["complete"] as? Bool == false)

        let whole = try await NFCTool.run(
            ["dump", "--reader", "sim:" + original, "-o", path("whole.json"), "--password", "0a0b0c0d", "--json"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let wholeReport = try json(whole.stdout)
        #expect((wholeReport["unreadPages"] as? [Any])?.isEmpty == true && wholeReport["complete"] as? Bool == true, "\(whole.stdout)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path("whole.json"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "a copy holding the password is private")

        let target = try await tag("ntag213", "target.json", uid: "04b1b2b3b4b5b6")
        let refusedPartial = try await NFCTool.run(["restore", path("partial.json"), "--reader", "sim:" + target, "--json"])
        #expect(refusedPartial.status == 1, "\(refusedPartial.stdout)")
        let error = try #require(try json(refusedPartial.stdout)["error"] as? [String: Any], "errors are JSON under --json")
        #expect((error["message"] as? String ?? "\(error)").contains("lacks 24 user pages from 10h"), "\(error)")
        let partialRestore = try await NFCTool.run(["restore", path("partial.json"), "--reader", "sim:" + target, "--partial"])
        #expect(
            partialRestore.status == 0 && partialRestore.stdout.contains("29 pages the copy could not read were left alone"),
            "\(partialRestore.stdout) \(partialRestore.stderr)")
        let restored = try await NFCTool.run(["restore", path("whole.json"), "--reader", "sim:" + target, "--config"])
        #expect(restored.status == 0, "\(restored.stderr)")
        let closed = try await NFCTool.run(["read", "--reader", "sim:" + target])
        #expect(closed.status != 0, "the restored configuration protects the tag")
        let opened = try await NFCTool.run(["read", "--reader", "sim:" + target, "--password", "0a0b0c0d", "--pack", "1234"])
        #expect(opened.status == 0 && opened.stdout.contains("behind a password"), "\(opened.stderr)")
    }

    /// A Topaz copied with every block and restored onto another Topaz of the same model (the
    /// data blocks; the UID stays the target's).
    @Test(arguments: ["topaz512", "topaz96"])
    func aTopazCopyRestoresOntoAnotherTopaz(kind: String) async throws {
        let original = try await tag(kind, "\(kind).json", text: "a topaz copy")
        let copy = path("\(kind)-copy.json")
        let dumped = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", copy, "--json"])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let saved = try json(dumped.stdout)
        #expect(
            saved["type"] as? String == kind && saved["blocks"] as? Int == (kind == "topaz512" ? 64 : 15)
                && saved["complete"] as? Bool == true)
        #expect(try await NFCTool.run(["read", "--reader", "sim:" + copy]).stdout.contains("a topaz copy"), "the copy is a tag")
        let blank = try await tag(kind, "\(kind)-target.json", uid: "01020304050607")
        let restored = try await NFCTool.run(["restore", copy, "--reader", "sim:" + blank, "--json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        let report = try json(restored.stdout)
        #expect(report["restored"] as? Bool == true && (report["blocksWritten"] as? Int ?? 0) > 0, "\(restored.stdout)")
        #expect(try await NFCTool.run(["read", "--reader", "sim:" + blank]).stdout.contains("a topaz copy"))
        // `tag show` gives a Topaz's UID as its 4-byte echo (UID-0…3), the identifier readers report.
        let shown = try json(try await NFCTool.run(["tag", "show", blank, "--json"]).stdout)
        let source = try json(try await NFCTool.run(["tag", "show", original, "--json"]).stdout)
        #expect(
            (shown["uid"] as? String)?.lowercased() == "01020304" && shown["uid"] as? String != source["uid"] as? String,
            "the target keeps its UID: \(shown)")
        let again = try await NFCTool.run(["restore", copy, "--reader", "sim:" + blank])
        #expect(again.status == 0 && again.stdout.contains("0 blocks written"), "\(again.stdout)")
        let locks = try await NFCTool.run(["restore", copy, "--reader", "sim:" + blank, "--locks", "--yes"])
        #expect(locks.status == 64 && locks.stderr.contains("data blocks only"), "\(locks.stderr)")
        let password = try await NFCTool.run(["dump", "--reader", "sim:" + original, "-o", path("pw.json"), "--password", "01020304"])
        #expect(password.status == 64 && password.stderr.contains("no password"), "\(password.stderr)")
    }

    @Test func restoreRefusesOtherModelsKindsAndUnconfirmedLocks() async throws {
        let ntag213 = try await tag("ntag213", "n213.json", text: "x")
        let copy = path("n213-copy.json")
        #expect(try await NFCTool.run(["dump", "--reader", "sim:" + ntag213, "-o", copy]).status == 0)
        let ntag216 = try await tag("ntag216", "n216.json")
        let model = try await NFCTool.run(["restore", copy, "--reader", "sim:" + ntag216])
        #expect(model.status != 0 && model.stderr.contains("same model"), "\(model.stderr)")

        let type4 = try await tag("type4", "t4.json")
        let notType2 = try await NFCTool.run(["dump", "--reader", "sim:" + type4, "-o", path("t4-copy.json")])
        #expect(notType2.status == 64 && notType2.stderr.contains("Ultralight EV1 and Topaz"), "\(notType2.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("t4-copy.json")))
        let type4Image = try await NFCTool.run(["restore", type4, "--reader", "sim:" + ntag213])
        #expect(type4Image.status == 64 && type4Image.stderr.contains("is a type4"), "\(type4Image.stderr)")

        // A locked tag's copy, restored with --locks, locks the target too.
        #expect(try await NFCTool.run(["lock", "--reader", "sim:" + ntag213]).status == 0)
        let lockedCopy = path("locked-copy.json")
        #expect(try await NFCTool.run(["dump", "--reader", "sim:" + ntag213, "-o", lockedCopy]).status == 0)
        let fresh = try await tag("ntag213", "fresh.json", uid: "04c1c2c3c4c5c6")
        let locks = try await NFCTool.run(["restore", lockedCopy, "--reader", "sim:" + fresh, "--locks"], stdin: "")
        #expect(locks.status == 64 && locks.stderr.contains("--yes"), "locks are permanent: \(locks.stderr)")
        let unlockedRestore = try await NFCTool.run(["restore", lockedCopy, "--reader", "sim:" + fresh])
        #expect(unlockedRestore.status == 0, "\(unlockedRestore.stderr)")
        let stillWritable = try await NFCTool.run(["write", "--reader", "sim:" + fresh, "--text", "still writable"])
        #expect(stillWritable.status == 0, "without --locks the copy stays writable: \(stillWritable.stderr)")
        let confirmed = try await NFCTool.run(["restore", lockedCopy, "--reader", "sim:" + fresh, "--locks", "--yes"])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        let refusedWrite = try await NFCTool.run(["write", "--reader", "sim:" + fresh, "--text", "after the restored locks"])
        #expect(refusedWrite.status != 0, "the restored lock bits and CC make the copy read-only: \(refusedWrite.stdout)")
        let yesAlone = try await NFCTool.run(["restore", copy, "--reader", "sim:" + fresh, "--yes"])
        #expect(yesAlone.status == 64)
        let forceAlone = try await NFCTool.run(["dump", "--reader", "sim:" + ntag213, "--force"])
        #expect(forceAlone.status == 64 && forceAlone.stderr.contains("give -o FILE"), "\(forceAlone.stderr)")
    }

    @Test func wipeTakesBrokenTLVsBackToAnEmptyTag() async throws {
        let file = try await tag("ntag213", "broken.json", text: "soon gone")
        // Break the TLV area: an NDEF TLV whose 3-byte length runs past the data area.
        var image = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self))
        var fields = try #require(image["tag"] as? [String: Any])
        var memory = try #require(fields["memory"] as? String)
        let start = memory.index(memory.startIndex, offsetBy: 32)
        memory.replaceSubrange(start..<memory.index(start, offsetBy: 8), with: "03ff7fff")
        fields["memory"] = memory
        image["tag"] = fields
        try JSONSerialization.data(withJSONObject: image).write(to: URL(fileURLWithPath: file))

        let broken = try await NFCTool.run(["read", "--reader", "sim:" + file])
        #expect(broken.status != 0, "the TLVs are broken: \(broken.stdout)")
        let format = try await NFCTool.run(["format", "--reader", "sim:" + file])
        #expect(format.status != 0, "format alone refuses a formatted tag")
        let wiped = try await NFCTool.run(["format", "--wipe", "--reader", "sim:" + file, "--json"])
        #expect(wiped.status == 0, "\(wiped.stderr)")
        let report = try json(wiped.stdout)
        #expect(report["wiped"] as? Bool == true && (report["pagesWritten"] as? Int ?? 0) >= 2, "\(wiped.stdout)")
        let empty = try await NFCTool.run(["read", "--reader", "sim:" + file])
        #expect(empty.status == 0 && empty.stdout.contains("empty tag"), "\(empty.stdout) \(empty.stderr)")
        let dump = try await NFCTool.run(["dump", "--reader", "sim:" + file])
        #expect(dump.stdout.contains("04h  03 00 fe 00") && dump.stdout.contains("05h  00 00 00 00"), "\(dump.stdout)")

        // Type 5: the same for an ICODE SLIX2 whose NDEF TLV runs past its data area.
        let slix = try await tag("slix2", "slix-broken.json", text: "type 5 text")
        var slixImage = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: slix)), as: UTF8.self))
        var slixFields = try #require(slixImage["tag"] as? [String: Any])
        var blocks = try #require(slixFields["blocks"] as? [String])
        blocks[1] = "03ff7fff"
        slixFields["blocks"] = blocks
        slixImage["tag"] = slixFields
        try JSONSerialization.data(withJSONObject: slixImage).write(to: URL(fileURLWithPath: slix))
        #expect(try await NFCTool.run(["read", "--reader", "sim:" + slix]).status != 0)
        let slixWiped = try await NFCTool.run(["format", "--wipe", "--reader", "sim:" + slix])
        #expect(slixWiped.status == 0 && slixWiped.stdout.contains("blocks written"), "\(slixWiped.stdout) \(slixWiped.stderr)")
        let slixRead = try await NFCTool.run(["read", "--reader", "sim:" + slix])
        #expect(slixRead.stdout.contains("empty tag"), "\(slixRead.stdout)")

        let type4 = try await tag("type4", "t4-wipe.json", text: "type 4 text")
        let type4Wiped = try await NFCTool.run(["format", "--wipe", "--reader", "sim:" + type4])
        #expect(type4Wiped.status == 0 && type4Wiped.stdout.contains("wiped"), "\(type4Wiped.stderr)")
        let type4Read = try await NFCTool.run(["read", "--reader", "sim:" + type4])
        #expect(type4Read.stdout.contains("empty tag"), "\(type4Read.stdout)")

        let locked = try await tag("ntag213", "locked.json", text: "kept")
        #expect(try await NFCTool.run(["lock", "--reader", "sim:" + locked]).status == 0)
        let refused = try await NFCTool.run(["format", "--wipe", "--reader", "sim:" + locked])
        #expect(refused.status != 0 && refused.stderr.contains("grants no write access"), "\(refused.stderr)")
    }
}
