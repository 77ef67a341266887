import NFCBytes
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCPCSC

/// Reader profiles: recognition from names and the firmware probe, the override, and the
/// ACR122U's Direct Transmit framing (ACS API-ACR122U v2.04 §6.1; NXP UM0701-02 §7.3.8–9).
@Suite struct ReaderProfileTests {
    @Test(
        "readers are recognised by the names pcsc-lite's CCID driver, vendors' drivers, Windows and macOS give them",
        arguments: [
            ("ACS ACR122U PICC Interface 00 00", ReaderProfile.acr122u), ("ACS ACR122U 00 00", .acr122u), ("ACS ACR122 0", .acr122u),
            ("acs acr122u picc interface 01 00", .acr122u),
            ("HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00", .omnikey5022),
            ("HID Global OMNIKEY 5022 Smart Card Reader 0", .omnikey5022),
            ("HID OMNIKEY 5427 CK (0123456789ABCDEF0123456789ABCDEF) 00 00", .omnikey5427),
            ("Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255) 00 00", .utrust3700f),
            ("Identiv CLOUD 3700 F Contactless Reader 0", .utrust3700f), ("Identiv uTrust 3700 F CL Reader", .utrust3700f),
            ("ACS ACR1252 1S CL Reader [ACR1252 1S CL Reader PICC] (1234) 00 00", .acr1252u),
            ("ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00", .acr1252u), ("ACS ACR1252 1S CL Reader PICC 0", .acr1252u),
            ("ACS ACR1552 1S CL Reader [ACR1552 1S CL Reader PICC] ( RR631-000815) 00 00", .acr1552u),
        ])
    func recognisedByName(name: String, expected: ReaderProfile) {
        #expect(ReaderProfile.recognise(readerName: name) == expected)
    }

    @Test(
        "other readers' names tell nothing",
        arguments: [
            "Virtual PCD 00 00", "ACS ACR1552 1S CL Reader [ACR1552 1S CL Reader SAM] ( RR631-000815) 01 00",
            "ACS ACR1252 Dual Reader [ACR1252 Dual Reader SAM] 01 00", "HID Global OMNIKEY 5422 Smartcard Reader 00 00",
            "Identiv uTrust 3720 Contactless Reader 0", "SCM Microsystems Inc. SCL01x Contactless Reader 00 00",
        ])
    func notRecognised(name: String) {
        #expect(ReaderProfile.recognise(readerName: name) == nil)
    }

    @Test("the firmware probe: ASCII ACR122U… is an ACR122U; a status word is another reader")
    func probe() {
        #expect(ReaderProfile.recognise(firmwareAnswer: Array("ACR122U215".utf8)) == .acr122u)
        #expect(ReaderProfile.recognise(firmwareAnswer: Array("ACR122U".utf8)) == .acr122u)
        #expect(ReaderProfile.recognise(firmwareAnswer: [0x68, 0x00]) == nil)
        #expect(ReaderProfile.recognise(firmwareAnswer: [0x6A, 0x81]) == nil)
        #expect(ReaderProfile.recognise(firmwareAnswer: []) == nil)
    }

