import Foundation
import NFCSimulator
import NFCTransport
import Testing

/// ``ISO7816Card/Image``: JSON round trips and every rejected field.
@Suite("ISO7816 card image")
struct ISO7816CardImageTests {
    static func validImage() throws -> ISO7816Card.Image {
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 64), message: [0xD0, 0x00, 0x00])
        return tag.card.image
    }

    func roundTrip(_ image: ISO7816Card.Image) throws -> ISO7816Card.Image {
        let json = try JSONEncoder().encode(image)
        return try JSONDecoder().decode(ISO7816Card.Image.self, from: json)
    }

    @Test("card → image → JSON → card gives the same image")
    func roundTripsThroughJSON() throws {
        let card = ISO7816Card(
            uid: [0x08, 0x11, 0x22, 0x33], sak: 0x28,
            ats: AnswerToSelect(fsci: 8, ta: 0x00, tb: 0x81, tc: 0x02, historicalBytes: Array("YubiKey".utf8)),
            configuration: .init(
                extendedLength: true, maxCommandDataLength: 3000, maxResponseDataLength: 1024, processingTime: .microseconds(750)),
            applets: try Type4Tag().card.applets
        )
        let image = card.image
        #expect(image.atqa == [0x04, 0x03])
        #expect(image.sak == [0x28])
        let decoded = try roundTrip(image)
        #expect(decoded == image)
        let rebuilt = try ISO7816Card(image: decoded)
        #expect(rebuilt.image == image)
        #expect(rebuilt.uid == card.uid)
        #expect(rebuilt.configuration == card.configuration)
        #expect(rebuilt.ats == card.ats)
    }

    @Test("the JSON has readable camelCase keys and hex byte strings")
    func jsonShape() throws {
        let json = try JSONEncoder().encode(try Self.validImage())
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(object?["uid"] as? String == "045a71329c6e80")
        #expect(object?["atqa"] as? String == "4403")
        #expect(object?["sak"] as? String == "20")
        #expect(object?["ats"] as? String == "067777710280")
        #expect(object?["maxResponseDataLength"] as? Int == 256)
        let applets = object?["applets"] as? [[String: Any]]
        #expect(applets?.first?["applet"] as? String == "ndef")
        #expect(applets?.first?["aid"] as? String == "d2760000850101")
        let files = applets?.first?["files"] as? [[String: Any]]
        #expect(files?.first?["id"] as? String == "e103")
        #expect(files?.first?["writeAccess"] as? String == "never")
    }

    @Test("an applet without an image (a test double) is left out")
    func testDoublesAreNotSaved() {
        let card = ISO7816Card(applets: [ISO7816TestApplet(aid: [1, 2, 3, 4, 5])])
        #expect(card.image.applets.isEmpty)
    }

    static let rejections: [(String, @Sendable (inout ISO7816Card.Image) -> Void)] = [
        ("uid", { $0.uid = [1, 2, 3, 4, 5] }),
        ("uid", { $0.uid = [0x88, 1, 2, 3, 4, 5, 6] }),
        ("atqa", { $0.atqa = [0x44] }),
        ("atqa", { $0.atqa = [0x04, 0x03] }),  // single-size bits for a 7-byte UID
        ("sak", { $0.sak = [0x00] }),
        ("sak", { $0.sak = [0x24] }),
        ("sak", { $0.sak = [0x20, 0x00] }),
        ("ats", { $0.ats = [0x07, 0x77] }),  // TL disagrees
        ("ats", { $0.ats = [0x02, 0x79] }),  // TA announced but missing
        ("ats", { $0.ats = [0x02, 0x09] }),  // FSCI 9
        ("ats", { $0.ats = [0x03, 0x17, 0x08] }),  // TA(1) bit 4
        ("ats", { $0.ats = [0x03, 0x27, 0xF0] }),  // FWI 15
        ("maxCommandDataLength", { $0.maxCommandDataLength = 256 }),
        ("maxCommandDataLength", { $0.maxCommandDataLength = 0 }),
        ("maxResponseDataLength", { $0.maxResponseDataLength = 257 }),
        ("processingMicroseconds", { $0.processingMicroseconds = -1 }),
        ("typeB.pupi", { $0.typeB = .init(pupi: [1, 2, 3], applicationData: [0, 0, 0, 0], protocolInfo: [0x00, 0x81, 0x71]) }),
        ("typeB.applicationData", { $0.typeB = .init(pupi: [1, 2, 3, 4], applicationData: [0], protocolInfo: [0x00, 0x81, 0x71]) }),
        ("typeB.protocolInfo", { $0.typeB = .init(pupi: [1, 2, 3, 4], applicationData: [0, 0, 0, 0], protocolInfo: [0x00, 0x81]) }),
        // Protocol_Type 0: not ISO/IEC 14443-4.
        (
            "typeB.protocolInfo",
            { $0.typeB = .init(pupi: [1, 2, 3, 4], applicationData: [0, 0, 0, 0], protocolInfo: [0x00, 0x80, 0x71]) }
        ),
        (
            "applets[0].aid",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.aid = [0xD2, 0x76]
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        (
            "applets[0].files[0].id",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.files[0].id = [0x3F, 0x00]
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        (
            "applets[0].files[1].id",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.files[1].id = [0xE1, 0x03]
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        (
            "applets[0].files[1].data",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.files[1].data = []
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        (
            "applets[0].maxReadLength",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.maxReadLength = 0
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        (
            "applets[0].maxUpdateLength",
            { image in
                if case .ndef(var ndef) = image.applets[0] {
                    ndef.maxUpdateLength = 65_536
                    image.applets[0] = .ndef(ndef)
                }
            }
        ),
        ("applets[1].aid", { $0.applets.append($0.applets[0]) }),
    ]

    @Test("images describing impossible cards are rejected with the field named", arguments: rejections.indices)
    func rejects(_ index: Int) throws {
        let (field, damage) = Self.rejections[index]
        var image = try Self.validImage()
        damage(&image)
        do {
            _ = try ISO7816Card(image: image)
            Issue.record("accepted an image with a bad \(field)")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.field == field)
        }
    }

    @Test("an unknown applet kind or a missing field does not decode")
    func undecodable() throws {
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Self.validImage())) as? [String: Any] ?? [:]
        var applets = object["applets"] as? [[String: Any]] ?? []
        applets[0]["applet"] = "piv"
        object["applets"] = applets
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ISO7816Card.Image.self, from: data) }
        object.removeValue(forKey: "uid")
        let missing = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ISO7816Card.Image.self, from: missing) }
    }
}
