import Dispatch
import Foundation
import ISO7816
import NFCDESFire
import NFCSimulator
import NFCTransport

/// libFuzzer target for the DESFire family, both sides of the wire.
///
/// - Cards (selector below `80`): a virtual MIFARE DESFire (blank EV3, NDEF-formatted EV2, EV1 with
///   an application of every file kind) or NTAG 424 DNA, optionally authenticated first with a real
///   AuthenticateEV2First (selector bit 2) — or, with bit 3, AuthenticateISO/AES and EV1 secure
///   messaging; with bit 4, a MIFARE Plus (bit 0 SL3, bit 1 4 KB, bit 2 an EV1 session) — answers
///   every frame of the input (``AnswerScript``
///   framing: native frames, wrapped and ISO APDUs) — what `nfc emulate --pcsc` does for any program
///   that talks to pcscd. Asserts: never a trap; every answer carries a status (one byte for a
///   native frame, two for an APDU); after each frame the card's image rebuilds to the same card
///   (no command leaves a state an image cannot hold).
/// - Clients (selector `80` and up): `DESFireClient`, `NTAG424Client` and `MIFAREPlusClient` dialogues over a card that
///   answers with the input's bytes. Asserts: every failure is a thrown error, never a trap.
///
/// `FUZZ_MAKE_SEEDS=DIR` writes seeds (card inputs from the unit tests' command sequences, client
/// dialogues recorded from the simulator) and exits.

/// A virtual card driven synchronously, as an `APDUTransmitter` for the authentication prefix.
final class DirectCard: APDUTransmitter, @unchecked Sendable {
    let supportsExtendedLength = false
    private let lock = DispatchSemaphore(value: 1)
    var card: any VirtualTag

    init(_ card: any VirtualTag) {
        var powered = card
        powered.powerOn()
        self.card = powered
    }

    func answer(_ frame: [UInt8]) -> [UInt8] {
        lock.wait()
        defer { lock.signal() }
        return card.respond(to: frame, context: ExchangeContext()).transceivedBytes ?? []
    }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] { answer(command) }
}

let cards = ["desfire-blank-ev3", "desfire-ndef-ev2", "desfire-ev1-files", "ntag424"]

/// The card a selector picks.
func makeCard(_ index: Int) -> any VirtualTag {
    switch index {
    case 0: return DESFireCard(model: .ev3)
    case 1: return DESFireCard.ndefFormatted(model: .ev2)
    case 2:
        var card = DESFireCard(model: .ev1)
        var app = DESFireApplication(aid: [0x01, 0x02, 0x03], keySettings: 0x0F, keyCount: 3, isoID: 0x1234, dfName: [0xA0, 0x00, 0x01])
        let free = NTAG424File.AccessRights(read: 0x0E, write: 0x0E, readWrite: 0x0E, change: 0x00)
        var records = DESFireDataFile.RecordFile(recordSize: 4, maximumRecords: 3)
        records.records = [[1, 2, 3, 4]]
        app.files = [
            DESFireDataFile(
                number: 1, isoID: 0x1001, kind: .standard, mode: .plain, access: free, contents: Array(repeating: 0x11, count: 100)),
            DESFireDataFile(number: 2, kind: .backup, mode: .mac, access: free, contents: Array(repeating: 0x22, count: 40)),
            DESFireDataFile(
                number: 3, kind: .value(.init(lowerLimit: -100, upperLimit: 1_000, value: 5, limitedCreditEnabled: true)), mode: .full,
                access: free),
            DESFireDataFile(number: 4, kind: .cyclicRecord(records), mode: .plain, access: free),
            DESFireDataFile(number: 5, kind: .linearRecord(.init(recordSize: 2, maximumRecords: 2)), mode: .plain, access: free),
        ]
        card.applications = [app]
        return card
    default: return NTAG424Tag()
    }
}

/// The card's image rebuilds to the same image (DESFire, NTAG 424 DNA, MIFARE Plus).
func checkImage(_ tag: any VirtualTag) {
    if let card = tag as? MIFAREPlusCard {
        guard let rebuilt = try? MIFAREPlusCard(image: card.image), rebuilt.image == card.image else {
            fatalError("the MIFARE Plus reached a state its image cannot hold")  // trap-ok: fuzz oracle
        }
    } else if let card = tag as? DESFireCard {
        guard let rebuilt = try? DESFireCard(image: card.image), rebuilt.image == card.image else {
            fatalError("the DESFire reached a state its image cannot hold")  // trap-ok: fuzz oracle
        }
    } else if let tag = tag as? NTAG424Tag {
        guard let rebuilt = try? NTAG424Tag(image: tag.image), rebuilt.image == tag.image else {
            fatalError("the NTAG 424 DNA reached a state its image cannot hold")  // trap-ok: fuzz oracle
        }
    }
}

