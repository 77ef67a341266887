import ArgumentParser
import Foundation
import NFCJSON
import OpenCoreNFC

/// `nfc lint Info.plist [App.entitlements] [--json]`
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check an iOS app's NFC configuration (Info.plist and entitlements, XML or binary).",
        discussion: """
            Prints one line per finding — severity, code, key, what is wrong and the fix — or the \
            JSON form with --json. Exit status: 0 clean, 1 warnings only, 2 any error. The same \
            checks are a library call: NFCConfigurationLint.check(infoPlist:entitlements:).
            """
    )

    @Argument(help: "The app's Info.plist.")
    var infoPlist: String
    @Argument(help: "The app's .entitlements file (without it, the entitlement checks are skipped with a warning).")
    var entitlements: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let findings = NFCConfigurationLint.check(
            infoPlistURL: URL(fileURLWithPath: infoPlist),
            entitlementsURL: entitlements.map { URL(fileURLWithPath: $0) })
        let status = NFCConfigurationLint.exitStatus(findings)
        if json {
            Output.line(
                JSONValue.object([
                    (
                        "findings",
                        .array(
                            findings.map { finding in
                                .object([
                                    ("severity", .string(finding.severity.rawValue)),
                                    ("code", .string(finding.code.rawValue)),
                                    ("key", finding.key.map { .string($0) } ?? .null),
                                    ("message", .string(finding.message)),
                                    ("fix", .string(finding.fix)),
                                ])
                            })
                    ),
                    ("exitStatus", .int(Int64(status))),
                ]).serialized(pretty: true))
        } else if findings.isEmpty {
            Output.line("ok: no NFC configuration problems")
        } else {
            for finding in findings { Output.line(TerminalText.escape(finding.description)) }
            let errors = findings.filter { $0.severity == .error }.count
            Output.line("\(errors) error(s), \(findings.count - errors) warning(s)")
        }
        if status != 0 { throw ExitCode(status) }
    }
}
