import ArgumentParser
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc dump -o FILE` (a copy of a tag as a tag image) and `nfc restore FILE` (the copy written back).
enum TagCopyCommand {
    /// What a copy read: a Topaz's blocks, or a Type 2 tag's pages and the PACK its password got.
    enum TagCopy: Sendable {
        case type1(Type1Capture)
        case type2(Type2Capture, [UInt8]?)
    }

    /// Reads everything the tag gives up and saves it as a tag image at `path`.
    ///
    /// The exit status is 6 (incomplete) after saving when pages other than PWD and PACK could
    /// not be read (a read password); PWD and PACK never read back (NTAG213/215/216 §8.8.3), which
    /// is said, not failed.
    static func save(to path: String, force: Bool, reader: ReaderOptions, password: TagPasswordOptions, json: Bool) async throws {
        try Output.checkWritable(path, force: force)
        let pwd = try password.bytes()
        let expectedPACK = try password.expectedPACK()
        let (copy, stats) = try await TagSession.run(reader, access: .read, json: json) { connection, engine -> TagCopy in
            if let type1 = engine as? Type1Engine {
                guard pwd == nil else { throw CLIError(.usage, "a Topaz (Type 1) tag has no password (--password)") }
                return .type1(try await type1.capture(on: connection))
            }
            guard let type2 = engine as? Type2Engine else {
                throw CLIError(
                    .usage,
                    "dump -o copies NTAG21x, Ultralight EV1 and Topaz (Type 1) tags; this is a \(TagFamily(connection.target)) tag (nfc dump shows its memory)"
                )
            }
            let pack = try await TagPasswordOptions.authenticate(password: pwd, pack: expectedPACK, on: connection)
            return .type2(try await type2.capture(on: connection), pack)
        }
        let capture: Type2Capture
        let pack: [UInt8]?
        switch copy {
        case .type1(let type1): return try saveType1(type1, to: path, force: force, stats: reader.stats ? stats : nil, json: json)
        case .type2(let type2, let answered): (capture, pack) = (type2, answered)
        }
        let tag: Type2Tag
        do {
            tag = try TagCopies.virtualTag(from: capture, password: pwd, pack: pack)
        } catch {
            throw CLIError(imageError: error, path: path, doing: "cannot make a copy for")
        }
        try TagImageOutput.create(tag, at: path, replace: force)
        let missing = Self.unreadBeyondPassword(tag)
        // READ_SIG's answer checked against the UID: NXP's NTAG21x or Ultralight EV1 key, the
        // simulator's, or none (a clone's, or a key not listed).
        let originality = OriginalityVerdict(signature: capture.signature, uid: tag.uid)
        let kind = VirtualTagKind(of: tag)?.rawValue ?? tag.model.rawValue
        if json {
            var fields: [(String, JSONValue)] = [
                ("saved", .string(path)), ("type", .string(kind)), ("uid", .string(Hex.encode(tag.uid))),
                ("pages", .int(Int64(capture.pages.count))),
                (
                    "unreadPages",
                    .array(tag.unreadPages.map { .object([("first", .int(Int64($0.lowerBound))), ("last", .int(Int64($0.upperBound)))]) })
                ),
                ("signature", .bool(capture.signature != nil)), ("complete", .bool(missing.isEmpty)),
            ]
            if capture.signature != nil { fields.append(("originality", originality.json)) }
            if reader.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            Output.line(
                "saved \(kind) \(Hex.encode(tag.uid, uppercase: true)) to \(TerminalText.escape(path)): \(capture.pages.count) pages")
            if pwd == nil {
                Output.line("note: PWD and PACK cannot be read; the copy holds factory values (give --password to copy them)")
            }
            if capture.signature == nil {
                Output.line("note: the tag did not give its signature; the copy holds a stand-in")
            } else {
                Output.line("originality: \(originality.text)")
            }
        }
        if !missing.isEmpty && json { throw ExitCode(CLIError.Code.incomplete.exitStatus) }  // "complete": false says it
        if let first = missing.first {
            let pages = missing.map { "\(Self.hex($0.lowerBound))–\(Self.hex($0.upperBound))" }.joined(separator: ", ")
            throw CLIError(
                .incomplete,
                "incomplete copy: pages \(pages) could not be read (from \(Self.hex(first.lowerBound)): a read password? give --password); they hold factory values in \(path)"
            )
        }
    }

    /// Saves a Type 1 copy: every block, nothing the chip hides.
    static func saveType1(_ capture: Type1Capture, to path: String, force: Bool, stats: ExchangeStatistics?, json: Bool) throws {
        let tag: Type1Tag
        do {
            tag = try TagCopies.virtualTag(from: capture)
        } catch {
            throw CLIError(imageError: error, path: path, doing: "cannot make a copy for")
        }
        try TagImageOutput.create(tag, at: path, replace: force)
        let kind = VirtualTagKind(of: tag)?.rawValue ?? tag.model.rawValue
        guard json else {
            return Output.line(
                "saved \(kind) \(Hex.encode(tag.uid, uppercase: true)) to \(TerminalText.escape(path)): \(capture.memory.count / 8) blocks")
        }
        var fields: [(String, JSONValue)] = [
            ("saved", .string(path)), ("type", .string(kind)), ("uid", .string(Hex.encode(tag.uid))),
            ("blocks", .int(Int64(capture.memory.count / 8))), ("complete", .bool(true)),
        ]
        if let stats { fields.append(("stats", StatisticsText.json(stats))) }
        Output.line(JSONValue.object(fields).serialized(pretty: true))
    }

    /// The spans a copy could not read besides PWD and PACK (which never read back).
    static func unreadBeyondPassword(_ tag: Type2Tag) -> [ClosedRange<Int>] {
        let secretPages = Set([tag.model.passwordPage, tag.model.packPage])
        return tag.unreadPages.filter { !Set($0).isSubset(of: secretPages) }
    }

    static func hex(_ page: Int) -> String { Hex.encode([UInt8(truncatingIfNeeded: page)], uppercase: true) + "h" }
}

/// `nfc restore IMAGE [--config] [--locks] [--partial] [--yes] [--reader R] [--password P] [--json] [--stats]`
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Write a tag image (nfc dump -o) back onto an NTAG21x, Ultralight EV1 or Topaz of the same model.",
        discussion: """
            The user memory is written in a tearing-safe order (page 4 first reads as an empty \\
            NDEF TLV, and gets its own bytes last), pages already equal are skipped, and pages the \\
            copy could not read are left alone. The CC is one-time programmable: it is written \\
            only when that sets bits and clears none. --config also writes CFG0/CFG1 (mirror, \\
            AUTH0, ACCESS) and PWD/PACK when the image knows them; --locks sets the image's lock \\
            bits, which is permanent. A copy that could not read some user pages (made without the \
            password) is refused unless --partial. Pages a password protects need --password, \
            checked before anything is written. The UID and the signature are the chip's own and stay.

            A Topaz (Type 1) image gets its data blocks written (01h-0Ch, and 10h-3Fh on a Topaz \
            512) in the same tearing-safe order: NMN cleared first and set last, so a restore cut \
            short reads as "write in progress"; lock and OTP blocks are never written.
            """
    )

    @Argument(help: "The tag image to write (from nfc dump -o or nfc tag new).")
    var image: String
    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Also write the configuration pages (mirror, AUTH0, ACCESS) and the password the image holds.")
    var config = false
    @Flag(name: .long, help: "Also set the image's lock bits (permanent).")
    var locks = false
    @Flag(name: .long, help: "Write a copy that could not read some user pages, leaving those pages as they are.")
    var partial = false
    @Flag(name: .long, help: "Confirm --locks (or a configuration lock in --config) without being asked.")
    var yes = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if yes && !locks && !config { throw ValidationError("--yes confirms --locks or --config: give one of them too") }
    }

    func run() async throws {
        let loaded: any VirtualTag
        do {
            loaded = try TagImageFile.load(image)
        } catch {
            throw CLIError(imageError: error, path: image)
        }
        if let type1 = loaded as? Type1Tag { return try await restoreType1(type1) }
        guard let type2 = loaded as? Type2Tag, let capture = TagCopies.capture(of: type2) else {
            let kind = VirtualTagKind(of: loaded)?.rawValue ?? "\(type(of: loaded))"
            throw CLIError(
                .usage,
                "restore writes NTAG21x, Ultralight EV1 and Topaz images; \(image) is a \(kind) (nfc write --message copies an NDEF message)"
            )
        }
        if locks { try Confirmation.require(yes, "Set the image's lock bits on the tag? Locked pages can never be written again.") }
        // CFGLCK (ACCESS bit 6, NTAG213/215/216 §8.8.5) makes the configuration permanent.
        if config, capture.pages[type2.model.configurationPage1].map({ $0[0] & 0x40 != 0 }) == true {
            try Confirmation.require(yes, "The image locks the configuration (CFGLCK): write it? CFG0 and CFG1 can never change again.")
        }
        var parts: Type2RestoreParts = []
        if config { parts.insert(.configuration) }
        if locks { parts.insert(.locks) }
        if partial { parts.insert(.partial) }
        let authenticated = password.given
        let (written, stats) = try await TagSession.run(readerOptions, access: .modify, json: json, password: password) {
            connection, engine in
            guard let engine = engine as? Type2Engine else {
                throw CLIError(.usage, "the image is an \(type2.model); the tag is a \(TagFamily(connection.target)) tag")
            }
            return try await engine.restore(capture, parts: parts, authenticated: authenticated, on: connection)
        }
        guard json else {
            let unread = TagCopyCommand.unreadBeyondPassword(type2)
            let skipped = unread.isEmpty ? "" : "; \(unread.map(\.count).reduce(0, +)) pages the copy could not read were left alone"
            return Output.line("restored \(type2.model): \(written) pages written\(skipped)")
        }
        Output.line(
            DoneJSON.object(
                [("restored", .bool(true)), ("model", .string(type2.model.rawValue)), ("pagesWritten", .int(Int64(written)))],
                stats: readerOptions.stats ? stats : nil))
    }

    /// A Topaz image onto a Topaz: the data blocks, tearing-safe (``Type1Engine/restore(_:on:)``).
    private func restoreType1(_ type1: Type1Tag) async throws {
        guard !config, !locks, !partial, !password.given else {
            throw CLIError(
                .usage,
                "a Topaz image restores its data blocks only: --config, --locks, --partial and --password are for NTAG21x and Ultralight EV1"
            )
        }
        let capture = TagCopies.capture(of: type1)
        let (written, stats) = try await TagSession.run(readerOptions, access: .modify, json: json) { connection, engine in
            guard let engine = engine as? Type1Engine else {
                throw CLIError(.usage, "the image is a \(type1.model); the tag is a \(TagFamily(connection.target)) tag")
            }
            return try await engine.restore(capture, on: connection)
        }
        guard json else { return Output.line("restored \(type1.model): \(written) blocks written") }
        Output.line(
            DoneJSON.object(
                [("restored", .bool(true)), ("model", .string(type1.model.rawValue)), ("blocksWritten", .int(Int64(written)))],
                stats: readerOptions.stats ? stats : nil))
    }
}
