import ArgumentParser
import Foundation
import NFCJSON
import OpenCoreNFC

/// `nfc lint Info.plist [App.entitlements] [--sources DIR] [--json]`
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check an iOS app's NFC configuration (Info.plist and entitlements, XML or binary).",
        discussion: """
            Prints one line per finding — severity, code, key, what is wrong and the fix — or the \
            JSON form with --json. Findings that depend on what the app does (FeliCa polling, ISO \
            7816 tags) need evidence: --sources DIR reads the app's Swift sources for its polling \
            options and the AIDs its APDUs select, and reports what is declared but unused or used but \
            undeclared; without sources such findings are notes. Exit status: 0 clean or notes only, \
            1 warnings, 2 any error. The same checks are a library call: \
            NFCConfigurationLint.check(infoPlist:entitlements:sources:).
            """
    )

    @Argument(help: "The app's Info.plist.")
    var infoPlist: String
    @Argument(help: "The app's .entitlements file (without it, the entitlement checks are skipped, with a note).")
    var entitlements: String?
    @Option(name: .long, help: "A folder of the app's Swift sources, read for its polling options and the AIDs it selects.")
    var sources: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let findings = NFCConfigurationLint.check(
            infoPlistURL: URL(fileURLWithPath: infoPlist),
            entitlementsURL: entitlements.map { URL(fileURLWithPath: $0) },
            sourcesURL: sources.map { URL(fileURLWithPath: $0, isDirectory: true) })
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
            let count = { (severity: NFCConfigurationLint.Severity) in findings.filter { $0.severity == severity }.count }
            Output.line("\(count(.error)) error(s), \(count(.warning)) warning(s), \(count(.note)) note(s)")
        }
        if status != 0 { throw ExitCode(status) }
    }
}
