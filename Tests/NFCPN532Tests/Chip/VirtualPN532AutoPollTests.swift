import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

@testable import NFCPN532

/// InAutoPoll (UM0701-02 §7.3.13): the chip polls the listed types in order, and answers NbTg,
/// then per target its type, the data's length and the data InListPassiveTarget gives (Tg first).
@Suite(.timeLimit(.minutes(1))) struct VirtualPN532AutoPollTests {
    @Test func theFirstTypeThatFindsATargetAnswers() async throws {
        let (host, field) = try await VirtualPN532Tests.host([.ntag213, .felicaLiteS])
        let ntag = try #require(try await field.targets(matching: .iso14443A).first)
        // 20 (ISO/IEC 14443-4A) finds no NTAG; 10 (MIFARE card) does; 11 (FeliCa) is not tried.
        let answer = try #require(await host.command(0x60, [0x01, 0x01, 0x20, 0x10, 0x11]))
        let data: [UInt8] = [0x01, 0x00, 0x44, 0x00, 0x07] + ntag.identifier
        #expect(answer == [0x01, 0x10, UInt8(data.count)] + data)
        // The target is active as after InListPassiveTarget: READ through InDataExchange.
        let read = try #require(await host.command(0x40, [0x01, 0x30, 0x00]))
        #expect(read.count == 17 && read[0] == 0x00)
    }

    /// A generic type is answered with the specific type found (libnfc maps only those): `00`
    /// finds a Type 4 card as `20`, `01` a FeliCa card as `11`.
    @Test func genericTypesAreReportedAsWhatWasFound() async throws {
        let (host, _) = try await VirtualPN532Tests.host([.type4])
        #expect(try #require(await host.command(0x60, [0x01, 0x01, 0x00])).prefix(2) == [0x01, 0x20])
        let (felicaHost, _) = try await VirtualPN532Tests.host([.felicaLiteS])
        #expect(try #require(await felicaHost.command(0x60, [0x01, 0x01, 0x01])).prefix(2) == [0x01, 0x11])
    }

    @Test func feliCaAtTwoHundredTwelve() async throws {
        let (host, field) = try await VirtualPN532Tests.host([.felicaLiteS])
        let card = try #require(try await field.targets(matching: .felica).first)
        let answer = try #require(await host.command(0x60, [0x01, 0x01, 0x00, 0x11]))
        #expect(answer.prefix(2) == [0x01, 0x11])
        #expect(Int(answer[2]) == answer.count - 3)
        #expect(answer[3] == 0x01, "Tg")
        #expect(Array(answer[6..<14]) == card.identifier, "POL_RES: length, 01, then IDm")
    }

    /// No target after every round: NbTg 0. Jewel and DEP types find nothing here.
    @Test(arguments: [[UInt8]([0x02, 0x01, 0x00, 0x03]), [0x01, 0x01, 0x04, 0x40, 0x80]])
    func nothingFoundIsZeroTargets(_ parameters: [UInt8]) async throws {
        let (host, _) = try await VirtualPN532Tests.host([])
        #expect(await host.command(0x60, parameters) == [0x00])
    }

    /// PollNr 0, a Period outside 1 to 15, no type, or more than 15: the error frame.
    @Test(arguments: [
        [UInt8]([0x00, 0x01, 0x00]), [0x01, 0x00, 0x00], [0x01, 0x10, 0x00], [0x01, 0x01], [0x01, 0x01] + [UInt8](repeating: 0, count: 16),
    ])
    func refusedParameters(_ parameters: [UInt8]) async throws {
        let (host, _) = try await VirtualPN532Tests.host([])
        await host.chip.receive(PN532Frame.command(0x60, parameters).bytes)
        #expect(await host.line.frames(2) == [.ack, .syntaxError])
    }

    /// PollNr FF polls until a target comes; the host's ACK aborts it (§6.2.1.3).
    @Test func endlessPollingStopsOnTheHostsACK() async throws {
        let (host, _) = try await VirtualPN532Tests.host([])
        await host.chip.receive(PN532Frame.command(0x60, [0xFF, 0x01, 0x00]).bytes)
        #expect(await host.line.frames(1) == [.ack])
        await host.chip.receive(PN532Frame.ack.bytes)
        #expect(await host.command(0x02) == VirtualPN532.firmware, "the chip takes the next command")
    }

    /// InDeselect puts a card to sleep: the next InListPassiveTarget finds the other card, then
    /// none; with the field switched off and on, both answer again (ISO/IEC 14443-3 §6.3.2).
    @Test func deselectedCardsSleepUntilTheFieldGoesOff() async throws {
        let (host, field) = try await VirtualPN532Tests.host([.ntag213, .type4])
        let uids = try await field.targets(matching: .iso14443A).map(\.identifier)
        #expect(uids.count == 2)
        // No passive-activation retries: an empty poll answers at once (with FF it waits for a card).
        #expect(await host.command(0x32, [0x05, 0xFF, 0x01, 0x00]) == [])
        var listed: [[UInt8]] = []
        for _ in 0..<3 {
            let answer = try #require(await host.command(0x4A, [0x01, 0x00]))
            guard answer.first == 0x01 else { break }
            listed.append(Array(answer[6..<(6 + Int(answer[5]))]))
            #expect(await host.command(0x44, [0x00]) == [0x00])
        }
        #expect(listed == uids)
        #expect(await host.command(0x32, [0x01, 0x00]) == [])
        #expect(await host.command(0x04)?[1] == 0x00, "GetGeneralStatus: field off")
        // Bit 0 switches the field on (UM0701-02 §7.3.1; bit 1 is AutoRFCA).
        #expect(await host.command(0x32, [0x01, 0x01]) == [])
        #expect(await host.command(0x04)?[1] == 0x01, "GetGeneralStatus: field on")
        #expect(try #require(await host.command(0x4A, [0x01, 0x00])).first == 0x01)
    }
}
