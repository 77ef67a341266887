import Foundation
import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Lite-S image and Type 3 attribute block")
struct FeliCaLiteSImageTests {
    typealias F = FeliCaCommandFrames
    let idm = FeliCaLiteSTag.defaultIDm

    private func roundTrip(_ tag: FeliCaLiteSTag) throws -> FeliCaLiteSTag {
        let data = try JSONEncoder().encode(tag.image)
        let decoded = try JSONDecoder().decode(FeliCaLiteSTag.Image.self, from: data)
        return try FeliCaLiteSTag(image: decoded)
    }

    @Test("The NDEF-formatted card's attribute block: Ver 1.0, Nbr 4, Nbw 1, Nmaxb 13, RW, Ln 0, checksum of bytes 0–13")
    func attributeBlock() throws {
        let tag = FeliCaLiteSTag(formatting: .ndef)
        let block = try #require(tag.storedBlock(0))
        #expect(block == [0x10, 0x04, 0x01, 0x00, 0x0D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x23])
        let sum = block.prefix(14).reduce(0) { $0 + Int($1) }
        #expect(Int(block[14]) << 8 | Int(block[15]) == sum)
        #expect(FeliCaType3Attributes.checksum(block) == 0x0023)
        #expect(FeliCaLiteSTag().storedBlock(0) == F.filled(0))
    }

    @Test("An attribute block with a length and flags sums its bytes")
    func attributeChecksum() {
        let attributes = FeliCaType3Attributes(blocksPerRead: 4, blocksPerWrite: 1, maximumBlocks: 13, writeFlag: 0x0F, length: 0x0001A3)
        let block = attributes.block
        #expect(Array(block[9...13]) == [0x0F, 0x01, 0x00, 0x01, 0xA3])
        let summed: [UInt16] = [0x10, 4, 1, 13, 0x0F, 1, 1, 0xA3]
        #expect(FeliCaType3Attributes.checksum(block) == summed.reduce(0, +))
        #expect(Array(block.suffix(2)) == [0x00, 0xD6])
    }

    @Test("tag → image → JSON → tag gives the same image", arguments: FeliCaLiteSTag.Formatting.allCases)
    func jsonRoundTrip(formatting: FeliCaLiteSTag.Formatting) throws {
        var tag = FeliCaLiteSTag(idm: [0x01, 0x2E, 0x3D, 0x23, 0xBA, 0x0B, 0xA1, 0x41], formatting: formatting)
        let frames = [
            F.write(tag.idm, service: 0x0009, block: 5, data: F.filled(0x55)),
            F.write(tag.idm, service: 0x0009, block: 0x86, data: [0x02, 0x00] + [UInt8](repeating: 0, count: 14)),
            F.write(tag.idm, service: 0x0009, block: 0x82, data: F.filled(0x12)),
        ]
        for frame in frames { _ = tag.respond(to: frame, context: ExchangeContext()) }
        let loaded = try roundTrip(tag)
        #expect(loaded.image == tag.image)
        #expect(loaded.storedBlock(5) == F.filled(0x55))
        #expect(loaded.writeCount == 3)
    }

    @Test("The JSON uses readable keys and hex strings")
    func jsonShape() throws {
        let data = try JSONEncoder().encode(FeliCaLiteSTag(formatting: .ndef).image)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["idm"] as? String == "012e4c8a215d7703")
        #expect(object["pmm"] as? String == "00f1000000014300")
        #expect(object["memoryConfiguration"] as? String == "ffffff01070000000000000000000000")
        #expect((object["userBlocks"] as? [String])?.first == "100401000d0000000000010000000023")
        #expect(object["writeCount"] as? Int == 0)
        #expect(
            Set(object.keys) == [
                "idm", "pmm", "userBlocks", "register", "idBlock", "cardKeyVersion", "cardKey", "memoryConfiguration", "writeCount",
            ])
    }

    @Test("Images that describe no real Lite-S are rejected, naming the field")
    func rejected() {
        let good = FeliCaLiteSTag().image
        func field(_ change: (inout FeliCaLiteSTag.Image) -> Void) -> String? {
            var image = good
            change(&image)
            switch Result(catching: { () throws(TagImageError) in try FeliCaLiteSTag(image: image) }) {
            case .success: return nil
            case .failure(let error): return error.code == .invalidValue ? error.field : "wrong code \(error.code)"
            }
        }
        #expect(field { _ in } == nil)
        #expect(field { $0.idm = HexBytes([1, 2, 3, 4, 5, 6, 7]) } == "idm")
        #expect(field { $0.pmm = HexBytes([0x01, 0x20, 0x22, 0x04, 0x27, 0x67, 0x4E, 0xFF]) } == "pmm")
        #expect(field { $0.userBlocks.removeLast() } == "userBlocks")
        #expect(field { $0.userBlocks[3] = HexBytes([UInt8](repeating: 0, count: 15)) } == "userBlocks[3]")
        #expect(field { $0.register = HexBytes([]) } == "register")
        #expect(field { $0.idBlock = HexBytes(F.filled(0)) } == "idBlock")
        #expect(field { $0.cardKeyVersion = HexBytes(F.filled(1)) } == "cardKeyVersion")
        #expect(field { $0.cardKey = HexBytes([0]) } == "cardKey")
        #expect(field { $0.memoryConfiguration = HexBytes(F.filled(0xFF)) } == "memoryConfiguration")
        #expect(field { $0.writeCount = 0x0100_0000 } == "writeCount")
    }

    @Test("A loaded image behaves like the saved card")
    func loadedBehaviour() throws {
        var image = FeliCaLiteSTag().image
        image.memoryConfiguration = HexBytes([0xFF, 0xFF, 0xFF, 0x01, 0x07] + [UInt8](repeating: 0, count: 11))
        image.userBlocks[2] = HexBytes(F.filled(0x2A))
        var tag = try FeliCaLiteSTag(image: image)
        #expect(F.reply(tag.respond(to: F.polling(0x12FC), context: ExchangeContext())) != nil)
        let read = F.reply(tag.respond(to: F.read(idm, service: 0x000B, blocks: [2]), context: ExchangeContext()))
        #expect(read == [0x07] + idm + [0x00, 0x00, 0x01] + F.filled(0x2A))
    }
}
