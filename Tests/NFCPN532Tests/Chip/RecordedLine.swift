import NFCPN532
import NFCTransport

/// The host's side of a virtual PN532's serial line, for tests: what the chip wrote, decoded.
actor RecordedLine {
    private var decoder = PN532FrameDecoder()
    private var frames: [PN532Frame] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Takes the chip's bytes.
    func write(_ bytes: [UInt8]) {
        for result in decoder.feed(bytes) {
            if case .success(let frame) = result { frames.append(frame) }
        }
        let ready = waiters.filter { frames.count >= $0.count }
        waiters.removeAll { frames.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Waits until the chip has written `count` frames in all, and returns them.
    func frames(_ count: Int) async -> [PN532Frame] {
        if frames.count < count {
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
        return frames
    }

    /// Every frame so far.
    var all: [PN532Frame] { frames }
}

/// A virtual PN532 and its line, with the host's command-response exchange.
struct RecordingHost {
    let chip: VirtualPN532
    let line: RecordedLine

    init(driver: any ReaderDriver, targetField: PN532TargetField = PN532TargetField(name: "pn532")) {
        let line = RecordedLine()
        self.line = line
        chip = VirtualPN532(driver: driver, targetField: targetField) { bytes in await line.write(bytes) }
    }

    /// Sends a command and returns the response's bytes after its code; fails the test when the
    /// chip does not acknowledge it, or answers with anything but its response.
    func command(_ code: UInt8, _ parameters: [UInt8] = []) async -> [UInt8]? {
        let before = await line.all.count
        await chip.receive(PN532Frame.command(code, parameters).bytes)
        let frames = await line.frames(before + 2)
        guard frames[before] == .ack else { return nil }
        guard case .information(0xD5, let data) = frames[before + 1], data.first == code &+ 1 else { return nil }
        return Array(data.dropFirst())
    }
}
