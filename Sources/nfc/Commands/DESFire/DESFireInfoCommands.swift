import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc desfire info [--reader R] [--key HEX|-] [--json]`
struct DESFireInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the card's generation, storage, UID, free memory, PICC key settings and applications.",
        discussion: """
            With --key (the PICC master key) also the real UID (GetCardUID) and the applications of a card that hides \
            them. An EV2 or later is asked for its originality signature (Read_Sig), checked against NXP's published \
            keys and the simulator's test key.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input).")
    var key: String?
    @Flag(
        name: .long,
        help:
            "Print JSON: {\"generation\", \"hardware\", \"software\", \"uid\", \"freeMemory\", \"keySettings\", \"applications\", \"originality\"}."
    )
    var json = false

    struct Info {
        var version: DESFireVersion
        var uid: [UInt8]?
        var free: Int
        var settings: DESFireKeySettings?
        var applications: [DESFireAID]?
        /// EV2 and later: Read_Sig's answer checked against the UID.
        var originality: OriginalityVerdict?
    }

    func run() async throws {
        let info = try await DESFireRunner.run(readerOptions, aid: .picc, credentials: try DESFireRunner.piccKey(key), json: json) {
            client in
            let version = try await client.version()
            let authenticated = await client.channel != nil
            let uid = authenticated ? try await client.cardUID() : nil
            let free = try await client.freeMemory()
            let settings = try? await client.keySettings()
            let hidden = !authenticated && (settings.map { !$0.freeListing } ?? true)
            let applications = hidden ? nil : try await client.applicationIDs()
            // Last: a refused Read_Sig ends the session. An EV1 has no signature.
            let known = uid ?? (version.uid.allSatisfy { $0 == 0 } ? nil : version.uid)
            var originality: OriginalityVerdict?
            if version.software.major >= 2 {
                let signature = try await OriginalityVerdict.signature { try await client.originalitySignature() }
                originality = OriginalityVerdict(signature: signature, uid: known)
            }
            return Info(version: version, uid: uid, free: free, settings: settings, applications: applications, originality: originality)
        }
        if json {
            Output.line(Self.json(info).serialized(pretty: true))
            return
        }
        func version(_ part: DESFireVersion.Part) -> String {
            Hex.encode([part.major], uppercase: true) + "." + Hex.encode([part.minor], uppercase: true)
        }
        Output.line(
            "\(info.version.desfireGeneration ?? "not a DESFire") (hardware \(version(info.version.hardware)), software "
                + "\(version(info.version.software)), \(info.version.storageBytes) bytes of storage)")
        if info.uid == nil, info.version.uid.allSatisfy({ $0 == 0 }) {
            Output.line("UID: hidden (GetVersion gives zeros: the random ID is on; --key reads it with GetCardUID)")
        } else {
            Output.line(
                "UID: \(Hex.encode(info.uid ?? info.version.uid, uppercase: true))\(info.uid == nil ? " (from GetVersion)" : " (GetCardUID)")"
            )
        }
        Output.line("free memory: \(info.free) bytes")
        if let settings = info.settings {
            Output.line("PICC key settings: \(Hex.encode([settings.rawValue], uppercase: true)) (\(Self.describe(settings)))")
        }
        if let applications = info.applications {
            Output.line("applications: " + (applications.isEmpty ? "none" : applications.map(\.description).joined(separator: " ")))
        } else {
            Output.line("applications: hidden (the PICC master key lists them: --key)")
        }
        if let originality = info.originality { Output.line("originality: " + originality.text) }
    }

    /// The settings bits in words.
    static func describe(_ settings: DESFireKeySettings) -> String {
        [
            settings.masterKeyChangeable ? "master key changeable" : "master key frozen",
            settings.freeListing ? "free listing" : "listing needs the master key",
            settings.freeCreateDelete ? "free create/delete" : "create/delete needs the master key",
            settings.settingsChangeable ? "settings changeable" : "settings frozen",
        ].joined(separator: ", ")
    }

    static func json(_ info: Info) -> JSONValue {
        func part(_ part: DESFireVersion.Part) -> JSONValue {
            .string(Hex.encode([part.vendor, part.type, part.subtype, part.major, part.minor, part.storageSize, part.protocolType]))
        }
        return .object([
            ("generation", info.version.desfireGeneration.map(JSONValue.string) ?? .null),
            ("hardware", part(info.version.hardware)), ("software", part(info.version.software)),
            ("storage", .int(Int64(info.version.storageBytes))),
            ("uid", .string(Hex.encode(info.uid ?? info.version.uid))), ("uidAuthenticated", .bool(info.uid != nil)),
            ("freeMemory", .int(Int64(info.free))),
            ("keySettings", info.settings.map { .string(Hex.encode([$0.rawValue])) } ?? .null),
            ("applications", info.applications.map { .array($0.map { .string($0.description) }) } ?? .null),
            ("originality", info.originality?.json ?? .null),
        ])
    }
}

/// `nfc desfire apps [--reader R] [--key HEX|-] [--json]`
struct DESFireAppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the applications: AID, key settings, number and type of keys, file numbers.",
        discussion: "--key is the PICC master key, for a card that hides its applications; an application that hides its files shows none.")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input).")
    var key: String?
    @Flag(name: .long, help: "Print JSON: [{\"aid\", \"keySettings\", \"keys\", \"keyType\", \"files\"}].")
    var json = false

    struct App {
        var aid: DESFireAID
        var settings: DESFireKeySettings?
        var files: [UInt8]?
    }

    func run() async throws {
        let apps = try await DESFireRunner.run(readerOptions, aid: .picc, credentials: try DESFireRunner.piccKey(key), json: json) {
            client in
            var apps: [App] = []
            for aid in try await client.applicationIDs() {
                try await client.selectApplication(aid)
                let settings = try? await client.keySettings()
                let files = settings.map(\.freeListing) == true ? try await client.fileIDs() : nil
                apps.append(App(aid: aid, settings: settings, files: files))
            }
            return apps
        }
        if json {
            Output.line(
                JSONValue.array(
                    apps.map { app in
                        .object([
                            ("aid", .string(app.aid.description)),
                            ("keySettings", app.settings.map { .string(Hex.encode([$0.rawValue])) } ?? .null),
                            ("keys", app.settings.map { .int(Int64($0.keyCount)) } ?? .null),
                            ("keyType", app.settings.map { .string($0.keyTypeName) } ?? .null),
                            ("files", app.files.map { .array($0.map { .int(Int64($0)) }) } ?? .null),
                        ])
                    }
                ).serialized(pretty: true))
            return
        }
        if apps.isEmpty { Output.line("no applications") }
        for app in apps {
            var line = "\(app.aid):"
            if let settings = app.settings {
                line +=
                    " \(settings.keyCount) \(settings.keyTypeName) key\(settings.keyCount == 1 ? "" : "s"), settings \(Hex.encode([settings.rawValue], uppercase: true))"
            } else {
                line += " settings hidden"
            }
            line += app.files.map { "; files " + ($0.isEmpty ? "none" : $0.map(String.init).joined(separator: " ")) } ?? "; files hidden"
            Output.line(line)
        }
    }
}

/// `nfc desfire files --aid AID [--key HEX|- [--key-number K]] [--json]`
struct DESFireFilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "List an application's files with their kind, size, communication mode and access rights.")

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Flag(name: .long, help: "Print JSON: [{\"file\", \"type\", \"mode\", \"read\", \"write\", \"readWrite\", \"change\", …}].")
    var json = false

    func run() async throws {
        _ = try target.requiredApplication("files")
        let files = try await DESFireRunner.run(readerOptions, target, json: json) { client in
            var files: [(UInt8, DESFireFileSettings)] = []
            for file in try await client.fileIDs() { files.append((file, try await client.fileSettings(file))) }
            return files
        }
        if json {
            Output.line(JSONValue.array(files.map { Self.json($0.0, $0.1) }).serialized(pretty: true))
            return
        }
        if files.isEmpty { Output.line("no files") }
        for (file, settings) in files {
            Output.line(
                "file \(file): \(Self.describe(settings.kind)), \(settings.mode), read \(settings.read), write \(settings.write), "
                    + "read-write \(settings.readWrite), change \(settings.change)")
        }
    }

    static func describe(_ kind: DESFireFileSettings.Kind) -> String {
        switch kind {
        case .standard(let size): "standard, \(size) bytes"
        case .backup(let size): "backup, \(size) bytes"
        case .value(let lower, let upper, let limited, let enabled):
            "value, \(lower)...\(upper), limited credit \(enabled ? "on (\(limited) available)" : "off")"
        case .linearRecord(let size, let maximum, let count): "linear records, \(count) of \(maximum) of \(size) bytes"
        case .cyclicRecord(let size, let maximum, let count): "cyclic records, \(count) of \(maximum - 1) of \(size) bytes"
        }
    }

    static func json(_ file: UInt8, _ settings: DESFireFileSettings) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("file", .int(Int64(file))), ("type", .string(settings.kind.name)), ("mode", .string(settings.mode.rawValue)),
            ("read", DESFireRunner.json(settings.read)), ("write", DESFireRunner.json(settings.write)),
            ("readWrite", DESFireRunner.json(settings.readWrite)), ("change", DESFireRunner.json(settings.change)),
        ]
        switch settings.kind {
        case .standard(let size), .backup(let size): fields.append(("size", .int(Int64(size))))
        case .value(let lower, let upper, let limited, let enabled):
            fields += [
                ("lower", .int(Int64(lower))), ("upper", .int(Int64(upper))), ("limitedCredit", .bool(enabled)),
                ("limitedCreditValue", .int(Int64(limited))),
            ]
        case .linearRecord(let size, let maximum, let count), .cyclicRecord(let size, let maximum, let count):
            fields += [("recordSize", .int(Int64(size))), ("maximumRecords", .int(Int64(maximum))), ("records", .int(Int64(count)))]
        }
        return .object(fields)
    }
}
