import NFCTags
import Testing

@Suite struct Type3AttributeInformationTests {
    typealias F = Type3Frames

    @Test func parsesAndSerializesTheLiteSBlock() throws {
        let block = F.attribute(nbr: 4, nbw: 1, nmaxb: 13, ln: 0x0000C8)
        let attribute = try Type3AttributeInformation(validating: block)
        #expect(attribute.version == 0x10)
        #expect(attribute.blocksPerRead == 4)
        #expect(attribute.blocksPerWrite == 1)
        #expect(attribute.maximumBlocks == 13)
        #expect(attribute.length == 200)
        #expect(attribute.capacity == 208)
        #expect(attribute.isWritable)
        #expect(!attribute.isWriteInProgress)
        #expect(attribute.block == block)
    }

    @Test func aMinorVersionAboveZeroIsRead() throws {
        #expect(try Type3AttributeInformation(validating: F.attribute(version: 0x1F)).version == 0x1F)
    }

    @Test func theChecksumIsTheSumOfBytes0To13() {
        let block = F.attribute(nbr: 12, nbw: 10, nmaxb: 64, ln: 1024)
        #expect(Type3AttributeInformation.checksum(block) == UInt16(block[14]) << 8 | UInt16(block[15]))
        #expect(Type3AttributeInformation(blocksPerRead: 12, blocksPerWrite: 10, maximumBlocks: 64, length: 1024).block == block)
    }

    static let invalid: [(String, [UInt8])] = [
        ("checksum", F.attribute(checksum: 0x1234)),
        ("Ver", F.attribute(version: 0x20)),
        ("Ver", F.attribute(version: 0x00)),
        ("Nbr", F.attribute(nbr: 0)),
        ("Nbw", F.attribute(nbw: 0)),
        ("WriteF", F.attribute(writeF: 0x05)),
        ("RWFlag", F.attribute(rwFlag: 0x02)),
        ("Ln", F.attribute(nmaxb: 13, ln: 209)),
        ("Ln", F.attribute(nmaxb: 0, ln: 1)),
        ("16", Array(F.attribute().prefix(15))),
        ("16", F.attribute() + [0]),
    ]

    @Test(arguments: invalid)
    func invalidBlocksNameTheField(field: String, block: [UInt8]) {
        let error = #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) {
            try Type3AttributeInformation(validating: block)
        }
        #expect(error?.reason.contains(field) == true, "\(error?.reason ?? "")")
    }

    @Test func everyProperPrefixIsRejected() {
        let block = F.attribute(ln: 20)
        for count in 0..<16 {
            #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) {
                try Type3AttributeInformation(validating: Array(block.prefix(count)))
            }
        }
    }

    @Test func aBlankBlockIsInvalidForItsVersion() {
        let error = #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) {
            try Type3AttributeInformation(validating: F.zeros)
        }
        #expect(error?.reason.contains("Ver") == true)
    }
}
