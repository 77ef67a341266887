import Foundation
import NFCSimulator
import NFCTestSupport
import Testing

@Suite struct Type2ImageTests {
    @Test(arguments: Type2Tag.Model.allCases)
    func imageRoundTripsThroughJSON(_ model: Type2Tag.Model) throws {
        let tag = Chip(model)
        #expect(tag.mustWrite(4, "DEADBEEF"))
        #expect(tag.mustWrite(model.passwordPage, "01020304"))
        let data = try JSONEncoder().encode(tag.image)
        let image = try JSONDecoder().decode(Type2Tag.Image.self, from: data)
        #expect(image == tag.image)
        let rebuilt = try Type2Tag(image: image)
        #expect(rebuilt.memory == tag.memory)
        #expect(rebuilt.counters == tag.counters)
        #expect(rebuilt.tearingFlags == tag.tearingFlags)
        #expect(rebuilt.signature == tag.signature)
        #expect(rebuilt.image == tag.image)
    }

    @Test func jsonFieldsAreHexStrings() throws {
        let tag = Type2Tag(model: .ultralightEV1MF0UL11, uid: exampleUID, blank: true)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(tag.image)) as? [String: Any]
        #expect(json?["model"] as? String == "ultralightEV1MF0UL11")
        #expect(json?["uid"] as? String == "04e141124c2880")
        #expect((json?["memory"] as? String)?.hasPrefix("04e1412c124c2880f6480000") == true)
        #expect((json?["memory"] as? String)?.count == 160)
        #expect(json?["tearingFlags"] as? String == "bdbdbd")
        #expect(json?["counters"] as? [Int] == [0, 0, 0])
        #expect(json?["failedAuthentications"] as? Int == 0)
    }

    @Test func stateSurvivesTheImage() throws {
        let tag = Type2AuthenticationTests.protected(access: 0x87)
        #expect(tag.send("1B 00000000").reply == .nak(0x0))
        let rebuilt = Chip(try Type2Tag(image: tag.image))
        #expect(rebuilt.failedAuthentications == 1)
        rebuilt.powerCycle()
        // The configuration is in force from power-on.
        #expect(rebuilt.send("3010").reply == .nak(0x0))
    }

    static func image(_ change: (inout Type2Tag.Image) -> Void) -> Type2Tag.Image {
        var image = Type2Tag(model: .ntag213, uid: exampleUID).image
        change(&image)
        return image
    }

    @Test(arguments: [
        ("memory", image { $0.memory.bytes.removeLast(4) }),
        ("memory", image { $0.memory.bytes[3] ^= 0x01 }),  // BCC0
        ("memory", image { $0.memory.bytes[8] ^= 0x01 }),  // BCC1
        ("memory", image { $0.memory.bytes[5] = 0x00 }),  // UID4
        ("memory", image { $0.model = .ntag215 }),
        ("uid", image { $0.uid = [0x04, 0x01, 0x02] }),
        ("uid", image { $0.uid.bytes[0] = 0x88 }),
        ("counters", image { $0.counters = [0, 0, 0] }),
        ("counters[0]", image { $0.counters = [0x100_0000] }),
        ("tearingFlags", image { $0.tearingFlags = [0xBD] }),
        ("signature", image { $0.signature.bytes.removeLast() }),
        ("failedAuthentications", image { $0.failedAuthentications = 8 }),
        ("failedAuthentications", image { $0.failedAuthentications = -1 }),
    ])
    func invalidImagesNameTheField(_ field: String, _ image: Type2Tag.Image) {
        do {
            _ = try Type2Tag(image: image)
            Issue.record("accepted an invalid image")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.field == field)
        }
    }

    @Test func malformedJSONIsADecodingError() {
        let json =
            #"{"model":"ntag214","uid":"04e141124c2880","memory":"","counters":[0],"tearingFlags":"","signature":"","failedAuthentications":0}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Type2Tag.Image.self, from: Data(json.utf8)) }
    }
}
