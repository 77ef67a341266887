import Foundation
import NFCSimulator
import Testing

/// ``Type4Tag`` images: the card image with the NDEF application, through JSON and back.
@Suite("Type4 tag image")
struct Type4TagImageTests {
    @Test("tag → image → JSON → tag → the same image, the same message, the same answers")
    func roundTrip() throws {
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 128, writeProtected: true), message: [0xD0, 0x00, 0x00])
        let json = try JSONEncoder().encode(tag.image)
        let decoded = try JSONDecoder().decode(Type4Tag.Image.self, from: json)
        var rebuilt = try Type4Tag(image: decoded)
        #expect(rebuilt.image == tag.image)
        #expect(rebuilt.ndefMessage == [0xD0, 0x00, 0x00])
        let commands: [[UInt8]] = [
            [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01],
            [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], [0x00, 0xB0, 0x00, 0x00, 0x0F],
            [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], [0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x00],
        ]
        for command in commands {
            #expect(tag.respond(to: command, context: .init()) == rebuilt.respond(to: command, context: .init()))
        }
    }

    @Test("a mapping 3.0 tag with a 40 000-byte file survives the round trip")
    func largeRoundTrip() throws {
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 40_000, extendedLength: true))
        try tag.setNDEFMessage([UInt8](repeating: 0x42, count: 39_000))
        let json = try JSONEncoder().encode(tag.image)
        let rebuilt = try Type4Tag(image: JSONDecoder().decode(Type4Tag.Image.self, from: json))
        #expect(rebuilt.image == tag.image)
        #expect(rebuilt.ndefMessage?.count == 39_000)
        #expect(rebuilt.ndefApplication?.offsetDataObjects == true)
    }

    @Test("a card image without the NDEF application is no Type 4 Tag")
    func requiresNDEFApplication() throws {
        var image = try Type4Tag().image
        image.applets = []
        #expect(throws: TagImageError(.invalidValue, field: "applets", "")) { try Type4Tag(image: image) }
        #expect(throws: Never.self) { try ISO7816Card(image: image) }
    }

    @Test("a damaged NDEF application image is refused with the nested field path")
    func nestedError() throws {
        var image = try Type4Tag().image
        guard case .ndef(var ndef) = image.applets[0] else {
            Issue.record("not an NDEF applet")
            return
        }
        ndef.files.append(ndef.files[1])
        image.applets[0] = .ndef(ndef)
        do {
            _ = try Type4Tag(image: image)
            Issue.record("accepted duplicate file identifiers")
        } catch {
            #expect(error.field == "applets[0].files[2].id")
        }
    }

    @Test("the CC a tag stores reads back as the configuration described it")
    func capabilityContainer() throws {
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 0x1000, maxReadLength: 0x3B, maxUpdateLength: 0x34, ndefFileID: 0x0001))
        let cc = try tag.capabilityContainer()
        #expect(
            cc
                == Type4CapabilityContainer(
                    mappingVersion: 0x20, maxReadLength: 0x3B, maxUpdateLength: 0x34, ndefFileID: 0x0001, maxNDEFFileSize: 0x1000))
        #expect(cc.bytes == [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00])
        #expect(throws: TagImageError.self) { try Type4CapabilityContainer(bytes: [0x00, 0x0F, 0x20]) }
        #expect(throws: TagImageError.self) {
            try Type4CapabilityContainer(bytes: [0x00, 0x0F, 0x20, 0, 0xFF, 0, 0xFF, 0x05, 0x06, 0xE1, 0x04, 0, 0x80, 0, 0])
        }
    }

    @Test("a CC listing a proprietary file after the NDEF file (NTAG 424 DNA's, CCLEN 17h in a 32-byte file)")
    func proprietaryFileControl() throws {
        let cc = try Type4CapabilityContainer(bytes: NTAG424Tag.capabilityContainer)
        #expect(cc.ndefFileID == 0xE104 && cc.maxNDEFFileSize == 256 && cc.maxReadLength == 256 && cc.maxUpdateLength == 255)
        #expect(
            cc.files.last
                == Type4CapabilityContainer.FileControl(
                    kind: .proprietary, fileID: 0xE105, maxSize: 128, readAccess: 0x82, writeAccess: 0x83))
        #expect(cc.bytes == Array(NTAG424Tag.capabilityContainer.prefix(0x17)), "written back as read, up to CCLEN")
        var cut = NTAG424Tag.capabilityContainer
        cut[1] = 0x15  // CCLEN ends inside the proprietary TLV
        #expect(throws: TagImageError.self) { try Type4CapabilityContainer(bytes: cut) }
    }
}
