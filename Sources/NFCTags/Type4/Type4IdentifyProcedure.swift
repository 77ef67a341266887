import ISO7816
import NFCBytes
import NFCTransport

/// Identifies an ISO-DEP card: its model from the ATS historical bytes — or, on an NXP card, from
/// its answer to GetVersion (`90 60 00 00 00`, then `90 AF 00 00 00` while it answers `91 AF`:
/// AN10833 MIFARE type identification; the vendor, type and major version bytes name MIFARE
/// DESFire EV1/EV2/EV3, DESFire Light, MIFARE Plus EV1/EV2 and NTAG 424 DNA) — and whether it
/// holds the NDEF Tag Application with a valid CC (whose NDEF file size is the memory reported).
///
/// ISO/IEC 14443-4 §5.2.7 (historical bytes) and ISO/IEC 7816-4:2020 §8.1.1 (their compact-TLV
/// coding after category indicator `80`: tag 5 "card issuer's data", tag 6 "pre-issuing data",
/// where many cards put a readable name). The IC manufacturer is the first byte of a 7- or
/// 10-byte UID (ISO/IEC 7816-6). A card without the NDEF application, or with an invalid CC, is
/// still identified; the details say why no memory size is given.
public struct Type4IdentifyProcedure: Type4Procedure {
    /// The card's identity: model, UID details and, with a valid CC, the NDEF file size.
    public typealias Output = TagIdentity

    enum State: Sendable {
        case detecting(Type4Detection)
        /// GetVersion on an NXP card, after detection: what it found and the frames so far.
        case version(capabilities: Type4Capabilities?, ndef: String, collected: [UInt8])
        case done
    }

    /// The activated card, whose ATS historical bytes and UID name the model.
    public let target: TargetInfo
    var state = State.detecting(Type4Detection(depth: .capabilities))

    /// An identification of the card `target` describes.
    public init(target: TargetInfo) {
        self.target = target
    }

