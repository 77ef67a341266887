import ArgumentParser

/// `nfc passport …`: ICAO 9303 passports and ID cards.
struct PassportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passport",
        abstract: "Read passports and ID cards (ICAO 9303 eMRTDs): PACE or BAC, the data groups, passive authentication.",
        discussion: """
            Works on the simulator's passport and id-card images (nfc tag new passport) and on real \
            documents through a PC/SC reader. docs/emrtd.md says what is covered.
            """,
        subcommands: [PassportReadCommand.self]
    )
}
