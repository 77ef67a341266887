import ArgumentParser
import Foundation
import NFCSimulator

/// `nfc tag new TYPE [--blank] [--uid HEX] -o FILE [--force]`
struct TagNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a virtual tag image.",
        discussion: """
            Types: \(VirtualTagKind.allCases.map(\.rawValue).joined(separator: ", ")). \
            Without --blank the tag is formatted for NDEF and holds an empty message, as tags sold \
            for NFC use are; with --blank it is factory-fresh and unformatted.
            """
    )

    @Argument(help: "The tag type.")
    var type: VirtualTagKind

    @Flag(name: .long, help: "Make an unformatted tag (no NDEF capability container).")
    var blank = false

    @Option(name: .long, help: "The UID (IDm for FeliCa) as hex; a fixed default otherwise.")
    var uid: String?

    @Option(name: .shortAndLong, help: "Where to write the image.")
    var output: String

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    func run() throws {
        if !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError(.badInput, "\(output) exists; pass --force to replace it", file: output)
        }
        let identifier = try uid.map { try Input.hex($0, what: "--uid") }
        let tag: any VirtualTag
        do {
            tag = try type.make(blank: blank, identifier: identifier)
        } catch {
            throw CLIError(.badInput, "\(error)")
        }
        try TagImageOutput.create(tag, at: output, replace: force)
        Output.line("wrote \(output): \(TagSummary.line(tag))")
    }
}

extension VirtualTagKind: ExpressibleByArgument {}
