import ArgumentParser
import ISO7816
import NFCBytes
import NFCDESFire
import NFCJSON
import NFCTransport

/// `nfc mifare-plus` — NXP MIFARE Plus EV1/EV2 at SL0 and SL3: identity, personalization, blocks
/// and values with AES authentication and secure messaging.
struct MIFAREPlusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mifare-plus",
        abstract: "Use a MIFARE Plus: identity, SL0 personalization, SL3 blocks and values with AES keys.",
        discussion: """
            Works on any reader (sim, sim:FILE, pcsc, pcsc:NAME, pn532:PATH) with a card at SL0 or SL3 (SL1 is \
            MIFARE Classic's Crypto1, which is not supported). Keys are AES-128, 16 bytes as hex: give - to read \
            one from standard input, or leave --key out on a terminal to be asked. A block is reached through its \
            sector's key A (key block 4000 + 2 x sector) or, with --key-b, key B; --key-block names any key block \
            (9000 the card master key). Data travels enciphered and MACed unless --plain. A new card: nfc tag new \
            mifare-plus (SL3, every key FF...FF) or --blank (SL0). See docs/mifare-plus.md.
            """,
        subcommands: [
            MIFAREPlusInfoCommand.self, MIFAREPlusReadCommand.self, MIFAREPlusWriteCommand.self, MIFAREPlusValueCommand.self,
            MIFAREPlusPersoCommand.self, MIFAREPlusCommitCommand.self,
        ]
    )
}

/// The key a block command authenticates with.
struct MIFAREPlusKeyOptions: ParsableArguments {
    @Option(name: .long, help: "The AES key, 16 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?
    @Flag(name: .customLong("key-b"), help: "Authenticate with the sector's key B instead of key A.")
    var keyB = false
    @Option(name: .customLong("key-block"), help: "The key block to authenticate with, four hex digits (4000, 9000).")
    var keyBlock: String?
    @Option(name: .long, help: "Secure messaging: ev1 (default) or ev0 (MIFARE Plus S/X).")
    var messaging: String = "ev1"

    /// The key block for `block`'s sector unless named, and the key.
    func credentials(block: Int) throws -> (UInt16, [UInt8], MIFAREPlusSecureSession.Messaging) {
        guard let messaging = MIFAREPlusSecureSession.Messaging(rawValue: messaging) else {
            throw CLIError(.usage, "--messaging is ev1 or ev0, not \(self.messaging)")
        }
        let number: UInt16
        if let keyBlock {
            guard !keyB else { throw CLIError(.usage, "--key-b and --key-block name the key twice: give one") }
            number = try MIFAREPlusRunner.address(keyBlock, option: "--key-block")
        } else {
            number = MIFAREPlusClient.sectorKey(MIFAREPlusRunner.sector(of: block), keyB: keyB)
        }
        let text = try SecretInput.read(key, option: "--key", prompt: "MIFARE Plus key (hex)")
        return (number, try NTAG424Runner.key(text, option: "--key"), messaging)
    }
}

/// Runs `body` with a client on the reader's card; refusals become one-line CLI errors.
enum MIFAREPlusRunner {
    static func run<T>(_ options: ReaderOptions, json: Bool, _ body: (MIFAREPlusClient) async throws -> T) async throws -> T {
        let (value, _) = try await TagSession.run(options, access: .modify, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError(
                    .notFound,
                    "the tag is not an ISO-DEP card (\(connection.target.technology)): not a MIFARE Plus at SL0 or SL3 (SL1 needs Crypto1)")
            }
            let client = MIFAREPlusClient(transmitter: ConnectionAPDUTransmitter(connection: connection))
            do {
                return try await body(client)
            } catch let error as MIFAREPlusError {
                throw CLIError(exitCode(error), "MIFARE Plus: \(error.reason)\(hint(error))")
            } catch let error as APDUError {
                throw CLIError("MIFARE Plus: \(error)")
            } catch let error as TransportError {
                throw CLIError("MIFARE Plus: \(error)")
            }
        }
        return value
    }

    static func exitCode(_ error: MIFAREPlusError) -> CLIError.Code {
        switch error.code {
        case .authenticationError, .authenticationFailed, .notAuthenticated: .permission
        case .invalidBlock, .extensionError: .notFound
        case .malformedResponse, .responseIntegrity: .badInput
        case .invalidArgument, .wrongKey: .usage
        default: .failure
        }
    }

    static func hint(_ error: MIFAREPlusError) -> String {
        switch error.code {
        case .authenticationError: "; the key is wrong or the sector's access conditions do not let it (try --key-b)"
        case .commandInvalid where error.reason.hasPrefix("CommitPerso"):
            "; at SL0 write the card master key (9000), card configuration key (9001) and level 3 switch key (9003) with perso first; nfc mifare-plus info shows the card's level"
        case .commandInvalid: "; nfc mifare-plus info shows the card's security level"
        default: ""
        }
    }