func fuzzCard(_ selector: Int, _ frames: ArraySlice<UInt8>) {
    if selector & 0x10 != 0 {
        let direct = DirectCard(
            MIFAREPlusCard(
                model: MIFAREPlusModel(generation: .ev2, kilobytes: selector & 0x02 != 0 ? 4 : 2),
                securityLevel: selector & 0x01 != 0 ? .sl3 : .sl0))
        if selector & 0x04 != 0 {
            runBlocking { () async -> Void in
                try? await MIFAREPlusClient(transmitter: direct).authenticate(keyBlock: 0x4000, key: [UInt8](repeating: 0xFF, count: 16))
            }
        }
        answerFrames(direct, frames)
        return
    }
    let direct = DirectCard(makeCard(selector & 0x03))
    if selector & 0x08 != 0, selector & 0x04 != 0 {
        // EV1 secure messaging: AuthenticateISO with the DES PICC master key, or AuthenticateAES in
        // the EV1 card's application.
        runBlocking { () async -> Void in
            let client = DESFireClient(transmitter: direct)
            if selector & 0x03 == 2 {
                try? await client.selectApplication(DESFireAID(wire: [0x01, 0x02, 0x03]))
                try? await client.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 16), method: .aes)
            } else {
                try? await client.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 16), method: .iso)
            }
        }
    } else if selector & 0x04 != 0 {
        // A real session first, so the frames also reach the secure-messaging paths.
        runBlocking { () async -> Void in
            let client = DESFireClient(transmitter: direct)
            if selector & 0x03 == 3 {
                _ = direct.answer([0x00, 0xA4, 0x04, 0x0C, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
            } else if selector & 0x03 == 2 {
                try? await client.selectApplication(DESFireAID(wire: [0x01, 0x02, 0x03]))
            }
            try? await client.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 16))
        }
    }
    answerFrames(direct, frames)
}

/// Answers every frame of the input, checking each answer and the image after it.
func answerFrames(_ direct: DirectCard, _ frames: ArraySlice<UInt8>) {
    let script = AnswerScript(frames)
    while true {
        let next: [UInt8]?
        do { next = try script.next() } catch { break }
        guard let frame = next else { continue }
        let answer = direct.answer(frame)
        // A MIFARE Plus takes only native and wrapped frames (no ISO commands): one status byte at least.
        let apdu = (frame.first == 0x00 || frame.first == 0x90) && !(direct.card is MIFAREPlusCard)
        guard answer.count >= (apdu ? 2 : 1) || direct.card is NTAG424Tag && answer.count >= 2 else {
            fatalError("an answer without a status: \(frame) -> \(answer)")  // trap-ok: fuzz oracle
        }
        checkImage(direct.card)
    }
}

let dialogues = [
    "version", "applications", "files", "read", "records", "value", "format-ndef", "authenticate-read", "ntag424-settings",
    "ntag424-read", "iso-authenticate-change-key", "mifare-plus-identity", "mifare-plus-session",
]

