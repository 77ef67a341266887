import Foundation
import NFCSimulator
import NFCTransport
import Testing

@Suite struct TagImageFileTests {
    static let kinds = VirtualTagKind.allCases

    @Test(arguments: kinds, [false, true])
    func everyKindRoundTrips(kind: VirtualTagKind, blank: Bool) throws {
        let tag = try kind.make(blank: blank)
        let bytes = try TagImageFile.encode(tag)
        let loaded = try TagImageFile.decode(bytes)
        // A blank type4 (A or B) is a card without the NDEF application; a security key is an iso7816 card.
        let blankType4 = (kind == .type4 || kind == .type4b) && blank
        #expect(VirtualTagKind(of: loaded) == (blankType4 || kind == .securityKey || kind == .walletPass ? .iso7816 : kind))
        #expect(loaded.identifier == tag.identifier)
        #expect(try TagImageFile.encode(loaded) == bytes)
    }

    @Test func blankAndFormattedDiffer() throws {
        // A security key's blank form differs only in credentials, which are made fresh each time;
        // an NTAG 424 DNA ships NDEF-formatted (data sheet §8.2.2), so its blank form is its factory form.
        for kind in Self.kinds where ![.iso7816, .securityKey, .ntag424].contains(kind) {
            #expect(try TagImageFile.encode(kind.make(blank: true)) != TagImageFile.encode(kind.make(blank: false)), "\(kind)")
        }
    }

    @Test func savedStateSurvivesAFieldSession() async throws {
        // Write a page through the field, save, load: the page is still there.
        let field = SimulatedField()
        let id = await field.place(try VirtualTagKind.ntag213.make())
        let target = try await field.targets(matching: .iso14443A)[0]
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        #expect(try await connection.transceive([0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF], timeout: .milliseconds(20)) == [0x0A])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TagImageFile.save(try #require(await field.tag(id)), to: path)
        let reloaded = SimulatedField()
        await reloaded.place(try TagImageFile.load(path))
        let again = try await reloaded.connect(to: try await reloaded.targets(matching: .all)[0], meter: AirTimeMeter())
        #expect(try await again.transceive([0x30, 0x05], timeout: .milliseconds(20)).prefix(4) == [0xDE, 0xAD, 0xBE, 0xEF])
    }

    @Test func saveReplacesAtomicallyAndLeavesNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tag.json").path
        try TagImageFile.save(try VirtualTagKind.slix2.make(), to: path)
        try TagImageFile.save(try VirtualTagKind.felicaLiteS.make(), to: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tag.json"])
        #expect(VirtualTagKind(of: try TagImageFile.load(path)) == .felicaLiteS)
    }

    @Test func saveIntoAMissingDirectoryFailsCleanly() throws {
        #expect(throws: TagImageError(.notFound, "")) {
            try TagImageFile.save(try VirtualTagKind.ntag213.make(), to: "/nonexistent-dir-\(UUID().uuidString)/tag.json")
        }
    }

    @Test func loadingAMissingFileIsNotFound() {
        #expect(throws: TagImageError(.notFound, "")) { try TagImageFile.load("/nonexistent-\(UUID().uuidString).json") }
    }

    static func envelope(_ body: String) -> [UInt8] { Array(body.utf8) }

    @Test(arguments: [
        ("not json", TagImageError.Code.malformed, ""),
        ("{}", .malformed, "format"),
        (#"{"format":"other","version":1,"type":"ntag213","tag":{}}"#, .malformed, "format"),
        (#"{"format":"opencorenfc-tag-image","version":2,"type":"ntag213","tag":{}}"#, .unsupportedVersion, "version"),
        (#"{"format":"opencorenfc-tag-image","version":1,"type":"mifare-classic","tag":{}}"#, .unknownType, "type"),
        (#"{"format":"opencorenfc-tag-image","version":1,"type":"ntag213","tag":{"model":"ntag213"}}"#, .malformed, "tag.uid"),
        (#"{"format":"opencorenfc-tag-image","version":"1","type":"ntag213","tag":{}}"#, .malformed, "version"),
    ])
    func rejectsMalformedEnvelopes(text: String, code: TagImageError.Code, field: String) {
        do {
            _ = try TagImageFile.decode(Self.envelope(text))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == code)
            #expect(error.field == field)
        }
    }

    @Test func rejectsATypeThatDisagreesWithTheTag() throws {
        var text = String(decoding: try TagImageFile.encode(VirtualTagKind.ntag215.make()), as: UTF8.self)
        text = text.replacingOccurrences(of: #""type" : "ntag215""#, with: #""type" : "ntag213""#)
        do {
            _ = try TagImageFile.decode(Array(text.utf8))
            Issue.record("accepted a type that disagrees with the model")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.field == "type")
        }
    }

    @Test func rejectsAMemoryOfTheWrongSize() throws {
        var text = String(decoding: try TagImageFile.encode(VirtualTagKind.ntag213.make()), as: UTF8.self)
        text = text.replacingOccurrences(of: #""memory" : "045a"#, with: #""memory" : "00045a"#)
        do {
            _ = try TagImageFile.decode(Array(text.utf8))
            Issue.record("accepted a memory of the wrong size")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.field == "tag.memory")
        }
    }

    @Test func everyTruncationOfAnImageIsRejected() throws {
        let bytes = try TagImageFile.encode(VirtualTagKind.ultralightMF0UL11.make())
        for length in stride(from: 0, to: bytes.count - 2, by: 7) {
            #expect(throws: TagImageError.self) { try TagImageFile.decode(Array(bytes.prefix(length))) }
        }
    }

    @Test func catalogueRejectsBadIdentifiers() {
        #expect(throws: TagImageError(.invalidValue, "")) { try VirtualTagKind.ntag216.make(identifier: [0x04, 0x01]) }
        #expect(throws: TagImageError(.invalidValue, "")) { try VirtualTagKind.felica.make(identifier: [0x01]) }
        #expect(throws: TagImageError(.invalidValue, "")) { try VirtualTagKind.slix2.make(identifier: [0xE0, 0x07, 1, 2, 3, 4, 5, 6]) }
    }
}
