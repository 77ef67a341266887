import ArgumentParser
import NFCBytes
import NFCJSON
import NFCTags
import NFCTransport

/// `nfc protect --password HEX|--password-file F [--pack HEX] [--from-page N] [--read] [--reader R] [--json]`
struct ProtectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protect",
        abstract: "Protect an NTAG21x or Ultralight EV1 with a password (writes, or reads too with --read).",
        discussion: """
            Writes the password (PWD) and its acknowledge (PACK) into the tag's configuration pages, \
            then PROT (--read: reads need the password too) and AUTH0 last, the first protected page \
            (NXP NTAG213/215/216 data sheet §8.8). Without --from-page, every page from 4 on is \
            protected: the capability container stays readable, so phones still see an NDEF tag. \
            A tag already protected must be unprotected first (nfc unprotect). Keep the password: \
            without it the protected pages cannot be changed again.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var secret: TagPasswordOptions
    @Option(name: .customLong("from-page"), help: "The first protected page (AUTH0); default 4, the first user page.")
    var fromPage: Int = 4
    @Flag(name: .long, help: "Protect reads too, not only writes (PROT).")
    var read = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if secret.password == nil && secret.passwordFile == nil {
            throw ValidationError("give the password to set: --password HEX or --password-file FILE")
        }
        if !(0...255).contains(fromPage) { throw ValidationError("--from-page is a page number, 0–255 (255: nothing protected)") }
    }

    func run() async throws {
        guard let password = try secret.bytes() else { return }
        let pack = try secret.expectedPACK() ?? [0x00, 0x00]
        let (fromPage, read) = (fromPage, read)
        let (_, stats) = try await TagSession.run(readerOptions, access: .modify, json: json) { connection, _ in
            guard TagFamily(connection.target) == .type2 else {
                throw CLIError(.usage, "nfc protect is for NTAG21x and Ultralight EV1 tags; this is a \(TagFamily(connection.target)) tag")
            }
            try await Type2Engine().setPassword(password, pack: pack, protectFrom: fromPage, protectReads: read, on: connection)
        }
        let what = read ? "reads and writes" : "writes"
        guard json else {
            return Output.line(
                "protected: \(what) from page \(fromPage) need the password; the tag answers it with PACK \(Hex.encode(pack))")
        }
        Output.line(
            DoneJSON.object(
                [
                    ("protected", .bool(true)), ("fromPage", .int(Int64(fromPage))), ("reads", .bool(read)),
                    ("pack", .string(Hex.encode(pack))),
                ],
                stats: readerOptions.stats ? stats : nil))
    }
}

/// `nfc unprotect --password HEX|--password-file F [--reader R] [--json]`
struct UnprotectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unprotect",
        abstract: "Remove an NTAG21x or Ultralight EV1's password protection (AUTH0 to FFh).",
        discussion: "Authenticates with the current password, then sets AUTH0 past the last page: nothing is protected."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var secret: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if secret.password == nil && secret.passwordFile == nil {
            throw ValidationError("give the current password: --password HEX or --password-file FILE")
        }
    }

    func run() async throws {
        guard let password = try secret.bytes() else { return }
        let expectedPACK = try secret.expectedPACK()
        let (_, stats) = try await TagSession.run(readerOptions, access: .modify, json: json) { connection, _ in
            guard TagFamily(connection.target) == .type2 else {
                throw CLIError(
                    .usage, "nfc unprotect is for NTAG21x and Ultralight EV1 tags; this is a \(TagFamily(connection.target)) tag")
            }
            // --pack: the tag must answer the password with this PACK before its protection goes.
            if expectedPACK != nil { try await TagPasswordOptions.authenticate(password: password, pack: expectedPACK, on: connection) }
            do throws(TagEngineError) {
                try await Type2Engine().removePassword(currentPassword: password, on: connection)
            } catch {
                if error.code == .authenticationFailed {
                    throw CLIError(.permission, "the tag refused the password: \(EngineErrorText.line(error))")
                }
                throw error
            }
        }
        guard json else { return Output.line("unprotected: no page needs a password") }
        Output.line(DoneJSON.object([("protected", .bool(false))], stats: readerOptions.stats ? stats : nil))
    }
}
