import ISO7816
import NFCBytes
import NFCTestSupport
import Testing

/// A card script: each expected command and the answer it gets.
final class ScriptedCard: APDUTransmitter {
    let supportsExtendedLength: Bool
    private let script: Guarded<[(command: [UInt8], answer: [UInt8])]>
    private let sent = Guarded<[[UInt8]]>([])

    init(extended: Bool = false, _ script: [(String, String)]) {
        supportsExtendedLength = extended
        self.script = Guarded(script.map { (hexBytes($0.0), hexBytes($0.1)) })
    }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        sent.withLock { $0.append(command) }
        return try script.withLock { script in
            guard !script.isEmpty else { throw APDUError(.tooManyExchanges, "script exhausted") }
            let step = script.removeFirst()
            #expect(command == step.command)
            return step.answer
        }
    }

    var remaining: Int { script.withLock { $0.count } }
}

@Suite struct APDUExchangeTests {
    @Test func collectsGetResponse() async throws {
        let card = ScriptedCard([
            ("00a4040007a000000527210100", "0102036104"),
            ("00c0000004", "040506079000"),
        ])
        let response = try await card.send(.select(aid: hexBytes("a0000005272101")))
        #expect(response.data == [1, 2, 3, 4, 5, 6, 7])
        #expect(response.statusWord == .success)
        #expect(card.remaining == 0)
    }

    @Test func retriesWithTheRightLe() async throws {
        let card = ScriptedCard([
            ("00b0000010", "6c05"),
            ("00b0000005", "01020304059000"),
        ])
        let response = try await card.send(.readBinary(offset: 0, length: 16))
        #expect(response.data.count == 5)
        #expect(card.remaining == 0)
    }

    @Test func chainsLongCommandsWithoutExtendedLength() async throws {
        let data = [UInt8](repeating: 0x5A, count: 300)
        let first = "10d60000ff" + String(repeating: "5a", count: 255)
        let second = "00d600002d" + String(repeating: "5a", count: 45)
        let card = ScriptedCard([(first, "9000"), (second, "9000")])
        let response = try await card.send(.updateBinary(offset: 0, data: data))
        #expect(response.statusWord == .success)
        #expect(card.remaining == 0)
    }

    @Test func stopsTheChainAtAnError() async throws {
        let first = "10d60000ff" + String(repeating: "00", count: 255)
        let card = ScriptedCard([(first, "6884")])
        let response = try await card.send(.updateBinary(offset: 0, data: Array(repeating: 0, count: 256)))
        #expect(response.statusWord == .chainingNotSupported)
    }

    @Test func sendsExtendedWhenAvailable() async throws {
        let card = ScriptedCard(extended: true, [("00b00000001000", String(repeating: "00", count: 4096) + "9000")])
        let response = try await card.send(.readBinary(offset: 0, length: 4096))
        #expect(response.data.count == 4096)
    }

    @Test func lowersNeWithoutExtendedLength() async throws {
        let card = ScriptedCard([("00b0000000", String(repeating: "00", count: 256) + "9000")])
        let response = try await card.send(.readBinary(offset: 0, length: 4096))
        #expect(response.data.count == 256)
    }

    @Test func rejectsAResponseWithoutStatusWord() async {
        let card = ScriptedCard([("00b0000010", "90")])
        await #expect(throws: APDUError(.truncated, "")) { try await card.send(.readBinary(offset: 0, length: 16)) }
    }

    @Test func boundsEndlessGetResponse() async {
        let card = ScriptedCard(
            (0..<5).map { _ in ("", "6101") }.enumerated().map { index, _ in
                (index == 0 ? "00b0000010" : "00c0000001", "016101")
            })
        var options = APDUExchangeOptions.standard
        options.maximumExchanges = 4
        await #expect(throws: APDUError(.tooManyExchanges, "")) {
            try await card.send(.readBinary(offset: 0, length: 16), options: options)
        }
    }
}