    /// A 16-bit address from four hex digits.
    static func address(_ text: String, option: String) throws -> UInt16 {
        let bytes = try Input.hex(text, what: option)
        guard bytes.count == 2 else { throw CLIError(.usage, "\(option) takes four hex digits (4000), not \(text)") }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}

/// `nfc mifare-plus info [--json]`
struct MIFAREPlusInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show the card's generation, storage, UID and security level.",
        discussion: "The level comes from the card's answer to a WritePerso probe of an address no card has: 09 at SL0, 0B at SL3.")

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Print JSON: {\"generation\", \"storage\", \"uid\", \"securityLevel\"}.")
    var json = false

    func run() async throws {
        let (version, level) = try await MIFAREPlusRunner.run(readerOptions, json: json) { client in
            let version = try await client.version()
            guard version.isMIFAREPlus else {
                throw CLIError(
                    .notFound, "GetVersion names type \(Hex.encode([version.hardware[1]], uppercase: true)), not MIFARE Plus (02)")
            }
            return (version, try await client.securityLevel())
        }
        if json {
            Output.line(
                JSONValue.object([
                    ("generation", .string(version.generation)), ("storage", .int(Int64(version.storageBytes))),
                    ("uid", .string(Hex.encode(version.uid, uppercase: true))), ("securityLevel", .int(Int64(level))),
                ]).serialized(pretty: true))
            return
        }
        Output.line("\(version.generation), \(version.storageBytes) bytes")
        Output.line("UID: \(Hex.encode(version.uid, uppercase: true))")
        Output.line("security level: SL\(level)\(level == 0 ? " (personalize with nfc mifare-plus perso, then commit)" : "")")
    }
}

/// `nfc mifare-plus read --block N [--count C] --key K [--key-b|--key-block B] [--plain] [--json]`
struct MIFAREPlusReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Read blocks of one sector (SL3).")

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keyOptions: MIFAREPlusKeyOptions
    @Option(name: .long, help: "The first block.")
    var block: Int
    @Option(name: .long, help: "How many blocks, 1-15 (default 1).")
    var count: Int = 1
    @Flag(name: .long, help: "Read in plain (still MACed) instead of enciphered.")
    var plain = false
    @Flag(name: .long, help: "Print JSON: {\"block\", \"data\"}.")
    var json = false

    func run() async throws {
        guard (0...255).contains(block), (1...15).contains(count) else { throw CLIError(.usage, "--block is 0-255 and --count 1-15") }
        try MIFAREPlusRunner.checkOneSector(from: block, count: count)
        let (keyBlock, key, messaging) = try keyOptions.credentials(block: block)
        let data = try await MIFAREPlusRunner.run(readerOptions, json: json) { client in
            try await client.authenticate(keyBlock: keyBlock, key: key, messaging: messaging)
            return try await client.read(block: block, count: count, encrypted: !plain)
        }
        if json {
            Output.line(
                JSONValue.object([("block", .int(Int64(block))), ("data", .string(Hex.encode(data, uppercase: true)))]).serialized(
                    pretty: true))
            return
        }
        for index in 0..<count {
            Output.line("\(block + index): \(Hex.encode(Array(data[16 * index..<16 * index + 16]), uppercase: true))")
        }
    }
}

/// `nfc mifare-plus write --block N --hex DATA --key K [--key-b|--key-block B] [--plain]`
struct MIFAREPlusWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write", abstract: "Write whole blocks of one sector, or one AES key block (SL3).",
        discussion: "--block takes a data block number or, with --key-address, a key or configuration block (4000-404F, 9000, B000).")

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keyOptions: MIFAREPlusKeyOptions
    @Option(name: .long, help: "The first data block.")
    var block: Int?
    @Option(name: .customLong("key-address"), help: "A key or configuration block to write instead, four hex digits.")
    var keyAddress: String?
    @Option(name: .long, help: "The bytes, 16 a block, as hex.")
    var hex: String
    @Flag(name: .long, help: "Write in plain (still MACed) instead of enciphered.")
    var plain = false

    func run() async throws {
        let data = try Input.hex(hex, what: "--hex")
        guard !data.isEmpty, data.count % 16 == 0 else {
            throw CLIError(.usage, "--hex takes whole 16-byte blocks, not \(data.count) bytes")
        }
        let target: UInt16
        let sectorBlock: Int
        switch (block, keyAddress) {
        case (let block?, nil):
            guard (1...255).contains(block) else { throw CLIError(.usage, "--block is 1-255 (block 0 is the manufacturer's)") }
            target = UInt16(block)
            sectorBlock = block
        case (nil, let address?):
            target = try MIFAREPlusRunner.address(address, option: "--key-address")
            sectorBlock = target >= 0x4000 && target < 0x4050 ? MIFAREPlusRunner.firstBlock(ofSector: Int(target - 0x4000) / 2) : 0
        default: throw CLIError(.usage, "give --block or --key-address")
        }
        if block != nil { try MIFAREPlusRunner.checkOneSector(from: sectorBlock, count: data.count / 16) }
        // Card keys are written under the card master key, configuration blocks under the card
        // configuration key, unless --key-block or --key-b says otherwise.
        var options = keyOptions
        if options.keyBlock == nil, !options.keyB, (0x9000...0x9007).contains(target) { options.keyBlock = "9000" }
        if options.keyBlock == nil, !options.keyB, (0xB000...0xB003).contains(target) { options.keyBlock = "9001" }
        let (keyBlock, key, messaging) = try options.credentials(block: sectorBlock)
        try await MIFAREPlusRunner.run(readerOptions, json: false) { client in
            try await client.authenticate(keyBlock: keyBlock, key: key, messaging: messaging)
            try await client.write(block: target, data, encrypted: !plain)
        }
        Output.line("wrote \(data.count / 16) block\(data.count == 16 ? "" : "s") at \(block.map(String.init) ?? keyAddress ?? "")")
    }
}