func dialogue(_ operation: Int, _ transmitter: any APDUTransmitter) async throws {
    let client = DESFireClient(transmitter: transmitter, random: { [UInt8](repeating: 0x5A, count: $0) })
    let zero = [UInt8](repeating: 0, count: 16)
    let aid = DESFireAID(wire: [0x01, 0x02, 0x03])
    switch operation {
    case 0: _ = try await client.version()
    case 1:
        _ = try await client.applicationIDs()
        _ = try await client.freeMemory()
        _ = try await client.keySettings()
    case 2:
        try await client.selectApplication(aid)
        for file in try await client.fileIDs() { _ = try await client.fileSettings(file) }
        _ = try await client.isoFileIDs()
    case 3:
        try await client.selectApplication(aid)
        _ = try await client.read(file: 1)
    case 4:
        try await client.selectApplication(aid)
        _ = try await client.readRecords(file: 4)
    case 5:
        try await client.selectApplication(aid)
        _ = try await client.value(file: 3)
        try await client.change(value: .credit, file: 3, amount: 7)
        try await client.commit()
    case 6: try await client.formatForNDEF(ndefFileSize: 512)
    case 7:
        try await client.selectApplication(aid)
        try await client.authenticate(keyNumber: 0, key: zero)
        _ = try await client.read(file: 2)
        _ = try await client.cardUID()
    case 8:
        let tag = NTAG424Client(transmitter: transmitter, random: { [UInt8](repeating: 0x5A, count: $0) })
        try await tag.selectApplication()
        for file: UInt8 in 1...3 { _ = try await tag.fileSettings(file) }
    case 9:
        let tag = NTAG424Client(transmitter: transmitter, random: { [UInt8](repeating: 0x5A, count: $0) })
        try await tag.selectApplication()
        try await tag.authenticate(keyNumber: 0, key: zero)
        _ = try await tag.read(file: 2, length: 32)
    case 10:
        try await client.authenticate(keyNumber: 0, key: zero, method: .iso)
        _ = try await client.keySettings()
        _ = try await client.applicationIDs()
        try await client.changeKey(0, to: zero, version: 1, oldKey: zero)
    case 11:
        let plus = MIFAREPlusClient(transmitter: transmitter, random: { [UInt8](repeating: 0x5A, count: $0) })
        _ = try await plus.version()
        _ = try await plus.securityLevel()
    default:
        let plus = MIFAREPlusClient(transmitter: transmitter, random: { [UInt8](repeating: 0x5A, count: $0) })
        try await plus.authenticate(keyBlock: 0x4000, key: [UInt8](repeating: 0xFF, count: 16))
        _ = try await plus.read(block: 1, count: 2)
        try await plus.write(block: 2, [UInt8](repeating: 2, count: 16), encrypted: false)
        try await plus.writeValue(block: 1, 10)
        try await plus.value(.decrement(3), block: 1, transferTo: 1)
        _ = try await plus.read(block: 1, macOnAnswer: false, macOnCommand: false)
        _ = try await plus.version()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDESFire(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(bytes[0])
    if selector < 0x80 {
        fuzzCard(selector, bytes.dropFirst())
        return 0
    }
    let transmitter = ScriptedTransmitter(supportsExtendedLength: false, script: AnswerScript(bytes.dropFirst()))
    runBlocking { () async -> Void in
        try? await dialogue((selector - 0x80) % dialogues.count, transmitter)
    }
    return 0
}

/// Card inputs: command sequences of the unit tests, as hex frames.
let cardSeeds: [(String, Int, [String])] = [
    (
        "card-blank-lifecycle", 0,
        [
            "9060000000", "90AF000000", "90AF000000", "906A000000", "90CA0000050302010F8100", "905A00000303020100",
            "90CD0000070100EEEE10000000", "90CB0000070200EEEE10000000", "903D00000A020000000300001122" + "3300", "90C7000000",
            "90BD0000070200000003000000", "90CC0000110300EEEE00000000E8030000640000000100", "900C0000050332000000" + "00",
            "90C100000A0400EEEE04000002000000", "903B00000804000000010000" + "11" + "00", "90C7000000", "90BB0000070400000000000000",
        ]
    ),
    (
        "card-ndef-iso", 1,
        ["00A4040007D276000085010100", "00A4000C02E103", "00B000000F", "00A4000C02E104", "00D600000400021234", "00B0000004"]
    ),
    (
        "card-ev1-native", 2,
        ["5A030201", "6F", "F501", "BD01000000100000", "6C03", "0C0305000000", "C7", "BB04000000000000", "60", "AF", "AF"]
    ),
    ("card-ntag424", 3, ["00A4040C07D276000085010100", "90F50000010200", "90AD0000070200000010000000", "9060000000"]),
    ("card-ev1-iso", 0x08, ["45", "6A", "6E", "CA0302010F41", "5A030201", "1A00", "AF" + String(repeating: "00", count: 32)]),
    (
        "card-plus-sl0", 0x10,
        ["60", "AF", "AF", "A80100" + String(repeating: "11", count: 16), "A89090" + String(repeating: "00", count: 16), "AA03"]
    ),
    ("card-plus-sl3", 0x11, ["70004006010000000000", "72" + String(repeating: "00", count: 32), "33010001", "37040001", "78", "60"]),
]

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    var written = 0
    for (name, card, frames) in cardSeeds {
        for authenticated in [0, 4] {
            let seed = [UInt8(card | authenticated)] + AnswerScript.encode(frames.map { Optional(hex($0)) })
            try? Data(seed).write(to: URL(fileURLWithPath: "\(directory)/\(name)\(authenticated == 0 ? "" : "-session")"))
            written += 1
        }
    }
    written += runBlocking { () async -> Int in
        var count = 0
        for (index, name) in dialogues.enumerated() {
            let field = SimulatedField()
            let tag: any VirtualTag =
                switch index {
                case 8, 9: makeCard(3)
                case 6, 10: makeCard(0)
                case 11: MIFAREPlusCard()
                case 12: MIFAREPlusCard(securityLevel: .sl3)
                default: makeCard(2).withEV2()
                }
            await place(tag, in: field)
            guard let target = try? await field.targets(matching: .all).first,
                let inner = try? await field.connect(to: target, meter: AirTimeMeter())
            else { continue }
            let recorder = RecordingConnection(inner)
            try? await dialogue(index, ConnectionTransmitter(connection: recorder))
            let seed = [UInt8(0x80 + index)] + AnswerScript.encode(recorder.answers)
            try? Data(seed).write(to: URL(fileURLWithPath: "\(directory)/client-\(name)"))
            count += 1
        }
        return count
    }
    print("wrote \(written) seeds to \(directory)")
    exit(0)
}

/// Places a tag of any kind (the existential opened).
func place(_ tag: some VirtualTag, in field: SimulatedField) async { _ = await field.place(tag) }

extension VirtualTag {
    /// The EV1 card of ``makeCard(_:)`` as an EV3, so authenticated dialogues record.
    func withEV2() -> any VirtualTag {
        guard var card = self as? DESFireCard else { return self }
        card.model = .ev3
        return card
    }
}

func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) {
        if let byte = UInt8(text[index..<next], radix: 16) { out.append(byte) }
        index = next
    }
    return out
}
