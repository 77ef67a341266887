import ArgumentParser
import NFCJSON
import NFCPIV

/// `nfc piv change-pin|change-puk|unblock-pin|reset`: the holder's secrets (SP 800-73-4 Part 2
/// §3.2.2 CHANGE REFERENCE DATA, §3.2.3 RESET RETRY COUNTER) and Yubico's RESET extension.
/// Secrets come from the option, `-` (a line of standard input each), or a prompt without echo.
enum PIVSecrets {
    static func done(_ json: Bool, _ fields: [(String, JSONValue)], text: String) {
        if json {
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            Output.line(text)
        }
    }
}

/// `nfc piv change-pin [--pin OLD] [--new NEW]`
struct PIVChangePINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-pin", abstract: "Change the PIV PIN (6–8 characters); a wrong one says how many tries are left.")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The current PIN (- for a line of standard input; asked for on a terminal when left out).")
    var pin: String?
    @Option(name: .customLong("new"), help: "The new PIN (- for a line of standard input; asked for on a terminal when left out).")
    var newPIN: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let old = try SecretInput.read(pin, option: "--pin", prompt: "Current PIN")
        let new = try SecretInput.read(newPIN, option: "--new", prompt: "New PIN")
        try await PIVRunner.run(readerOptions, json: json) { client in try await client.changeReferenceData(.pin, old: old, new: new) }
        PIVSecrets.done(json, [("changed", .string("PIN"))], text: "PIN changed")
    }
}

/// `nfc piv change-puk [--puk OLD] [--new NEW]`
struct PIVChangePUKCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-puk", abstract: "Change the PIV PUK (1–8 characters); a wrong one says how many tries are left.")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The current PUK (- for a line of standard input; asked for on a terminal when left out).")
    var puk: String?
    @Option(name: .customLong("new"), help: "The new PUK (- for a line of standard input; asked for on a terminal when left out).")
    var newPUK: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let old = try SecretInput.read(puk, option: "--puk", prompt: "Current PUK")
        let new = try SecretInput.read(newPUK, option: "--new", prompt: "New PUK")
        try await PIVRunner.run(readerOptions, json: json) { client in try await client.changeReferenceData(.puk, old: old, new: new) }
        PIVSecrets.done(json, [("changed", .string("PUK"))], text: "PUK changed")
    }
}

/// `nfc piv unblock-pin [--puk PUK] [--new NEW]`
struct PIVUnblockPINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unblock-pin", abstract: "Unblock the PIV PIN with the PUK and set a new PIN (RESET RETRY COUNTER).")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The PUK (- for a line of standard input; asked for on a terminal when left out).")
    var puk: String?
    @Option(name: .customLong("new"), help: "The new PIN (- for a line of standard input; asked for on a terminal when left out).")
    var newPIN: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let unblocking = try SecretInput.read(puk, option: "--puk", prompt: "PUK")
        let new = try SecretInput.read(newPIN, option: "--new", prompt: "New PIN")
        try await PIVRunner.run(readerOptions, json: json) { client in try await client.unblockPIN(puk: unblocking, newPIN: new) }
        PIVSecrets.done(json, [("unblocked", .string("PIN"))], text: "PIN unblocked and set")
    }
}

/// `nfc piv reset --yes`
struct PIVResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract:
            "Reset the PIV application: every key and certificate is destroyed; PIN, PUK and management key go back to their defaults.",
        discussion: """
            Blocks the PIN and the PUK first (wrong tries until none is left), as Yubico's RESET \
            extension requires, then resets. Asks for confirmation on a terminal; --yes confirms \
            beforehand (needed when standard input is not a terminal).
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Confirm: destroy the PIV keys and certificates without asking.")
    var yes = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        try Confirmation.require(yes, "Reset the PIV application, destroying every key and certificate on the card?")
        try await PIVRunner.run(readerOptions, json: json) { client in
            try await client.blockPINAndPUK()
            try await client.reset()
        }
        PIVSecrets.done(
            json, [("reset", .bool(true))],
            text: "PIV application reset: PIN 123456, PUK 12345678, the default management key; no keys, no certificates")
    }
}
