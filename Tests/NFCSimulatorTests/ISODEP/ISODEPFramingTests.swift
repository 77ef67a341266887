import NFCSimulator
import NFCTransport
import Testing

/// ISO/IEC 14443-4:2018 §7: block sizes, chaining both ways, S(WTX), and AIRTIME.md's figures.
@Suite("ISODEP framing")
struct ISODEPFramingTests {
    let framing = ISODEPFraming(cardFrameSize: 128, readerFrameSize: 256)

    @Test("a short APDU is one I-block each way with the processing before the answer")
    func singleBlock() {
        let frames = framing.frames(commandLength: 5, responseLength: 17, processingTime: .microseconds(500))
        #expect(frames == [AirFrame(reader: .bytes(6), tag: .bytes(18), processing: .microseconds(500))])
    }

    @Test("a command longer than FSC − 3 is chained, each block acknowledged by R(ACK)")
    func commandChaining() {
        // FSC 128 → 125 INF bytes per block: 300 = 125 + 125 + 50.
        let frames = framing.frames(commandLength: 300, responseLength: 2, processingTime: .milliseconds(1))
        #expect(
            frames == [
                AirFrame(reader: .bytes(126), tag: .bytes(1)),
                AirFrame(reader: .bytes(126), tag: .bytes(1)),
                AirFrame(reader: .bytes(51), tag: .bytes(3), processing: .milliseconds(1)),
            ])
        #expect(framing.commandBlockCount(300) == 3)
        #expect(framing.commandBlockCount(125) == 1)
        #expect(framing.commandBlockCount(126) == 2)
    }

    @Test("a response longer than FSD − 3 is chained, each further block fetched with R(ACK)")
    func responseChaining() {
        // FSD 256 → 253 INF bytes per block: 8194 = 32 × 253 + 98.
        let frames = framing.frames(commandLength: 7, responseLength: 8194, processingTime: .zero)
        #expect(frames.count == 33)
        #expect(frames.first == AirFrame(reader: .bytes(8), tag: .bytes(254)))
        #expect(frames.dropFirst().dropLast().allSatisfy { $0 == AirFrame(reader: .bytes(1), tag: .bytes(254)) })
        #expect(frames.last == AirFrame(reader: .bytes(1), tag: .bytes(99)))
        #expect(framing.responseBlockCount(253) == 1)
        #expect(framing.responseBlockCount(254) == 2)
    }

    @Test("a CID byte adds one byte to every block and shrinks the payload")
    func cid() {
        let withCID = ISODEPFraming(cardFrameSize: 32, readerFrameSize: 32, usesCID: true)
        #expect(withCID.maxCommandBlockPayload == 28)
        #expect(withCID.maxResponseBlockPayload == 28)
        let frames = withCID.frames(commandLength: 30, responseLength: 30, processingTime: .zero)
        #expect(
            frames == [
                AirFrame(reader: .bytes(30), tag: .bytes(2)),
                AirFrame(reader: .bytes(4), tag: .bytes(30)),
                AirFrame(reader: .bytes(2), tag: .bytes(4)),
            ])
    }

    @Test("processing beyond FWT is stretched by S(WTX) exchanges and keeps its total")
    func waitingTimeExtension() {
        let fwt = Duration.milliseconds(10)
        let slow = ISODEPFraming(cardFrameSize: 256, readerFrameSize: 256, frameWaitingTime: fwt)
        let frames = slow.frames(commandLength: 5, responseLength: 2, processingTime: .milliseconds(100))
        #expect(frames.count > 1)
        #expect(frames.dropLast().allSatisfy { $0.tag == .bytes(2) })
        #expect(frames.dropFirst().allSatisfy { $0.reader == .bytes(2) })
        let total = frames.reduce(Duration.zero) { $0 + $1.processing }
        #expect(total == .milliseconds(100))
        // No frame waits longer than the window the card was granted (59 · FWT at most).
        #expect(frames.allSatisfy { $0.processing <= fwt * 59 })
        // Within FWT, no extension.
        #expect(slow.frames(commandLength: 5, responseLength: 2, processingTime: .milliseconds(9)).count == 1)
    }

    @Test("AIRTIME.md: 8 KB in one extended READ BINARY, chained at FSD 256, ≈ 721 ms at 106 and ≈ 95 ms at 848 kbit/s")
    func airTimeFigures() {
        let frames = framing.frames(commandLength: 7, responseLength: 8192 + 2, processingTime: .zero)
        let slow = AirTimeModel.duration(of: frames, technology: .iso14443A, bitRate: .kbps106)
        let fast = AirTimeModel.duration(of: frames, technology: .iso14443A, bitRate: .kbps848)
        #expect(slow > .milliseconds(700) && slow < .milliseconds(740))
        #expect(fast > .milliseconds(90) && fast < .milliseconds(100))
    }
}
