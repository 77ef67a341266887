import Foundation
import ISO7816
import NFCSimulator
import NFCTransport
import NFCeMRTD

/// libFuzzer target for passports: the client's parsers of outside bytes (EF.SOD's CMS and
/// LDSSecurityObject, MRZ text, DG2's facial record, EF.CardAccess, EF.COM, DG1, DG11/DG12,
/// DG14's SecurityInfos and DG15's key (explicit curves included), a protected answer under 3DES and AES secure messaging), `PassportReader` talking to a hostile
/// chip, and the virtual chip answering hostile commands.
///
/// Input: `[selector] bytes…`. Selectors `00`–`3F` feed one parser the bytes (selector mod 10:
/// EF.SOD, MRZ, DG2, EF.CardAccess, EF.COM, DG1, DG11, secure messaging, DG14, DG15 and an
/// active-authentication signature under it); `40`–`7F` send
/// the bytes (``AnswerScript`` framing, one command per answer slot) to a virtual passport (bit 0:
/// with PACE, bit 1: after BAC); `80`–`FF` run `PassportReader` (BAC, MRZ or CAN access by
/// selector) against a chip that answers from the script. Asserts: every failure is a thrown
/// error, never a trap.
///
/// `FUZZ_MAKE_SEEDS=DIR` writes seeds: a virtual passport's files and a recorded reading.
let specimen = try! MRZKey(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")

func parse(_ selector: Int, _ bytes: [UInt8]) {
    switch selector % 10 {
    case 0: _ = try? SecurityObject(bytes)
    case 1: _ = try? MachineReadableZone(String(decoding: bytes, as: UTF8.self))
    case 2: _ = try? FaceImage(dataGroup2: bytes)
    case 3: _ = try? PACEInfo.parse(cardAccess: bytes)
    case 4: _ = try? CommonData(bytes)
    case 5: _ = try? DataGroup1.parse(bytes)
    case 6: _ = try? AdditionalDetails(bytes, file: .dataGroup(11))
    case 8:
        if let infos = try? ChipSecurityInfos(dataGroup14: bytes) { _ = ChipAuthentication.choose(from: infos) }
    case 9:
        // DG15 up to its end, then the rest as a signature over a fixed challenge.
        let split = min(bytes.count, 2 + Int(bytes.count > 1 ? bytes[1] : 0))
        if let key = try? ActiveAuthentication.publicKey(dataGroup15: Array(bytes[..<split])) {
            _ = ActiveAuthentication.verify(
                signature: Array(bytes[split...]), challenge: [1, 2, 3, 4, 5, 6, 7, 8], key: key, algorithm: .ecdsaPlain(.sha256))
        }
    default:
        let key = [UInt8](repeating: 0x11, count: 16)
        if var tripleDES = try? SecureMessaging(encryptionKey: key, macKey: key, sendSequenceCounter: 1) {
            _ = try? tripleDES.unprotect(bytes)
        }
        if var aes = try? SecureMessaging(aesEncryptionKey: key, macKey: key) { _ = try? aes.unprotect(bytes) }
    }
}

/// A virtual passport answering the script's slots as commands.
func fuzzChip(_ selector: Int, _ bytes: ArraySlice<UInt8>) {
    let holder = PassportHolder(pace: selector & 1 != 0 ? PassportApplet.PACESettings() : nil)
    guard let applet = try? PassportIssuer.issue(holder) else { return }
    let card = PassportApplet.card(applet)
    runBlocking { () async -> Void in
        let field = SimulatedField()
        _ = await field.place(card)
        guard let target = try? await field.targets(matching: .all).first,
            let connection = try? await field.connect(to: target, meter: AirTimeMeter())
        else { return }
        let transmitter = ConnectionTransmitter(connection: connection)
        if selector & 2 != 0 {
            _ = try? await transmitter.send(CommandAPDU.select(aid: LDSFile.applicationIdentifier, returnFCI: false))
            _ = try? await BasicAccessControl.establish(key: specimen, over: transmitter)
        }
        let script = AnswerScript(bytes)
        while let command = try? script.next() {
            _ = try? await connection.transceive(command, timeout: .seconds(1))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEMRTD(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(bytes[0])
    switch selector {
    case 0..<0x40:
        parse(selector, Array(bytes.dropFirst()))
    case 0x40..<0x80:
        fuzzChip(selector, bytes.dropFirst())
    default:
        let transmitter = ScriptedTransmitter(supportsExtendedLength: selector & 1 != 0, script: AnswerScript(bytes.dropFirst()))
        let access: PassportReader.Access =
            switch (selector >> 1) % 3 {
            case 0: .bac(specimen)
            case 1: .mrz(specimen)
            default: .pace(.can("123456"))
            }
        runBlocking { () async -> Void in
            _ = try? await PassportReader(transmitter: transmitter).read(access: access)
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    guard let applet = try? PassportIssuer.issue(PassportHolder()) else { return 0 }
    func write(_ name: String, _ bytes: [UInt8]) {
        try? Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
    }
    let file = { (id: UInt16) in applet.files.first { $0.identifier == id }?.content ?? [] }
    write("sod", [0x00] + file(0x011D))
    write("mrz", [0x01] + Array("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10".utf8))
    write("dg2", [0x02] + file(0x0102))
    write(
        "card-access",
        [
            0x03, 0x31, 0x14, 0x30, 0x12, 0x06, 0x0A, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02, 0x02, 0x01, 0x02, 0x02,
            0x01, 0x0D,
        ])
    write("com", [0x04] + file(0x011E))
    write("dg1", [0x05] + file(0x0101))
    write("dg11", [0x06] + file(0x010B))
    write("dg14", [0x08] + file(0x010E))
    write("dg15", [0x09] + file(0x010F))
    write(
        "chip-bac",
        [0x40] + AnswerScript.encode([[0x00, 0xA4, 0x04, 0x0C, 0x07] + LDSFile.applicationIdentifier, [0x00, 0x84, 0x00, 0x00, 0x08]]))
    write(
        "chip-pace",
        [0x41]
            + AnswerScript.encode([
                [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1C], [0x00, 0xB0, 0x00, 0x00, 0x00],
                [0x00, 0x22, 0xC1, 0xA4, 0x0F, 0x80, 0x0A, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02, 0x83, 0x01, 0x02],
                [0x10, 0x86, 0x00, 0x00, 0x02, 0x7C, 0x00, 0x00],
            ]))
    // A reading recorded from the virtual passport (BAC; its MACs will not verify on replay, but
    // every answer's shape is real).
    let recorded = runBlocking { () async -> [[UInt8]?] in
        let field = SimulatedField()
        _ = await field.place(PassportApplet.card(applet))
        guard let target = try? await field.targets(matching: .all).first,
            let connection = try? await field.connect(to: target, meter: AirTimeMeter())
        else { return [] }
        let recording = RecordingConnection(connection)
        _ = try? await PassportReader(transmitter: ConnectionTransmitter(connection: recording)).read(access: .bac(specimen))
        return recording.answers
    }
    write("reader-bac", [0x81] + AnswerScript.encode(recorded))
    return 0
}
