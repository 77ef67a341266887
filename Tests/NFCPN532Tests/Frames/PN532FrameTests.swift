import NFCPN532
import Testing

/// Frames of the PN532 host protocol, against the manual's own examples (NXP UM0701-02).
@Suite struct PN532FrameTests {
    /// UM0701-02 §7.2.2 (GetFirmwareVersion): the command and the answer of a PN532 v1.6.
    @Test func theManualsGetFirmwareVersionExample() {
        #expect(PN532Frame.command(0x02).bytes == [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
        #expect(
            PN532Frame.response(to: 0x02, [0x32, 0x01, 0x06, 0x07]).bytes
                == [0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
    }

    /// UM0701-02 §6.2.1.3–§6.2.1.5: ACK, NACK and the error frame.
    @Test func theFixedFrames() {
        #expect(PN532Frame.ack.bytes == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        #expect(PN532Frame.nack.bytes == [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(PN532Frame.syntaxError.bytes == [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])
        var decoder = PN532FrameDecoder()
        let frames = decoder.feed(PN532Frame.ack.bytes + PN532Frame.nack.bytes + PN532Frame.syntaxError.bytes).map { try? $0.get() }
        #expect(frames == [.ack, .nack, .syntaxError])
    }

    /// UM0701-02 §6.2.1.2: beyond 254 data bytes the extended frame (`00 FF FF FF LENM LENL LCS`);
    /// nfcpy's 262-byte line diagnose is one.
    @Test func extendedFramesCarryLongCommands() throws {
        let data: [UInt8] = [0x00, 0x00] + (0..<260).map { UInt8(truncatingIfNeeded: $0) }
        let frame = PN532Frame.command(data[0], Array(data.dropFirst()))
        let bytes = frame.bytes
        #expect(Array(bytes.prefix(8)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x07, 0xF8])
        var decoder = PN532FrameDecoder()
        #expect(try decoder.feed(bytes).map { try $0.get() } == [frame])
    }

    /// The HSU wake-up (UM0701-02 §6.2.2: `55 55 00 00 00 …`) and postambles are skipped, a frame
    /// split across reads is put together, and two frames in one read both come out.
    @Test func theDecoderFindsFramesInAStream() throws {
        let sam = PN532Frame.command(0x14, [0x01])
        let firmware = PN532Frame.command(0x02)
        var decoder = PN532FrameDecoder()
        var found: [PN532Frame] = []
        let stream = [0x55, 0x55, 0x00, 0x00, 0x00, 0x00, 0x00] + sam.bytes + firmware.bytes
        for byte in stream { found += try decoder.feed([byte]).map { try $0.get() } }
        #expect(found == [sam, firmware])
        var whole = PN532FrameDecoder()
        #expect(try whole.feed(stream).map { try $0.get() } == [sam, firmware])
    }

    /// A wrong length or data checksum, or a length beyond the chip's buffer, is a typed error
    /// naming where the frame started; decoding goes on with the next frame.
    @Test func badFramesAreTypedErrorsAndDecodingGoesOn() {
        var good = PN532Frame.command(0x02).bytes
        var badLength = good
        badLength[4] = 0xFD  // LEN 02, LCS FD: 02 + FD ≠ 0
        var badData = good
        badData[7] = 0x2B  // DCS off by one
        let tooLong: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x02, 0x00, 0xFE]  // 512 bytes announced
        var decoder = PN532FrameDecoder()
        let results = decoder.feed(badLength + badData + tooLong + good)
        let codes = results.map { result -> String in
            switch result {
            case .success(let frame): "\(frame)"
            case .failure(let error): error.code.name
            }
        }
        #expect(codes == ["lengthChecksum", "dataChecksum", "badLength", "\(PN532Frame.command(0x02))"])
        // The second frame: its preamble at byte 9, its start code at byte 10.
        if case .failure(let error) = results[1] { #expect(error.reason.contains("at byte 10")) }
        good.removeLast(3)
        #expect(decoder.feed(good).isEmpty, "a truncated frame waits for its end")
    }

    /// An extended frame whose length checksum is wrong, with nothing after its header (found by
    /// the `pn532` fuzz target: the error message read the header after dropping it).
    @Test func aBadExtendedHeaderAtTheEndOfTheStream() {
        var decoder = PN532FrameDecoder()
        let results = decoder.feed([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x04, 0x00])
        #expect(results.count == 1)
        guard case .failure(let error)? = results.first else { return }
        #expect(error.code == .lengthChecksum)
        #expect(error.reason == "extended frame at byte 1: LENM 1 LENL 4 LCS 0")
    }
}
