import Foundation
import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Standard image and layout checks")
struct FeliCaStandardImageTests {
    typealias F = FeliCaCommandFrames
    typealias Tag = FeliCaStandardTag

    private func roundTrip(_ tag: Tag) throws -> Tag {
        let data = try JSONEncoder().encode(tag.image)
        return try Tag(image: JSONDecoder().decode(Tag.Image.self, from: data))
    }

    /// The field a rejected image names, `nil` when it loads.
    private func rejection(_ change: (inout Tag.Image) -> Void) -> String? {
        var image = Tag().image
        change(&image)
        switch Result(catching: { () throws(TagImageError) in try Tag(image: image) }) {
        case .success: return nil
        case .failure(let error): return error.code == .invalidValue ? error.field : "wrong code \(error.code)"
        }
    }

    @Test("tag → image → JSON → tag gives the same image, after writes too")
    func jsonRoundTrip() throws {
        var tag = Tag()
        _ = tag.respond(to: F.write(tag.idm(ofSystem: 1), service: 0x108D, block: 0, data: F.filled(0x31)), context: ExchangeContext())
        let loaded = try roundTrip(tag)
        #expect(loaded.image == tag.image)
        #expect(loaded.systems == tag.systems)
        #expect(loaded.systems[1].services[2].blocks[0] == F.filled(0x31))
    }

    @Test("A custom layout (an NDEF system, no specification version, other limits) round-trips")
    func customRoundTrip() throws {
        let ndef = Tag.System(
            code: 0x12FC, services: [Tag.Service(codes: [0x0009, 0x000B], keyVersions: [0, 0], blocks: [F.filled(0x10)])])
        let tag = try Tag(
            idm: [0x01, 0x01, 0x08, 0x01, 0x18, 0x17, 0x6B, 0x0E], systems: [ndef], maximumReadBlocks: 15, maximumWriteBlocks: 13,
            specificationVersion: nil)
        #expect(try roundTrip(tag).image == tag.image)
    }

    @Test("The JSON names systems, areas, services and codes readably")
    func jsonShape() throws {
        let data = try JSONEncoder().encode(Tag().image)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["pmm"] as? String == "0120220427674eff")
        #expect(object["maximumReadBlocks"] as? Int == 12)
        let systems = try #require(object["systems"] as? [[String: Any]])
        #expect(systems.map { $0["systemCode"] as? String } == ["0003", "fe00"])
        let areas = try #require(systems[1]["areas"] as? [[String: Any]])
        #expect(areas.last?["code"] as? String == "1000")
        #expect(areas.last?["end"] as? String == "17ff")
        let services = try #require(systems[1]["services"] as? [[String: Any]])
        let codes = try #require(services[1]["codes"] as? [[String: Any]])
        #expect(codes.map { $0["code"] as? String } == ["1048", "104b"])
        #expect(codes.map { $0["keyVersion"] as? Int } == [1, 0])
        let version = try #require(object["specificationVersion"] as? [String: Any])
        #expect(version["basicVersion"] as? String == "0100")
    }

    @Test("Images describing no possible card are rejected, naming the field")
    func rejected() {
        #expect(rejection { _ in } == nil)
        #expect(rejection { $0.idm = HexBytes([0x31, 0x16, 0, 0, 0, 0, 0, 0]) } == "idm")
        #expect(rejection { $0.pmm = HexBytes([0x01]) } == "pmm")
        #expect(rejection { $0.maximumReadBlocks = 16 } == "maximumReadBlocks")
        #expect(rejection { $0.maximumWriteBlocks = 0 } == "maximumWriteBlocks")
        #expect(rejection { $0.systems = [] } == "systems")
        #expect(rejection { $0.systems[1].systemCode = HexBytes([0xFE, 0xFF]) } == "systems[1].systemCode")
        #expect(rejection { $0.systems[1].systemCode = HexBytes([0x00, 0x03]) } == "systems[1].systemCode")
        #expect(rejection { $0.systems[0].systemCode = HexBytes([0x00]) } == "systems[0].systemCode")
        #expect(rejection { $0.systems[0].areas.removeFirst() } == "systems[0].areas[0]")
        #expect(rejection { $0.systems[1].areas[1].code = HexBytes([0x10, 0x02]) } == "systems[1].areas[1].code")
        #expect(rejection { $0.systems[1].areas[1].end = HexBytes([0x0F, 0xFF]) } == "systems[1].areas[1].end")
        #expect(rejection { $0.systems[1].services[0].codes[0].code = HexBytes([0x10, 0x00]) } == "systems[1].services[0].codes[0]")
        #expect(rejection { $0.systems[1].services[1].codes[1].code = HexBytes([0x10, 0x8B]) } == "systems[1].services[1].codes[1]")
        #expect(rejection { $0.systems[1].services[4].codes[0].code = HexBytes([0x10, 0x09]) } == "systems[1].services[4].codes[0]")
        #expect(rejection { $0.systems[1].services[3].blocks.append(HexBytes(F.filled(0))) } == "systems[1].services[3].blocks")
        #expect(rejection { $0.systems[1].services[0].blocks[2] = HexBytes([0x00]) } == "systems[1].services[0].blocks[2]")
        #expect(rejection { $0.systems[1].services[0].blocks = [] } == "systems[1].services[0].blocks")
        #expect(rejection { $0.specificationVersion?.basicVersion = HexBytes([0x01]) } == "specificationVersion.basicVersion")
    }

    @Test("The throwing initializer applies the same checks")
    func customInitializer() {
        let purse = Tag.System(code: 0x8000, services: [Tag.Service(codes: [0x0050, 0x0057], blocks: [F.filled(0), F.filled(0)])])
        #expect(throws: TagImageError(.invalidValue, "")) { try Tag(systems: [purse]) }
        let mixed = Tag.System(code: 0x8000, services: [Tag.Service(codes: [0x0049, 0x004F], blocks: [F.filled(0)])])
        #expect(throws: TagImageError(.invalidValue, "")) { try Tag(systems: [mixed]) }
        let versions = Tag.System(code: 0x8000, services: [Tag.Service(codes: [0x0049], keyVersions: [], blocks: [F.filled(0)])])
        #expect(throws: TagImageError(.invalidValue, "")) { try Tag(systems: [versions]) }
    }
}
