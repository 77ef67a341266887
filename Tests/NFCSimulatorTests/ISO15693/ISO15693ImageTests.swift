import Foundation
import NFCSimulator
import Testing

/// Constructors and tag images: round trips through JSON, and images that describe no real chip.
@Suite("ISO15693 images and constructors")
struct ISO15693ImageTests {
    typealias Image = ISO15693Tag.Image

    /// A SLIX2 that has been used: written, locked, AFI and DSFID set, counter incremented.
    private func usedSLIX2() -> ISO15693Tag {
        var tag = ISO15693Tag.formatted(.icodeSLIX2)
        _ = tag.exchange([0x02, 0x21, 0x05, 0xDE, 0xAD, 0xBE, 0xEF])
        _ = tag.exchange([0x02, 0x22, 0x05])
        _ = tag.exchange([0x02, 0x22, 0x00])
        _ = tag.exchange([0x02, 0x27, 0x35])
        _ = tag.exchange([0x02, 0x28])
        _ = tag.exchange([0x02, 0x29, 0x12])
        _ = tag.exchange([0x02, 0x21, 0x4F, 0x01, 0x00, 0x00, 0x00])
        return tag
    }

    private func roundTrip(_ image: Image) throws -> Image {
        let data = try JSONEncoder().encode(image)
        let decoded = try JSONDecoder().decode(Image.self, from: data)
        return try ISO15693Tag(image: decoded).image
    }

    @Test("Tag → image → JSON → tag → the same image, for both models")
    func roundTrips() throws {
        var st25 = ISO15693Tag.formatted(.st25dv16k)
        _ = st25.exchange([0x02, 0x31, 0xFF, 0x01, 1, 2, 3, 4])
        _ = st25.exchange([0x02, 0x2A])
        for tag in [usedSLIX2(), st25, .blank(.icodeSLIX2), .blank(.st25dv16k)] {
            let image = tag.image
            #expect(try roundTrip(image) == image)
            let rebuilt = try ISO15693Tag(image: image)
            #expect(rebuilt.memory == tag.memory)
            #expect(rebuilt.lockedBlocks == tag.lockedBlocks)
            #expect(rebuilt.afi == tag.afi && rebuilt.dsfid == tag.dsfid)
            #expect(rebuilt.isAFILocked == tag.isAFILocked && rebuilt.isDSFIDLocked == tag.isDSFIDLocked)
        }
    }

