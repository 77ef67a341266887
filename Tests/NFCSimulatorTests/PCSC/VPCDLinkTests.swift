import NFCSimulator
import NFCTestSupport
import Testing

/// The vpcd card side against an in-process vpcd on a loopback socket.
@Suite("VPCD link", .timeLimit(.minutes(1)))
struct VPCDLinkTests {
    @Test("Power on, ATR, an APDU round trip; vpcd closing ends the link cleanly")
    func roundTrip() throws {
        let vpcd = try LoopbackVPCD()
        let link = VPCDLink(endpoint: vpcd.endpoint)
        try link.connect()
        #expect(link.isConnected)
        var front = EmulatedReaderFront(tag: try VirtualTagKind.ntag216.make())
        front.powerOff()
        let serving = ServingThread(link: link, front: front)
        try vpcd.accept()
        try vpcd.send([0x01])  // power on: no answer
        #expect(try vpcd.transmit([0x04]) == ContactlessReaderATR.atr(for: try VirtualTagKind.ntag216.make()))
        let uid = try VirtualTagKind.ntag216.make().identifier
        #expect(try vpcd.transmit(hexBytes("FF CA 00 00 00")) == uid + [0x90, 0x00])
        // Length and payload in two segments, as older vpcd sends them.
        try vpcd.send(hexBytes("FF D6 00 05 04 01 02 03 04"), split: true)
        #expect(try vpcd.receive() == [0x90, 0x00])
        try vpcd.send([0x02])  // reset: no answer
        try vpcd.send([0x07])  // unknown control: ignored
        try vpcd.send([])  // empty message: ignored
        #expect(try vpcd.transmit([0x04])?.first == 0x3B)
        #expect(try vpcd.transmit(hexBytes("FF B0 00 05 04")) == [0x01, 0x02, 0x03, 0x04, 0x90, 0x00])
        try vpcd.send([0x00])  // power off
        vpcd.closeConnection()
        let result = try #require(serving.wait())
        #expect(result.ending == .peerClosed)
        #expect(result.front.commandCount == 3)
        #expect(!result.front.isPowered)
        #expect(try #require(result.front.tag as? Type2Tag).page(5) == [1, 2, 3, 4])
        #expect(!link.isConnected)
    }

    @Test("remove-after: N APDUs are answered, the next closes the connection unanswered")
    func removeAfter() throws {
        let vpcd = try LoopbackVPCD()
        let link = VPCDLink(endpoint: vpcd.endpoint)
        try link.connect()
        let serving = ServingThread(link: link, front: EmulatedReaderFront(tag: try VirtualTagKind.slix2.make()), removeAfter: 2)
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit([0x04])?.count == 20)
        #expect(try vpcd.transmit(hexBytes("FF B0 00 00 00")) == hexBytes("E1 40 27 01 90 00"))
        #expect(try vpcd.transmit(hexBytes("FF B0 00 00 00")) == hexBytes("E1 40 27 01 90 00"))
        #expect(try vpcd.transmit([0x04])?.count == 20, "control messages do not count")
        #expect(try vpcd.transmit(hexBytes("FF B0 00 00 00")) == nil, "the card left")
        let result = try #require(serving.wait())
        #expect(result.ending == .cardRemoved(afterCommands: 2))
        #expect(result.front.commandCount == 2)
    }

    @Test("stop() ends a serving link at once, and later connects fail")
    func stop() throws {
        let vpcd = try LoopbackVPCD()
        let link = VPCDLink(endpoint: vpcd.endpoint)
        try link.connect()
        let serving = ServingThread(link: link, front: EmulatedReaderFront(tag: try VirtualTagKind.felicaLiteS.make()))
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit(hexBytes("FF CA 00 00 00")) == FeliCaLiteSTag.defaultIDm + [0x90, 0x00])
        link.stop()
        #expect(try vpcd.receive() == nil, "the card's side closed")
        let result = try #require(serving.wait())
        #expect(result.ending == .stopped)
        #expect(link.isStopRequested)
        #expect(throws: VPCDLinkError.stopped) { try link.connect() }
    }

    @Test("The link reconnects after vpcd went away, keeping the tag's state")
    func reconnect() throws {
        let vpcd = try LoopbackVPCD()
        let link = VPCDLink(endpoint: vpcd.endpoint)
        try link.connect()
        let first = ServingThread(link: link, front: EmulatedReaderFront(tag: try VirtualTagKind.ntag213.make()))
        try vpcd.accept()
        #expect(try vpcd.transmit(hexBytes("FF D6 00 04 04 AA BB CC DD")) == [0x90, 0x00])
        vpcd.closeConnection()
        let ended = try #require(first.wait())
        #expect(ended.ending == .peerClosed)
        try link.connect()
        let second = ServingThread(link: link, front: ended.front)
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit(hexBytes("FF B0 00 04 04")) == hexBytes("AA BB CC DD 90 00"))
        vpcd.closeConnection()
        let result = try #require(second.wait())
        #expect(result.ending == .peerClosed)
        #expect(result.front.commandCount == 2)
    }

    @Test("Nothing listening: connection refused, naming the endpoint and pcscd")
    func refused() throws {
        let vpcd = try LoopbackVPCD()
        let endpoint = vpcd.endpoint
        vpcd.closeListener()
        let link = VPCDLink(endpoint: endpoint)
        #expect(throws: VPCDLinkError.connectionRefused(endpoint)) { try link.connect() }
        let message = VPCDLinkError.connectionRefused(endpoint).description
        #expect(message.contains("127.0.0.1:\(endpoint.port)"))
        #expect(message.contains("is pcscd running with vsmartcard-vpcd?"))
        var front = EmulatedReaderFront(tag: ProbeTag())
        #expect(link.serve(&front) == .failed(.notConnected))
    }

    @Test("An unknown host is reported as such")
    func unresolvable() {
        let link = VPCDLink(endpoint: VPCDEndpoint(host: "no-such-host.invalid", port: 35963))
        #expect {
            try link.connect()
        } throws: { error in
            (error as? VPCDLinkError)?.code == .unresolvableHost
        }
    }

    @Test(
        "HOST:PORT parsing",
        arguments: [
            ("127.0.0.1:35963", VPCDEndpoint(host: "127.0.0.1", port: 35963)),
            ("localhost:35964", VPCDEndpoint(host: "localhost", port: 35964)),
            ("[::1]:1", VPCDEndpoint(host: "::1", port: 1)),
        ])
    func parsing(text: String, endpoint: VPCDEndpoint) {
        #expect(VPCDEndpoint(parsing: text) == endpoint)
        #expect(endpoint.description == text)
    }

    @Test(
        "Bad HOST:PORT",
        arguments: [
            "", "localhost", ":35963", "host:", "host:0", "host:65536", "host:12a", "::1:35963", "[::1]35963", "[::1", "a b:1", "host:+1",
            "host:٣",
        ])
    func badEndpoint(text: String) {
        #expect(VPCDEndpoint(parsing: text) == nil)
    }
}
