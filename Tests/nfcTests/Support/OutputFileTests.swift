import Foundation
import Testing

@testable import nfc

/// `Output.writeFile(_:_:force:)` on its own: the commands refuse an existing file before they
/// touch a card (`checkWritable`), and the write refuses again, for a file that appeared since.
@Suite struct OutputFileTests {
    private func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)").path
    }

    @Test func aFileThatAppearedIsNotReplacedWithoutForce() throws {
        let file = path()
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(FileManager.default.createFile(atPath: file, contents: Data("appeared".utf8)))
        #expect(throws: CLIError.self) { try Output.writeFile(file, [1, 2, 3], force: false) }
        #expect(FileManager.default.contents(atPath: file) == Data("appeared".utf8))
        try Output.writeFile(file, [1, 2, 3], force: true)
        #expect(FileManager.default.contents(atPath: file) == Data([1, 2, 3]))
    }

    @Test func aNewFileIsCreatedAndADirectoryRefused() throws {
        let file = path()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Output.writeFile(file, [9], force: false)
        #expect(FileManager.default.contents(atPath: file) == Data([9]))
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: CLIError.self) { try Output.writeFile(directory, [9], force: true) }
        #expect(throws: CLIError.self) { try Output.checkWritable(directory, force: true) }
    }
}
