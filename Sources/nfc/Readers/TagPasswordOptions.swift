import ArgumentParser
import Foundation
import NFCBytes
import NFCTags
import NFCTransport

/// `--password HEX` / `--password-file FILE` and `--pack HEX` on the commands that read or change a
/// tag: NTAG21x and MIFARE Ultralight EV1 protect pages with a 32-bit password (PWD_AUTH, NXP
/// NTAG213/215/216 data sheet §10.7 and §8.8), answered with a 16-bit PACK the reader may check.
struct TagPasswordOptions: ParsableArguments {
    @Option(name: .long, help: "NTAG21x/Ultralight EV1: the tag's password, 4 bytes in hex (PWD_AUTH before the command).")
    var password: String?
    @Option(
        name: .customLong("password-file"),
        help: "The tag's password from this file (- for standard input), so it stays out of the command line.")
    var passwordFile: String?
    @Option(
        name: .long,
        help:
            "The tag's PACK, its 2-byte answer to the password, in hex: checked when reading (default: not checked), set by nfc protect (default 0000)."
    )
    var pack: String?

    func validate() throws {
        if password != nil && passwordFile != nil { throw ValidationError("give --password or --password-file, not both") }
        if pack != nil && password == nil && passwordFile == nil {
            throw ValidationError("--pack checks the answer to a password: give --password too")
        }
    }

    /// Whether a password was given (the command then authenticates first).
    var given: Bool { password != nil || passwordFile != nil }

    /// The password (4 bytes), or nil when none was given.
    func bytes() throws -> [UInt8]? {
        let text: String
        if let password {
            text = password
        } else if let passwordFile {
            let content = passwordFile == "-" ? Input.readStandardInput() : try Input.readFile(passwordFile, limit: 4096)
            text = String(decoding: content, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            return nil
        }
        return try Self.fixed(text, bytes: 4, what: passwordFile == nil ? "--password" : "the password in \(passwordFile ?? "")")
    }

    /// The expected PACK (2 bytes), or nil for any.
    func expectedPACK() throws -> [UInt8]? {
        try pack.map { try Self.fixed($0, bytes: 2, what: "--pack") }
    }

    /// `text` as exactly `bytes` bytes of hex.
    static func fixed(_ text: String, bytes count: Int, what: String) throws -> [UInt8] {
        let bytes = try Input.hex(text, what: what)
        guard bytes.count == count else {
            throw CLIError(.usage, "\(what) must be \(count) bytes (\(count * 2) hex digits), not \(bytes.count)")
        }
        return bytes
    }

    /// Authenticates on `connection` when a password was given: the tag must be an NTAG21x or
    /// Ultralight EV1 (a Type 2 tag), and answer PWD_AUTH with a PACK (the expected one, if given).
    func authenticate(on connection: any TagConnection) async throws {
        try await Self.authenticate(password: try bytes(), pack: try expectedPACK(), on: connection)
    }

    /// ``authenticate(on:)`` with the password and PACK already read (nil password: nothing to do).
    /// - Returns: the PACK the tag answered, `nil` when no password was given.
    @discardableResult
    static func authenticate(password: [UInt8]?, pack: [UInt8]?, on connection: any TagConnection) async throws -> [UInt8]? {
        guard let password else { return nil }
        guard TagFamily(connection.target) == .type2 else {
            throw CLIError(
                .usage, "--password is for NTAG21x and Ultralight EV1 tags (PWD_AUTH); this is a \(TagFamily(connection.target)) tag")
        }
        do {
            return try await Type2Engine().authenticate(password: password, expectedPACK: pack, on: connection)
        } catch {
            if error.code == .authenticationFailed {
                throw CLIError(.permission, "the tag refused the password: \(EngineErrorText.line(error))")
            }
            throw CLIError(EngineErrorText.line(error))
        }
    }
}
