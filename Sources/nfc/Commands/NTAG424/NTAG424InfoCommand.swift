import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc ntag424 info [--reader R] [--key HEX|- [--key-number K]] [--json]`
struct NTAG424InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Show the chip's version, the settings of its three files, its key versions and whose key signed it (originality); with --key also its real UID.",
        discussion: """
            The originality signature (Read_Sig) is checked against NXP's published keys and the \
            simulator's test key: a virtual card says it is one. A valid signature shows NXP made the \
            chip that UID belongs to, not that the chip is present: a recorded signature replays.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keys: NTAG424KeyOptions
    @Flag(name: .long, help: "Print JSON: {\"version\", \"uid\", \"files\", \"keyVersions\", \"originality\"}.")
    var json = false

    struct Info {
        var version: NTAG424Version
        var uid: [UInt8]?
        var files: [(UInt8, NTAG424FileSettings)]
        var keyVersions: [UInt8]
        /// Read_Sig's answer checked against the UID.
        var originality: OriginalityVerdict
    }

    func run() async throws {
        let key = try keys.optional("NTAG 424 key (hex)")
        let number = try keys.number(or: 0)
        let info = try await NTAG424Runner.run(readerOptions, json: json) { client in
            let version = try await client.version()
            var files: [(UInt8, NTAG424FileSettings)] = []
            for file: UInt8 in 1...3 { files.append((file, try await client.fileSettings(file))) }
            var versions: [UInt8] = []
            for keyNumber: UInt8 in 0...4 { versions.append(try await client.keyVersion(keyNumber)) }
            var uid: [UInt8]?
            if let key {
                try await client.authenticate(keyNumber: number, key: key)
                uid = try await client.cardUID()
            }
            // Last: a chip that refuses Read_Sig ends the session with it.
            let signature = try await OriginalityVerdict.signature { try await client.originalitySignature() }
            let originality = OriginalityVerdict(signature: signature, uid: uid ?? version.uid)
            return Info(version: version, uid: uid, files: files, keyVersions: versions, originality: originality)
        }
        if json {
            Output.line(Self.json(info).serialized(pretty: true))
            return
        }
        let hardware = info.version.hardware
        Output.line(
            "NTAG 424 DNA: \(info.version.isNTAG424DNA ? "yes" : "no") (hardware \(Hex.encode([hardware.vendor, hardware.type, hardware.subtype])) "
                + "v\(hardware.major >> 4).\(hardware.major & 0x0F)\(hardware.minor), software v\(info.version.software.major).\(info.version.software.minor))"
        )
        Output.line(
            "UID: \(Hex.encode(info.uid ?? info.version.uid, uppercase: true))\(info.uid == nil ? " (from GetVersion)" : " (GetCardUID)")")
        for (file, settings) in info.files {
            var line =
                "file \(file): \(settings.size) bytes, \(settings.mode), read \(settings.read), write \(settings.write), "
                + "read-write \(settings.readWrite), change \(settings.change)"
            if let sdm = settings.sdm { line += "; SDM: " + Self.text(sdm) }
            Output.line(line)
        }
        Output.line(
            "key versions: " + info.keyVersions.enumerated().map { "\($0.offset)=\(Hex.encode([$0.element]))" }.joined(separator: " "))
        Output.line("originality: " + info.originality.text)
    }

    static func text(_ sdm: NTAG424SDMSettings) -> String {
        var parts: [String] = []
        if sdm.mirrorsUID { parts.append("UID") }
        if sdm.mirrorsCounter { parts.append("counter") }
        parts.append("meta read \(sdm.metaRead)")
        parts.append("file read \(sdm.fileRead)")
        parts.append("counter retrieval \(sdm.counterRetrieval)")
        if let offset = sdm.piccDataOffset { parts.append("PICC data at \(offset)") }
        if let offset = sdm.uidOffset { parts.append("UID at \(offset)") }
        if let offset = sdm.counterOffset, offset != 0xFF_FFFF { parts.append("counter at \(offset)") }
        if let offset = sdm.encryptedDataOffset { parts.append("encrypted data at \(offset) (\(sdm.encryptedDataLength ?? 0) characters)") }
        if let offset = sdm.macInputOffset { parts.append("MAC input from \(offset)") }
        if let offset = sdm.macOffset { parts.append("MAC at \(offset)") }
        if let limit = sdm.counterLimit { parts.append("counter limit \(limit)") }
        return parts.joined(separator: ", ")
    }

    static func json(_ info: Info) -> JSONValue {
        func part(_ part: NTAG424Version.Part) -> JSONValue {
            .string(Hex.encode([part.vendor, part.type, part.subtype, part.major, part.minor, part.storageSize, part.protocolType]))
        }
        func access(_ value: NTAG424Access) -> JSONValue {
            switch value {
            case .key(let number): .int(Int64(number))
            case .free: .string("free")
            case .never: .string("never")
            }
        }
        return .object([
            (
                "version",
                .object([
                    ("hardware", part(info.version.hardware)), ("software", part(info.version.software)),
                    ("ntag424DNA", .bool(info.version.isNTAG424DNA)),
                ])
            ),
            ("uid", .string(Hex.encode(info.uid ?? info.version.uid))),
            ("uidAuthenticated", .bool(info.uid != nil)),
            (
                "files",
                .array(
                    info.files.map { file, settings in
                        .object([
                            ("file", .int(Int64(file))), ("size", .int(Int64(settings.size))), ("mode", .string(settings.mode.rawValue)),
                            ("read", access(settings.read)), ("write", access(settings.write)), ("readWrite", access(settings.readWrite)),
                            ("change", access(settings.change)),
                            ("sdm", settings.sdm.map { .string(Hex.encode($0.bytes)) } ?? .null),
                        ])
                    })
            ),
            ("keyVersions", .array(info.keyVersions.map { .int(Int64($0)) })),
            ("originality", info.originality.json),
        ])
    }
}