    @Test("The JSON uses readable keys and hex strings")
    func jsonShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let slix2 = String(decoding: try encoder.encode(usedSLIX2().image), as: UTF8.self)
        #expect(slix2.contains(#""model":"icodeSLIX2""#))
        #expect(slix2.contains(#""uid":"e00401083a5c7192""#))
        #expect(slix2.contains(#""afi":"35""#) && slix2.contains(#""dsfid":"12""#))
        #expect(slix2.contains(#""afiLocked":true"#) && slix2.contains(#""dsfidLocked":false"#))
        #expect(slix2.contains(#""blocks":["e1402701","0300fe00","00000000""#))
        #expect(slix2.contains(#""lockedBlocks":[0,5]"#))
        #expect(slix2.contains(#""easAFI":"00000000""#))
        let st25 = String(decoding: try encoder.encode(ISO15693Tag.blank(.st25dv16k).image), as: UTF8.self)
        #expect(st25.contains(#""model":"st25dv16k""#))
        #expect(!st25.contains("slix2"))
    }

    @Test("Blank tags are all zero; formatted ones hold the Type 5 capability container and an empty NDEF TLV")
    func constructors() throws {
        #expect(ISO15693Tag.blank(.icodeSLIX2).memory == Array(repeating: 0, count: 320))
        #expect(ISO15693Tag.blank(.st25dv16k).memory == Array(repeating: 0, count: 2048))
        let slix2 = ISO15693Tag.formatted(.icodeSLIX2)
        #expect(Array(slix2.memory.prefix(8)) == [0xE1, 0x40, 0x27, 0x01, 0x03, 0x00, 0xFE, 0x00])
        let st25 = ISO15693Tag.formatted(.st25dv16k)
        #expect(Array(st25.memory.prefix(12)) == [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF, 0x03, 0x00, 0xFE, 0x00])
        let custom = try ISO15693Tag(model: .icodeSLIX2, uid: [0xE0, 0x04, 0x01, 0x08, 1, 2, 3, 4], formatted: true)
        #expect(custom.identifier == [0xE0, 0x04, 0x01, 0x08, 1, 2, 3, 4])
        #expect(custom.memory == slix2.memory)
        #expect(throws: TagImageError(.invalidValue, "")) {
            try ISO15693Tag(model: .st25dv16k, uid: [0xE0, 0x04, 0x01, 0x08, 1, 2, 3, 4])
        }
    }

    @Test("The dump initializer a Flipper Zero importer calls")
    func dumpInitializer() throws {
        var blocks = Array(repeating: [UInt8](repeating: 0, count: 4), count: 80)
        blocks[3] = [1, 2, 3, 4]
        var locks = Array(repeating: false, count: 80)
        locks[3] = true
        var tag = try ISO15693Tag(
            model: .icodeSLIX2, uid: [0xE0, 0x04, 0x01, 0x08, 0xAA, 0xBB, 0xCC, 0xDD], blocks: blocks,
            afi: 0x07, dsfid: 0x01, afiLocked: true, dsfidLocked: false, lockedBlocks: locks
        )
        #expect(tag.exchange([0x42, 0x20, 0x03]) == [0x00, 0x01, 1, 2, 3, 4])
        #expect(tag.exchange([0x02, 0x21, 0x03, 0, 0, 0, 0]) == [0x01, 0x12])
        #expect(tag.exchange([0x02, 0x27, 0x00]) == [0x01, 0x12])
        #expect(tag.image.lockedBlocks == [3])
        #expect(throws: TagImageError(.invalidValue, "")) {
            try ISO15693Tag(model: .icodeSLIX2, uid: ISO15693Tag.Model.icodeSLIX2.sampleUID, blocks: Array(blocks.prefix(79)))
        }
    }

    /// Applies a change to a valid image and returns the field the rejection names.
    private func rejectedField(_ base: ISO15693Tag, _ change: (inout Image) -> Void) -> String? {
        var image = base.image
        change(&image)
        do throws(TagImageError) {
            _ = try ISO15693Tag(image: image)
            return nil
        } catch {
            return error.code == .invalidValue ? error.field : "wrong code \(error.code)"
        }
    }

    @Test("Images describing no real chip are rejected with the field named")
    func rejectedImages() {
        let slix2 = ISO15693Tag.blank(.icodeSLIX2)
        let st25 = ISO15693Tag.blank(.st25dv16k)
        #expect(rejectedField(slix2) { $0.uid = [0xE0, 0x04, 0x01, 0x08, 1, 2, 3] } == "uid")
        #expect(rejectedField(slix2) { $0.uid = [0xE1, 0x04, 0x01, 0x08, 1, 2, 3, 4] } == "uid")
        #expect(rejectedField(slix2) { $0.uid = [0xE0, 0x04, 0x01, 0x10, 1, 2, 3, 4] } == "uid")
        #expect(rejectedField(slix2) { $0.uid = [0xE0, 0x02, 0x26, 0x00, 1, 2, 3, 4] } == "uid")
        #expect(rejectedField(st25) { $0.uid = [0xE0, 0x02, 0x24, 0x00, 1, 2, 3, 4] } == "uid")
        #expect(rejectedField(slix2) { $0.afi = [0x00, 0x01] } == "afi")
        #expect(rejectedField(slix2) { $0.dsfid = [] } == "dsfid")
        #expect(rejectedField(slix2) { $0.blocks.removeLast() } == "blocks")
        #expect(rejectedField(slix2) { $0.blocks[2] = [1, 2, 3] } == "blocks[2]")
        #expect(rejectedField(slix2) { $0.lockedBlocks = [80] } == "lockedBlocks[0]")
        #expect(rejectedField(slix2) { $0.lockedBlocks = [1, 1] } == "lockedBlocks[1]")
        #expect(rejectedField(slix2) { $0.lockedBlocks = [-1] } == "lockedBlocks[0]")
        #expect(rejectedField(st25) { $0.lockedBlocks = [4] } == "lockedBlocks[4]")
        #expect(rejectedField(st25) { $0.slix2 = slix2.image.slix2 } == "slix2")
        #expect(rejectedField(slix2) { $0.slix2?.signature = HexBytes(Array(repeating: 0, count: 31)) } == "slix2.signature")
        #expect(rejectedField(slix2) { $0.slix2?.protectionPointer = [80] } == "slix2.protectionPointer")
        #expect(rejectedField(slix2) { $0.slix2?.protectionPointer = [] } == "slix2.protectionPointer")
        #expect(rejectedField(slix2) { $0.slix2?.protectionCondition = [0x11] } == "slix2.protectionCondition")
        #expect(rejectedField(slix2) { $0.slix2?.privacyMode = true } == "slix2.privacyMode")
        #expect(rejectedField(slix2) { $0.slix2?.passwords.read = [1, 2, 3] } == "slix2.passwords.read")
        #expect(rejectedField(slix2) { $0.slix2?.passwords.easAFI = [] } == "slix2.passwords.easAFI")
        #expect(rejectedField(slix2) { $0.slix2 = nil } == nil)
        #expect(rejectedField(st25) { $0.blocks[511] = [9, 9, 9, 9] } == nil)
    }

    @Test("JSON that is not an image fails to decode")
    func malformedJSON() {
        let unknownModel = Data(
            #"{"model":"icodeSLIX3","uid":"e00401083a5c7192","afi":"00","dsfid":"00","afiLocked":false,"dsfidLocked":false,"blocks":[],"lockedBlocks":[]}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Image.self, from: unknownModel) }
        let notHex = Data(
            #"{"model":"icodeSLIX2","uid":"zz","afi":"00","dsfid":"00","afiLocked":false,"dsfidLocked":false,"blocks":[],"lockedBlocks":[]}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Image.self, from: notHex) }
    }
}
