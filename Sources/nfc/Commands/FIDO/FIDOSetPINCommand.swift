import ArgumentParser
import NDEFJSON
import NFCFIDO

/// `nfc fido set-pin [--new PIN] [--pin OLD]`
struct FIDOSetPINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-pin",
        abstract: "Set the security key's PIN (clientPIN setPIN), or change it with --pin OLD (changePIN)."
    )

    @OptionGroup var options: FIDOOptions
    @Option(
        name: .customLong("new"), help: "The new PIN: 4–63 bytes (- for a line of standard input; asked for on a terminal when left out).")
    var newPIN: String?
    @Option(name: .long, help: "The current PIN, to change it (- for a line of standard input).")
    var pin: String?

    func validate() throws {
        if options.u2f { throw ValidationError("U2F has no PIN; leave out --u2f") }
    }

    func run() async throws {
        let oldPIN = try SecretInput.readIfGiven(pin, option: "--pin", prompt: "Current PIN")
        let newPIN = try SecretInput.read(self.newPIN, option: "--new", prompt: "New PIN")
        let retries = try await FIDOCLI.run(options) { client, _ -> Int in
            if let oldPIN {
                try await client.changePIN(from: oldPIN, to: newPIN)
            } else {
                try await client.setPIN(newPIN)
            }
            return try await client.getPINRetries()
        }
        if options.json {
            FIDOCLI.printJSON([("pinSet", .bool(true)), ("changed", .bool(oldPIN != nil)), ("pinRetries", .int(Int64(retries)))])
        } else {
            FIDOCLI.printText([(oldPIN == nil ? "PIN set" : "PIN changed", "PIN retries \(retries)")])
        }
    }
}
