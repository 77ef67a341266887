import ArgumentParser
import NFCFIDO
import NFCJSON

/// `nfc fido reset --yes`
struct FIDOResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset the FIDO2 application (authenticatorReset): every credential and the PIN are gone.",
        discussion: """
            CTAP 2.1 §6.6: keys accept it only within seconds of being powered (present the key, \
            then run this) and may ask for a touch. Asks for confirmation on a terminal; --yes \
            confirms beforehand (needed when standard input is not a terminal).
            """
    )

    @OptionGroup var options: FIDOOptions
    @Flag(name: .long, help: "Confirm: destroy every FIDO credential and the PIN without asking.")
    var yes = false

    func validate() throws {
        if options.u2f { throw ValidationError("reset is a CTAP2 command; leave out --u2f") }
    }

    func run() async throws {
        try Confirmation.require(yes, "Reset the FIDO application, destroying every credential and the PIN?")
        try await FIDOCLI.run(options) { client, _ in try await client.reset() }
        if options.json {
            FIDOCLI.printJSON([("reset", .bool(true))])
        } else {
            Output.line("FIDO application reset: no credentials, no PIN")
        }
    }
}