/// `nfc mifare-plus value --block N (--set V | --increment N | --decrement N) --key K …`
struct MIFAREPlusValueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "value", abstract: "Read, set, increment or decrement a value block (SL3).",
        discussion: "--increment and --decrement run the combined IncrementTransfer/DecrementTransfer on the block itself.")

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keyOptions: MIFAREPlusKeyOptions
    @Option(name: .long, help: "The value block.")
    var block: Int
    @Option(name: .long, help: "Make the block a value block holding this value.")
    var set: Int32?
    @Option(name: .long, help: "Add this amount.")
    var increment: Int32?
    @Option(name: .long, help: "Take this amount.")
    var decrement: Int32?
    @Flag(name: .long, help: "Print JSON: {\"block\", \"value\"}.")
    var json = false

    func run() async throws {
        guard (1...255).contains(block) else { throw CLIError(.usage, "--block is 1-255") }
        guard [set != nil, increment != nil, decrement != nil].filter({ $0 }).count <= 1 else {
            throw CLIError(.usage, "give one of --set, --increment and --decrement")
        }
        if let amount = increment ?? decrement, amount < 0 { throw CLIError(.usage, "an amount is not negative") }
        let (keyBlock, key, messaging) = try keyOptions.credentials(block: block)
        let value = try await MIFAREPlusRunner.run(readerOptions, json: json) { client in
            try await client.authenticate(keyBlock: keyBlock, key: key, messaging: messaging)
            if let set { try await client.writeValue(block: UInt16(block), set) }
            if let increment { try await client.value(.increment(increment), block: UInt16(block), transferTo: UInt16(block)) }
            if let decrement { try await client.value(.decrement(decrement), block: UInt16(block), transferTo: UInt16(block)) }
            return try await client.value(block: block)
        }
        if json {
            Output.line(JSONValue.object([("block", .int(Int64(block))), ("value", .int(Int64(value)))]).serialized(pretty: true))
        } else {
            Output.line("block \(block): \(value)")
        }
    }
}

/// `nfc mifare-plus perso --address A --hex DATA`
struct MIFAREPlusPersoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perso", abstract: "Write blocks, AES keys or configuration at SL0 (WritePerso).",
        discussion:
            "--address is four hex digits: a data block (0001-00FF), a sector key (4000-404F), a card key (9000, 9001, 9003, 9004) or a configuration block (B000-B003); --hex holds 1-15 blocks of 16 bytes."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The first address, four hex digits.")
    var address: String
    @Option(name: .long, help: "The bytes, 16 a block, as hex (- for standard input, for keys).")
    var hex: String

    func run() async throws {
        let start = try MIFAREPlusRunner.address(address, option: "--address")
        let data = try Input.hex(try SecretInput.read(hex, option: "--hex", prompt: "data (hex)"), what: "--hex")
        guard !data.isEmpty, data.count % 16 == 0, data.count <= 240 else {
            throw CLIError(.usage, "--hex takes 1 to 15 blocks of 16 bytes, not \(data.count) bytes")
        }
        try await MIFAREPlusRunner.run(readerOptions, json: false) { client in try await client.writePerso(start, data) }
        Output.line("wrote \(data.count / 16) block\(data.count == 16 ? "" : "s") at \(address.uppercased())")
    }
}

/// `nfc mifare-plus commit [--level 1|3]`
struct MIFAREPlusCommitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commit", abstract: "Leave SL0 for SL3 (or SL1) with CommitPerso. This cannot be undone.",
        discussion:
            "The card refuses until the card master key (9000), card configuration key (9001) and level 3 switch key (9003) are written.")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The new security level: 3 (default) or 1.")
    var level: Int = 3

    func run() async throws {
        guard level == 1 || level == 3 else { throw CLIError(.usage, "--level is 1 or 3, not \(level)") }
        try await MIFAREPlusRunner.run(readerOptions, json: false) { client in try await client.commitPerso(level: level) }
        Output.line("the card is at SL\(level)")
    }
}

extension MIFAREPlusRunner {
    static func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }

    static func sector(of block: Int) -> Int { block < 128 ? block / 4 : 32 + (block - 128) / 16 }

    /// Blocks reached with one sector's key stay in that sector.
    static func checkOneSector(from block: Int, count: Int) throws {
        guard sector(of: block) == sector(of: block + count - 1) else {
            throw CLIError(
                .usage,
                "blocks \(block)-\(block + count - 1) cross from sector \(sector(of: block)) into \(sector(of: block + count - 1)): one sector's key reaches one sector"
            )
        }
    }
}
