import ArgumentParser
import Foundation
import NFCSimulator

/// `nfc tag import DUMP.nfc -o FILE [--force]`
struct TagImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Flipper Zero .nfc dump (NTAG/Ultralight or ISO 15693) as a tag image."
    )

    @Argument(help: "The Flipper .nfc file.")
    var dump: String

    @Option(name: .shortAndLong, help: "Where to write the image.")
    var output: String

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    func run() throws {
        if !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError(.badInput, "\(output) exists; pass --force to replace it", file: output)
        }
        let bytes = try Input.readFile(dump)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(.badInput, "\(dump) is not a text file", file: dump)
        }
        let tag: any VirtualTag
        do {
            tag = try FlipperImport.tag(from: FlipperDump(FlipperNFCFile(text: text)))
        } catch {
            throw CLIError(.badInput, "\(dump): \(error)", file: dump)
        }
        try TagImageOutput.create(tag, at: output, replace: force)
        Output.line("wrote \(output): \(TagSummary.line(tag))")
    }
}
