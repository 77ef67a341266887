import NFCTestSupport
import Testing

@testable import NFCTags

/// The pure parts: response flags and error codes, the CC, the TLV walk, system information.
@Suite("Type5 codecs")
struct Type5CodecTests {
    @Test("An error response becomes .tagError with [flags, code] and Table 7's meaning")
    func errorResponse() {
        #expect(throws: TagEngineError(.tagError, "")) { try Type5Frame.payload(of: [0x01, 0x10], for: "Read Single Block 9") }
        do {
            _ = try Type5Frame.payload(of: [0x01, 0x12], for: "Write Single Block 3")
            Issue.record("no error")
        } catch {
            #expect(error.tagStatus == [0x01, 0x12])
            #expect(error.reason.contains("Write Single Block 3"))
            #expect(error.reason.contains("locked"))
        }
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try Type5Frame.payload(of: [], for: "x") }
        #expect(throws: TagEngineError(.unexpectedResponse, "")) { try Type5Frame.payload(of: [0x01], for: "x") }
        #expect((try? Type5Frame.payload(of: [0x00, 1, 2], for: "x")).map(Array.init) == [1, 2])
    }

    @Test("Every Table 7 code has a description")
    func errorDescriptions() {
        for code: UInt8 in [0x01, 0x02, 0x03, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0xA5, 0x20] {
            #expect(!Type5Frame.errorDescription(code).isEmpty)
        }
    }

    @Test("Addressed requests: flags 0x22 (0x62 with option), command, UID LSB first, parameters")
    func requests() {
        let uid: [UInt8] = [8, 7, 6, 5, 4, 3, 2, 1]
        #expect(Type5Frame.request(0x23, wireUID: uid, parameters: [0, 3]) == [0x22, 0x23] + uid + [0, 3])
        #expect(Type5Frame.request(0x20, wireUID: uid, option: true, parameters: [9]) == [0x62, 0x20] + uid + [9])
        #expect(Type5Frame.request(0x3B, wireUID: uid, leading: 0x2F) == [0x22, 0x3B, 0x2F] + uid)
        #expect(Type5Frame.blockNumber(0x1FF, wide: true) == [0xFF, 0x01])
    }

    @Test("CC: the 4-byte and 8-byte forms, round trip")
    func capabilityContainer() throws {
        let short = try Type5CapabilityContainer(parsing: hexBytes("E1 40 27 09")[...])
        #expect(short.length == 4 && short.dataAreaSize == 312 && short.areaEnd == 316)
        #expect(short.multipleBlockRead && short.lockBlock && !short.specialFrame && !short.twoByteAddressing)
        #expect(short.bytes == hexBytes("E1 40 27 09"))
        let long = try Type5CapabilityContainer(parsing: hexBytes("E2 40 00 01 00 00 00 FF")[...])
        #expect(long.length == 8 && long.dataAreaSize == 2040 && long.twoByteAddressing && long.areaEnd == 2048)
        #expect(long.bytes == hexBytes("E2 40 00 01 00 00 00 FF"))
        let readOnly = try Type5CapabilityContainer(parsing: hexBytes("E1 43 10 00")[...])
        #expect(readOnly.writeAccess == .never && readOnly.readAccess == .always)
        #expect(Type5CapabilityContainer.neededLength(hexBytes("E2 40 00")[...]) == 8)
        #expect(Type5CapabilityContainer.neededLength(hexBytes("E1 40")[...]) == nil)
    }

    @Test(
        "CC errors: no magic, version 2, reserved read access, MLEN 0, too short",
        arguments: [
            ("00 00 00 00", TagEngineError.Code.notFormatted),
            ("E1 80 10 00", .invalidCapabilityContainer),
            ("E1 44 10 00", .invalidCapabilityContainer),
            ("E2 40 00 01 00 00 00 00", .invalidCapabilityContainer),
            ("E1 40 10", .unexpectedResponse),
            ("E2 40 00 01 00 00", .unexpectedResponse),
        ])
    func badCapabilityContainer(hex: String, code: TagEngineError.Code) {
        do {
            _ = try Type5CapabilityContainer(parsing: hexBytes(hex)[...])
            Issue.record("accepted \(hex)")
        } catch {
            #expect(error.code == code)
            #expect(!error.reason.isEmpty)
        }
    }

    @Test("TLV walk: NULL padding, a proprietary TLV, the NDEF TLV with 1- and 3-byte lengths")
    func tlvWalk() throws {
        let cc = try Type5CapabilityContainer(parsing: hexBytes("E1 40 10 01")[...])  // area 4..<132
        let memory = hexBytes("E1 40 10 01 00 00 FD 02 AA BB 03 05 01 02 03 04 05 FE")
        #expect(
            try Type5TLVScan.scan(memory, cc: cc)
                == .located(
                    Type5NDEFLayout(
                        tlvOffset: 10, hasNDEFTLV: true, headerLength: 2, messageLength: 5, areaEnd: 132)))
        #expect(try Type5TLVScan.scan(Array(memory.prefix(11)), cc: cc) == .need(upTo: 12))
        #expect(try Type5TLVScan.scan(Array(memory.prefix(6)), cc: cc) == .need(upTo: 7))
        let long = hexBytes("E1 40 FF 01 03 FF 01 00")
        let wide = try Type5CapabilityContainer(parsing: long[...])
        #expect(
            try Type5TLVScan.scan(long, cc: wide)
                == .located(
                    Type5NDEFLayout(
                        tlvOffset: 4, hasNDEFTLV: true, headerLength: 4, messageLength: 256, areaEnd: 2044)))
        #expect(try Type5TLVScan.scan(Array(long.prefix(6)), cc: wide) == .need(upTo: 8))
        // No NDEF TLV: the place for one is after the last TLV.
        #expect(
            try Type5TLVScan.scan(hexBytes("E1 40 10 01 FD 01 AA 00 FE"), cc: cc)
                == .located(
                    Type5NDEFLayout(
                        tlvOffset: 7, hasNDEFTLV: false, headerLength: 0, messageLength: 0, areaEnd: 132)))
    }

    @Test(
        "TLV lies are .invalidNDEFArea naming the offset",
        arguments: [
            "E1 40 01 01 03 07 00 00 00 00 00 00",  // 7 bytes after offset 6 > area end 12
            "E1 40 01 01 FD 20 00 00 00 00 00 00",  // proprietary TLV overruns
            "E1 40 01 01 00 00 00 00 00 00 00 03",  // NDEF TLV cut by the area end
            "E1 40 01 01 00 00 00 00 00 03 FF 01",  // 3-byte length cut
        ])
    func tlvLies(hex: String) throws {
        let memory = hexBytes(hex)
        let cc = try Type5CapabilityContainer(parsing: memory[...])
        do {
            _ = try Type5TLVScan.scan(memory, cc: cc)
            Issue.record("accepted \(hex)")
        } catch {
            #expect(error.code == .invalidNDEFArea)
            #expect(error.reason.contains("offset"))
        }
    }

    @Test("Capacity: 1-byte length up to 254, 3-byte beyond")
    func capacity() {
        #expect(Type5NDEFLayout.capacity(from: 4, to: 316) == 308)
        #expect(Type5NDEFLayout.capacity(from: 8, to: 2048) == 2036)
        #expect(Type5NDEFLayout.capacity(from: 4, to: 100) == 94)
        #expect(Type5NDEFLayout.capacity(from: 4, to: 262) == 254)  // 256 free: 3-byte form leaves 254
        #expect(Type5NDEFLayout.capacity(from: 4, to: 263) == 255)
        #expect(Type5NDEFLayout.header(forMessageLength: 254) == [0x03, 0xFE])
        #expect(Type5NDEFLayout.header(forMessageLength: 255) == [0x03, 0xFF, 0x00, 0xFF])
    }

    @Test("System information: basic and extended forms; a wrong UID or a short answer is refused")
    func systemInformation() throws {
        let uid: [UInt8] = [0x92, 0x71, 0x5C, 0x3A, 0x08, 0x01, 0x04, 0xE0]
        let basic = try Type5SystemInformation(
            parsing: ([0x0F] + uid + [0x00, 0x00, 0x4F, 0x03, 0x01])[...], extended: false, wireUID: uid)
        #expect(basic.blockCount == 80 && basic.blockSize == 4 && basic.icReference == 0x01 && basic.dsfid == 0)
        let extended = try Type5SystemInformation(
            parsing: ([0x2F] + uid + [0x00, 0x00, 0xFF, 0x01, 0x03, 0x26, 0xFB, 0x7F, 0x7B, 0x00])[...], extended: true, wireUID: uid)
        #expect(extended.blockCount == 512 && extended.blockSize == 4 && extended.icReference == 0x26)
        #expect(extended.supportsLockBlock == false && extended.supportsReadMultipleBlocks == true)
        #expect(throws: TagEngineError(.unexpectedResponse, "")) {
            try Type5SystemInformation(parsing: ([0x0F] + uid + [0x00, 0x00, 0x4F])[...], extended: false, wireUID: uid)
        }
        #expect(throws: TagEngineError(.unexpectedResponse, "")) {
            try Type5SystemInformation(parsing: ([0x00] + uid.reversed())[...], extended: false, wireUID: uid)
        }
    }
}
