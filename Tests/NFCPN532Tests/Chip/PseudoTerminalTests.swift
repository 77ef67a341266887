import Foundation
import Testing

@testable import NFCPN532

/// The pseudo-terminal's link: made, replaced only when it is a link, removed by `close()` and at
/// process exit (`LiveLinks.removeAll { $0 == link }`, what the `atexit` hook runs), only while it is its own.
@Suite(.serialized) struct PseudoTerminalTests {
    private func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pty-\(UUID().uuidString)").path
    }

    private func target(_ link: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: link)
    }

    @Test func closeRemovesTheLink() throws {
        let link = path()
        let terminal = try PseudoTerminal(linkingAt: link)
        #expect(target(link) == terminal.device)
        terminal.close()
        #expect(target(link) == nil)
    }

    @Test func exitRemovesLinksLeftOpen() throws {
        let link = path()
        let terminal = try PseudoTerminal(linkingAt: link)
        LiveLinks.removeAll { $0 == link }
        #expect(target(link) == nil, "a terminal never closed loses its link at exit")
        terminal.close()
    }

    @Test func aLinkTakenOverIsLeftAlone() throws {
        let link = path()
        let first = try PseudoTerminal(linkingAt: link)
        let second = try PseudoTerminal(linkingAt: link)
        #expect(target(link) == second.device)
        first.close()
        #expect(target(link) == second.device, "the first terminal does not remove the second's link")
        LiveLinks.removeAll { $0 == link }
        #expect(target(link) == nil)
        second.close()
    }

    @Test func anotherFileAtThePathIsAnError() throws {
        let file = path()
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: (any Error).self) { try PseudoTerminal(linkingAt: file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }
}
