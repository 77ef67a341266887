import ArgumentParser
import ISO7816
import NFCPIV
import NFCSimulator
import NFCTransport

/// `nfc piv` — the PIV card application (NIST SP 800-73-4) of a security key.
struct PIVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "piv",
        abstract:
            "Use a PIV card application: status, ECDSA signatures, key generation with a self-signed certificate, PIN and PUK management, reset.",
        discussion: "Works on any reader (sim, sim:FILE, pcsc, pcsc:NAME). The JSON forms are in docs/piv.md.",
        subcommands: [
            PIVStatusCommand.self, PIVSignCommand.self, PIVGenerateCommand.self, PIVChangePINCommand.self, PIVChangePUKCommand.self,
            PIVUnblockPINCommand.self, PIVResetCommand.self,
        ]
    )
}

/// Runs `body` with a PIV client on the reader's tag, the PIV application selected; PIV errors
/// become one-line CLI errors.
enum PIVRunner {
    static func run<T>(_ options: ReaderOptions, access: TagImageAccess = .modify, json: Bool, _ body: (PIVClient) async throws -> T)
        async throws -> T
    {
        let (value, _) = try await TagSession.run(options, access: access, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError("the tag is not an ISO 7816 tag (\(connection.target.technology) storage tag): it has no PIV application")
            }
            let client = PIVClient(transmitter: ConnectionAPDUTransmitter(connection: connection))
            do {
                do {
                    try await client.select()
                } catch let error as PIVError where error.code == .status && error.statusWord == .fileNotFound {
                    throw CLIError(.notFound, "the card has no PIV application (SELECT A000000308 answered 6A82)")
                }
                return try await body(client)
            } catch let error as PIVError {
                throw CLIError(error.description)
            } catch let error as APDUError {
                throw CLIError("PIV: \(error)")
            } catch let error as TransportError {
                throw CLIError("PIV: \(error)")
            }
        }
        return value
    }

    static func slot(_ text: String) throws -> PIVSlot {
        guard let slot = PIVSlot(text: text) else { throw ValidationError("slot \(text) is not one of 9a, 9c, 9d, 9e") }
        return slot
    }
}
