import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

@testable import NFCPN532

/// The card side of nfcpy's UDP frontend, fed the frames nfcpy 1.0.4's reader sends
/// (OUTSIDE-READERS.md), and our `nfcpy-udp:` reader against it over a real loopback socket.
@Suite(.timeLimit(.minutes(1))) struct NfcpyUDPCardTests {
    static func card(_ kind: VirtualTagKind) async throws -> (NfcpyUDPCard, TargetInfo) {
        let field = SimulatedField(clock: SimulatedClock())
        await field.place(try kind.make())
        let target = try #require(try await field.targets(matching: .all).first)
        return (NfcpyUDPCard(driver: field), target)
    }

    static func a(_ hex: String) -> NfcpyUDPFrame { .frame(.a106, (try? Hex.decode(hex)) ?? []) }

    @Test(arguments: [
        ("106A 26", NfcpyUDPFrame.frame(.a106, [0x26])),
        ("212F 0600ffff0100", .frame(.f212, [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])),
        ("106B", .frame(.b106, [])),
        ("RFOFF", .fieldOff),
    ])
    func datagramsParseAndPrintBack(_ text: String, _ frame: NfcpyUDPFrame) {
        #expect(NfcpyUDPFrame(datagram: Array(text.utf8)) == frame)
        #expect(frame.description == text)
    }

    @Test(arguments: ["", "106C 26", "106A 2", "106A 26 27", "rfoff", "106A zz"])
    func otherDatagramsAreDropped(_ text: String) {
        #expect(NfcpyUDPFrame(datagram: Array(text.utf8)) == nil)
    }

    /// A Topaz answers SENS_REQ with SENS_RES `00 0C` (no anticollision, Topaz platform), then
    /// RID `78 0000 00000000` with HR0 HR1 and UID0–3, and RALL with its 122 bytes.
    @Test(arguments: [VirtualTagKind.topaz96, .topaz512])
    func topazTakesRIDRightAfterSENSREQ(kind: VirtualTagKind) async throws {
        let (card, target) = try await Self.card(kind)
        #expect(await card.receive(Self.a("26")) == .frame(.a106, [0x00, 0x0C]))
        guard case .frame(.a106, let rid)? = await card.receive(Self.a("78000000000000")) else {
            Issue.record("RID got no answer")
            return
        }
        #expect(rid.count == 6 && Array(rid[2..<6]) == Array(target.identifier.prefix(4)))
        #expect(rid[0] == (kind == .topaz96 ? 0x11 : 0x12), "HR0")
        guard case .frame(.a106, let all)? = await card.receive(.frame(.a106, [0x00, 0x00, 0x00] + Array(rid[2..<6]))) else {
            Issue.record("RALL got no answer")
            return
        }
        #expect(all.count == 2 + 120 && Array(all[0..<2]) == Array(rid[0..<2]))
    }

    /// A 7-byte UID in two cascade levels (ISO/IEC 14443-3 §6.5.4): `88 U0 U1 U2 BCC`, then
    /// `U3 … U6 BCC`; SAK `04` (cascade) after the first SELECT, the tag's own after the second;
    /// then READ `30 00` answers 16 bytes.
    @Test func ntagIsActivatedInTwoCascadeLevelsAndRead() async throws {
        let (card, target) = try await Self.card(.ntag213)
        let uid = target.identifier
        guard case .iso14443A(let parameters) = target.parameters else { return }
        #expect(await card.receive(Self.a("26")) == .frame(.a106, [UInt8(parameters.atqa & 0xFF), UInt8(parameters.atqa >> 8)]))
        let level1 = [0x88] + uid[0..<3]
        let level1Answer = level1 + [level1.reduce(0, ^)]
        #expect(await card.receive(Self.a("9320")) == .frame(.a106, level1Answer))
        #expect(await card.receive(.frame(.a106, [0x93, 0x70] + level1Answer)) == .frame(.a106, [0x04]))
        let level2 = Array(uid[3..<7])
        let level2Answer = level2 + [level2.reduce(0, ^)]
        #expect(await card.receive(Self.a("9520")) == .frame(.a106, level2Answer))
        #expect(await card.receive(.frame(.a106, [0x95, 0x70] + level2Answer)) == .frame(.a106, [parameters.sak]))
        guard case .frame(.a106, let page0)? = await card.receive(Self.a("3000")) else {
            Issue.record("READ got no answer")
            return
        }
        #expect(page0.count == 16 && Array(page0[0..<3]) == Array(uid[0..<3]))
        // Active, it ignores REQA and WUPA (ISO/IEC 14443-3 §6.3) and other technologies.
        #expect(await card.receive(Self.a("26")) == nil)
        #expect(await card.receive(.frame(.f212, [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])) == nil)
        #expect(await card.receive(Self.a("3000")) != nil, "still active")
        // Halted, it answers ALL_REQ only.
        #expect(await card.receive(Self.a("5000")) == nil)
        #expect(await card.receive(Self.a("26")) == nil)
        #expect(await card.receive(Self.a("52")) != nil)
    }

    /// A wrong SELECT, or commands before SELECT, get silence.
    @Test func aWrongSelectIsSilent() async throws {
        let (card, _) = try await Self.card(.ntag213)
        _ = await card.receive(Self.a("26"))
        #expect(await card.receive(Self.a("3000")) == nil)
        #expect(await card.receive(Self.a("9370 0000000000")) == nil)
    }

    /// Type 4: RATS answered with the ATS, then an I-block carrying SELECT of the NDEF
    /// application answered in an I-block of the same number (ISO/IEC 14443-4 §7.1).
    @Test func type4RunsISODEPAfterRATS() async throws {
        let (card, target) = try await Self.card(.type4)
        guard case .iso14443A(let parameters) = target.parameters, let ats = parameters.ats else { return }
        _ = await card.receive(Self.a("26"))
        let levels = NfcpyUDPCard.cascadeLevels(target.identifier)
        for (index, level) in levels.enumerated() {
            _ = await card.receive(.frame(.a106, [[0x93, 0x95, 0x97][index], 0x70] + level))
        }
        #expect(await card.receive(Self.a("E080")) == .frame(.a106, ats.bytes))
        let answer = await card.receive(Self.a("02 00A4040007D276000085010100"))
        #expect(answer == .frame(.a106, [0x02, 0x90, 0x00]))
    }

    /// Type B (ISO/IEC 14443-3 §7): REQB answered with ATQB, ATTRIB with MBLI/CID, then
    /// ISO-DEP blocks; HLTB answers 00 and the card then ignores REQB but not WUPB.
    @Test func type4BIsActivatedWithATTRIB() async throws {
        let (card, target) = try await Self.card(.type4b)
        guard case .iso14443B(let b) = target.parameters else {
            Issue.record("a type4b is a type B card")
            return
        }
        let atqb = [0x50] + target.identifier + b.applicationData + b.protocolInfo
        #expect(await card.receive(.frame(.b106, [0x05, 0x00, 0x10])) == .frame(.b106, atqb))
        #expect(await card.receive(.frame(.b106, [0x1D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x01, 0x00])) == nil, "another PUPI")
        let attrib = [0x1D] + target.identifier + [0x00, 0x08, 0x01, 0x00]
        #expect(await card.receive(.frame(.b106, attrib)) == .frame(.b106, [0x00]))
        let select = try Hex.decode("02 00A4040007D276000085010100")
        #expect(await card.receive(.frame(.b106, select)) == .frame(.b106, [0x02, 0x90, 0x00]))
        #expect(await card.receive(.frame(.b106, [0x50] + target.identifier)) == .frame(.b106, [0x00]))
        #expect(await card.receive(.frame(.b106, [0x05, 0x00, 0x00])) == nil, "halted: REQB is ignored")
        #expect(await card.receive(.frame(.b106, [0x05, 0x00, 0x08])) == .frame(.b106, atqb), "WUPB wakes it")
    }

    /// Polling at 212 kbit/s is the card's own answer, LEN first; a Lite-S answers 12FC.
    @Test func felicaPollingAndReadKeepTheirLENByte() async throws {
        let (card, target) = try await Self.card(.felicaLiteS)
        guard case .frame(.f212, let polled)? = await card.receive(.frame(.f212, [0x06, 0x00, 0x12, 0xFC, 0x01, 0x00])) else {
            Issue.record("no answer to Polling")
            return
        }
        #expect(Int(polled[0]) == polled.count && polled[1] == 0x01 && Array(polled[2..<10]) == target.identifier)
        #expect(polled.suffix(2) == [0x12, 0xFC])
        let read: [UInt8] = [0x06] + target.identifier + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        guard case .frame(.f212, let block)? = await card.receive(.frame(.f212, [UInt8(read.count + 1)] + read)) else {
            Issue.record("no answer to Read Without Encryption")
            return
        }
        #expect(Int(block[0]) == block.count && block[1] == 0x07 && block.count == 1 + 1 + 8 + 2 + 1 + 16)
    }

    /// A technology the field does not hold is answered with an empty frame at once.
    @Test func otherTechnologiesAreAnsweredEmpty() async throws {
        let (card, _) = try await Self.card(.felicaLiteS)
        #expect(await card.receive(Self.a("26")) == .frame(.a106, []))
        #expect(await card.receive(.frame(.b106, [0x05, 0x00, 0x10])) == .frame(.b106, []))
        #expect(await card.receive(.fieldOff) == nil)
    }

    /// Our `nfcpy-udp:` reader and this card over loopback UDP: the reader polls, connects and
    /// reads the Lite-S's attribute block through the real sockets; RFOFF ends the activation.
    @Test func ourReaderReadsTheCardOverLoopback() async throws {
        let field = SimulatedField(clock: SimulatedClock())
        await field.place(try VirtualTagKind.felicaLiteS.make())
        let port = try NfcpyUDPCard.Port(host: "127.0.0.1", port: 0)
        let bound = port.port
        let stopped = Guarded(false)
        let serving = Task { await NfcpyUDPCard.serve(port: port, driver: field, stopped: stopped) }
        // Generous waits: under the thread sanitizer an answer can take longer than 500 ms.
        let reader = NfcpyUDPReader(host: "127.0.0.1", port: bound, pollWait: .seconds(10), minimumExchangeWait: .seconds(10))
        let target = try #require(try await reader.targets(matching: .felica).first)
        #expect(try await reader.targets(matching: .iso14443A).isEmpty)
        guard case .felica(let felica) = target.parameters else { return }
        #expect(felica.systemCode == 0x12FC)
        let connection = try await reader.connect(to: target, meter: AirTimeMeter())
        let read: [UInt8] = [0x06] + target.identifier + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let answer = try await connection.transceive(read, timeout: .milliseconds(100))
        #expect(answer.count == 1 + 8 + 2 + 1 + 16 && answer[0] == 0x07)
        await connection.disconnect()
        stopped.withLock { $0 = true }
        let statistics = await serving.value
        port.close()
        #expect(statistics.fieldOffs == 1)
        #expect(statistics.received[.f212] == 2, "one Polling (12FC, answered), one read; a type A poll sends nothing")
    }
}