    @Test("HID's product-name probe: an OMNIKEY 5022 or 5427 in a BD/82 answer; anything else tells nothing")
    func hidProbe() {
        let name = Array("OMNIKEY 5022 Smart Card Reader".utf8)
        #expect(
            ReaderProfile.recognise(hidProductName: [0xBD, UInt8(name.count + 2), 0x82, UInt8(name.count)] + name + [0x90, 0x00])
                == .omnikey5022)
        let ck = Array("OMNIKEY 5427 CK".utf8)
        #expect(
            ReaderProfile.recognise(hidProductName: [0xBD, UInt8(ck.count + 2), 0x82, UInt8(ck.count)] + ck + [0x90, 0x00]) == .omnikey5427)
        let other = Array("OMNIKEY 3021".utf8)
        #expect(
            ReaderProfile.recognise(hidProductName: [0xBD, UInt8(other.count + 2), 0x82, UInt8(other.count)] + other + [0x90, 0x00]) == nil)
        #expect(ReaderProfile.recognise(hidProductName: hexBytes("9E 02 00 04 90 00")) == nil)
        #expect(ReaderProfile.recognise(hidProductName: hexBytes("BD 40 82 3E 4F 90 00")) == nil, "a length past the end")
        #expect(ReaderProfile.recognise(hidProductName: [0x6D, 0x00]) == nil)
        #expect(ReaderProfile.hidProductNameProbe == hexBytes("FF 70 07 6B 08 A2 06 A0 04 A0 02 82 00 00"))
    }

    @Test("capabilities: what each profile's manual gives it")
    func capabilities() {
        #expect(ReaderProfile.utrust3700f.capabilities.contains(.felica) && !ReaderProfile.utrust3700f.capabilities.contains(.iso15693))
        #expect(ReaderProfile.omnikey5022.capabilities.contains(.iso15693) && !ReaderProfile.omnikey5022.capabilities.contains(.felica))
        #expect(!ReaderProfile.acr122u.capabilities.contains(.extendedAPDUs))
        #expect(!ReaderProfile.acr1252u.capabilities.contains(.iso15693) && ReaderProfile.acr1552u.capabilities.contains(.iso15693))
        #expect(ReaderProfile.acr1252u.capabilities.contains(.transparentSession))
        #expect(PCSCDriver.storageMode(.acr122u) == .directTransmit && PCSCDriver.storageMode(.omnikey5427) == .pseudoAPDUs)
        #expect(PCSCDriver.storageMode(.utrust3700f) == .pseudoAPDUs && PCSCDriver.storageMode(.generic) == .pseudoAPDUs)
    }

    @Test("the override: names case-insensitively; an unknown one is an error naming the profiles, with the variable's name")
    func override() throws {
        #expect(try ReaderProfile.named("ACR122U") == .acr122u)
        #expect(try ReaderProfile.named("OMNIKEY5022") == .omnikey5022)
        #expect(try ReaderProfile.named("ACR1252U") == .acr1252u)
        #expect(throws: TransportError.self) { try ReaderProfile.named("acr38u") }
        do {
            _ = try ReaderProfile.fromEnvironment([ReaderProfile.environmentVariable: "nope"])
            Issue.record("accepted nope")
        } catch {
            #expect(error.reason.contains("OPENCORENFC_READER_PROFILE") && error.reason.contains("generic, acr122u"))
        }
        #expect(try ReaderProfile.fromEnvironment([:]) == nil)
        #expect(try ReaderProfile.fromEnvironment([ReaderProfile.environmentVariable: ""]) == nil)
        #expect(try ReaderProfile.fromEnvironment([ReaderProfile.environmentVariable: "generic"]) == .generic)
    }

    static let ntag = TargetInfo(handle: 1, identifier: [4, 1, 2, 3, 4, 5, 6], parameters: .iso14443A(.init(atqa: 0x0044, sak: 0)))
    static let felica = TargetInfo(
        handle: 2, identifier: [1, 2, 3, 4, 5, 6, 7, 8], parameters: .felica(.init(pmm: [], systemCode: 0x88B4)))
    static let topaz = TargetInfo(handle: 3, identifier: [1, 2, 3, 4], parameters: .iso14443A(.init(atqa: 0x0C00, sak: 0)))

    @Test("Direct Transmit plans: READ through InCommunicateThru, WRITE through InDataExchange, FeliCa with LEN")
    func plans() throws {
        let read = try DirectTransmit.plan([0x30, 0x04], target: Self.ntag)
        #expect(read.command == [0x42, 0x30, 0x04] && read.framing == .data)
        #expect(DirectTransmit.wrap(read.command) == hexBytes("FF 00 00 00 04 D4 42 30 04"))
        let write = try DirectTransmit.plan([0xA2, 0x04, 1, 2, 3, 4], target: Self.ntag)
        #expect(write.command == [0x40, 0x01, 0xA2, 0x04, 1, 2, 3, 4] && write.framing == .acknowledged)
        let felica = try DirectTransmit.plan([0x06, 0x01], target: Self.felica)
        #expect(felica.command == [0x40, 0x01, 0x03, 0x06, 0x01] && felica.framing == .felica)
        #expect(throws: TransportError(.unsupportedCommand)) { try DirectTransmit.plan([0x78, 0, 0, 0, 0, 0, 0], target: Self.topaz) }
        #expect(throws: TransportError(.unsupportedCommand)) { try DirectTransmit.plan([0xA0, 0x04], target: Self.ntag) }
        #expect(throws: TransportError(.frameTooLong)) { try DirectTransmit.plan([UInt8](repeating: 0, count: 252), target: Self.ntag) }
        // The longest frame the limit allows still fits one Direct Transmit APDU, FeliCa's wrapping included.
        let longest = try DirectTransmit.plan([0x06] + [UInt8](repeating: 0, count: DirectTransmit.maxFrame - 1), target: Self.felica)
        #expect(DirectTransmit.wrap(longest.command)?.count == 5 + 255)
        let iso15693 = TargetInfo(handle: 4, identifier: [0xE0], parameters: .iso15693(.init(dsfid: 0)))
        #expect(throws: TransportError(.unsupportedCommand)) { try DirectTransmit.plan([0x02, 0x20, 0x00], target: iso15693) }
    }

    @Test(
        "Direct Transmit answers: data, ACK, NAK, FeliCa LEN; time-out, PN532 errors, 63 00 and malformed answers are typed errors",
        arguments: [
            ("D5 43 00 01 02 03 90 00", [0x42], DirectTransmit.Framing.data, [UInt8]([1, 2, 3])),
            ("D5 43 02 90 00", [0x42], .data, [0x00]),
            ("D5 41 00 90 00", [0x40], .acknowledged, [0x0A]),
            ("D5 41 14 90 00", [0x40], .acknowledged, [0x00]),
            ("D5 41 00 03 07 AA 90 00", [0x40], .felica, [0x07, 0xAA]),
        ])
    func answers(hex: String, command: [UInt8], framing: DirectTransmit.Framing, expected: [UInt8]) throws {
        #expect(try DirectTransmit.answer(hexBytes(hex), to: command, framing: framing, reader: "r") == expected)
    }

    @Test(
        "Direct Transmit failures",
        arguments: [
            ("D5 43 01 90 00", TransportError.Code.timeout), ("D5 43 02 AA 90 00", .transmission), ("D5 41 14 90 00", .transmission),
            ("63 00", .transmission), ("90 00", .protocolViolation), ("D5 45 00 90 00", .protocolViolation), ("00", .protocolViolation),
            ("D5 43 00 05 07 90 00", .protocolViolation),
        ])
    func failures(hex: String, code: TransportError.Code) {
        let framing: DirectTransmit.Framing = hex.hasPrefix("D5 43 00 05") ? .felica : .data
        let command: [UInt8] = hex.hasPrefix("D5 41") ? [0x40] : [0x42]
        #expect(throws: TransportError(code)) { try DirectTransmit.answer(hexBytes(hex), to: command, framing: framing, reader: "r") }
    }

    @Test("§7.3–7.4: the ACR122U's FeliCa and Topaz ATRs (standard 03, card names F0 11, F0 12, F0 04) are FeliCa and Type 1")
    func acsCardNames() throws {
        let felica = try PCSCTagKind(atr: ContactlessATR(atr: hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A")))
        #expect(felica == .felica)
        let topaz = try PCSCTagKind(atr: ContactlessATR(atr: hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 04 00 00 00 00 9F")))
        #expect(topaz == .storageA(cardName: 0x0030))
    }

    @Test("identification on an ACR122U polls a FeliCa card through Direct Transmit for its PMm and system code")
    func felicaPollingThroughDirectTransmit() throws {
        let idm = "0102030405060708"
        let pmm = "00F1000000014300"
        let table = [
            "ffca000000": idm + "9000",
            "ff00000009d440010600ffff0100": "d54100" + "14" + "01" + idm + pmm + "88b4" + "9000",
        ]
        let identification = TargetIdentification(profile: .acr122u) { apdu in hexBytes(table[Hex.encode(apdu)] ?? "6300") }
        let (target, kind) = try identification.identify(
            atr: hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A"), handle: 5)
        #expect(kind == .felica)
        #expect(target.identifier == hexBytes(idm))
        #expect(target.parameters == .felica(.init(pmm: hexBytes(pmm), systemCode: 0x88B4)))
    }
}