    /// SELECT of the NDEF Tag Application, the first step of detection up to the CC.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> Type4Action<TagIdentity> {
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 identify started twice")
        }
        let action = try detection.start()
        state = .detecting(detection)
        return follow(action)
    }

    /// Follows detection; a card without the NDEF application or with an invalid CC is identified
    /// all the same, the details saying why.
    /// - Throws: `.unexpectedResponse` for an answer after the end.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<TagIdentity> {
        if case .version(let capabilities, let ndef, let collected) = state {
            // 91 AF: another frame; any other 91 xx ends GetVersion; anything else: not a native-command card.
            let sw = response.statusWord
            guard sw.sw1 == 0x91 else { return finish(capabilities, ndef, version: nil) }
            let all = collected + response.data
            if sw.sw2 == 0xAF, all.count < 28 {
                state = .version(capabilities: capabilities, ndef: ndef, collected: all)
                return .send(CommandAPDU(cla: 0x90, ins: 0xAF, expectedLength: 256))
            }
            return finish(capabilities, ndef, version: all)
        }
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "an answer arrived after identification ended")
        }
        do {
            let action = try detection.handle(response)
            state = .detecting(detection)
            return follow(action)
        } catch  where error.code == .notFormatted {
            return askVersion(capabilities: nil, ndef: "absent")
        } catch  where error.code == .invalidCapabilityContainer {
            return askVersion(capabilities: nil, ndef: "invalid: \(error.reason)")
        }
    }

    /// GetVersion on an NXP card (UID maker `04`), identification at once on any other.
    private mutating func askVersion(capabilities: Type4Capabilities?, ndef: String) -> Type4Action<TagIdentity> {
        guard target.identifier.first == 0x04, target.identifier.count >= 7 else { return finish(capabilities, ndef, version: nil) }
        state = .version(capabilities: capabilities, ndef: ndef, collected: [])
        return .send(CommandAPDU(cla: 0x90, ins: 0x60, expectedLength: 256))
    }

    private mutating func finish(_ capabilities: Type4Capabilities?, _ ndef: String, version: [UInt8]?) -> Type4Action<TagIdentity> {
        state = .done
        return .done(identity(capabilities: capabilities, ndef: ndef, version: version))
    }

    private mutating func follow(_ action: Type4Action<Type4NDEFFile>) -> Type4Action<TagIdentity> {
        switch action {
        case .send(let command):
            return .send(command)
        case .done(let file):
            let version = "mapping \(file.capabilities.majorVersion).\(file.capabilities.mappingVersion & 0x0F)"
            return askVersion(capabilities: file.capabilities, ndef: version)
        }
    }

    private func identity(capabilities: Type4Capabilities?, ndef: String, version: [UInt8]?) -> TagIdentity {
        var details: [(String, String)] = []
        var historical: [UInt8] = []
        // The ATS and type B's protocol info are activation facts, which the target reports
        // itself; the identity adds what they carry for an ISO-DEP card: the historical bytes.
        switch target.parameters {
        case .iso14443A(let a):
            historical = a.ats?.historicalBytes ?? []
        case .iso14443B(let b):
            historical = b.higherLayerResponse
        case .iso15693, .felica:
            break
        }
        if !historical.isEmpty { details.append(("historical bytes", Hex.encode(historical, uppercase: true))) }
        if let maker = Self.manufacturer(uid: target.identifier) { details.append(("manufacturer", maker)) }
        details.append(("NDEF application", ndef))
        if let capabilities {
            details.append(("MLe", "\(capabilities.maxReadLength)"))
            details.append(("MLc", "\(capabilities.maxUpdateLength)"))
            details.append(("NDEF file", "\(Type4Status.hex(capabilities.ndefFileID)), \(capabilities.maxNDEFFileSize) B"))
            let access = capabilities.writeAccess == 0 ? "read/write" : capabilities.writeAccess == 0xFF ? "read-only" : "proprietary"
            details.append(("write access", "\(Type4Capabilities.hex(capabilities.writeAccess)) (\(access))"))
        }
        let named = version.flatMap(Self.nxpName) ?? Self.cardName(historicalBytes: historical)
        if let version, version.count >= 7 { details.append(("GetVersion", Hex.encode(Array(version.prefix(7)), uppercase: true))) }
        let model = named.map { "\($0) (ISO-DEP card)" } ?? "ISO-DEP card"
        return TagIdentity(family: .type4, model: model, memorySize: capabilities?.maxNDEFFileSize, details: details)
    }

    /// A readable card name in the historical bytes: the issuer's or pre-issuing data object of a
    /// compact-TLV coding (category `80`), or else a run of at least four printable characters.
    /// The product GetVersion's hardware part names: vendor NXP (`04`), then the type (`01` MIFARE
    /// DESFire, `02` MIFARE Plus, `04` NTAG, `08` DESFire Light; AN10833) and the major version
    /// (DESFire `01` EV1, `12` EV2, `33` EV3; Plus `11` EV1, `22` EV2; NTAG `30` NTAG 424 DNA,
    /// NT4H2421Gx Table 22).
    static func nxpName(_ version: [UInt8]) -> String? {
        guard version.count >= 7, version[0] == 0x04 else { return nil }
        let major = version[3]
        switch version[1] & 0x0F {
        case 0x01:
            switch major {
            case 0x01: return "MIFARE DESFire EV1"
            case 0x12: return "MIFARE DESFire EV2"
            case 0x33: return "MIFARE DESFire EV3"
            default: return "MIFARE DESFire"
            }
        case 0x02:
            switch major {
            case 0x11: return "MIFARE Plus EV1"
            case 0x22: return "MIFARE Plus EV2"
            default: return "MIFARE Plus"
            }
        case 0x04: return major == 0x30 ? "NTAG 424 DNA" : nil
        case 0x08: return "MIFARE DESFire Light"
        default: return nil
        }
    }

    static func cardName(historicalBytes bytes: [UInt8]) -> String? {
        if bytes.first == 0x80 {
            var index = 1
            while index < bytes.count {
                let tag = bytes[index] >> 4
                let length = Int(bytes[index] & 0x0F)
                let end = index + 1 + length
                guard end <= bytes.count else { break }
                if tag == 5 || tag == 6, let name = printable(bytes[(index + 1)..<end]) { return name }
                index = end
            }
        }
        var best: ArraySlice<UInt8> = []
        var start = 0
        for index in 0...bytes.count {
            if index < bytes.count, isPrintable(bytes[index]) { continue }
            if index - start > best.count { best = bytes[start..<index] }
            start = index + 1
        }
        return printable(best)
    }

    private static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    private static func printable(_ bytes: ArraySlice<UInt8>) -> String? {
        let letters = bytes.filter { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }.count
        guard bytes.count >= 4, letters >= 3, bytes.allSatisfy(isPrintable) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingSpaces
    }

    /// The IC manufacturer of a 7- or 10-byte UID (ISO/IEC 7816-6 registration; 4-byte UIDs are
    /// often random and carry none).
    static func manufacturer(uid: [UInt8]) -> String? {
        guard uid.count == 7 || uid.count == 10, let code = uid.first else { return nil }
        switch code {
        case 0x02: return "STMicroelectronics"
        case 0x04: return "NXP Semiconductors"
        case 0x05: return "Infineon Technologies"
        case 0x07: return "Texas Instruments"
        default: return "IC manufacturer \(Hex.encode([code], uppercase: true))"
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
