import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A yes/no question before something that cannot be undone (a reset): `--yes` answers it
/// beforehand; on a terminal it is asked; otherwise the command is refused.
enum Confirmation {
    static func require(_ confirmed: Bool, _ question: String) throws {
        if confirmed { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(.usage, "this cannot be undone: give --yes to confirm (standard input is not a terminal to ask on)")
        }
        FileHandle.standardError.write(Data("\(question) Type yes to go on: ".utf8))
        guard readLine(strippingNewline: true)?.lowercased() == "yes" else {
            throw CLIError(.failure, "not confirmed; nothing was changed")
        }
    }
}
