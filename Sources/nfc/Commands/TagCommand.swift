import ArgumentParser

/// `nfc tag` — virtual tag images for the simulator.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Create, import and inspect virtual tag images (the simulator's tags).",
        discussion: "The image format is documented in docs/tag-images.md.",
        subcommands: [TagNewCommand.self, TagImportCommand.self, TagShowCommand.self]
    )
}
