import Foundation
import OpenCoreNFC
import Testing

/// NFCConfigurationLint: one test per check, on Xcode-shaped files.
@Suite struct ConfigurationLintTests {
    typealias Lint = NFCConfigurationLint
    typealias Keys = NFCAppConfiguration.Keys
    typealias F = ConfigurationFixtures

    static let usage = F.string(Keys.usageDescription, "Hold your iPhone near a tag.")
    static let aids = F.stringArray(Keys.iso7816SelectIdentifiers, ["D2760000850101"])
    static let codes = F.stringArray(Keys.felicaSystemCodes, ["0003"])
    static let tag = F.stringArray(Keys.readerSessionFormats, ["TAG"])

    /// The findings for an Info.plist holding `info` and entitlements holding `rights`.
    func lint(info: String = usage + aids + codes, rights: String? = tag) -> [Lint.Finding] {
        Lint.check(infoPlist: F.infoPlist(extra: info), entitlements: rights.map(F.entitlements(extra:)))
    }

    func codes(_ findings: [Lint.Finding]) -> [Lint.Code] { findings.map(\.code) }

    @Test func aCompleteConfigurationIsClean() throws {
        #expect(lint().isEmpty)
        #expect(Lint.check(infoPlist: F.infoPlist, entitlements: F.entitlements).isEmpty)
        let binary = try F.binary([
            Keys.usageDescription: "Reads tags", Keys.iso7816SelectIdentifiers: ["A000000308"], Keys.felicaSystemCodes: ["12FC"],
        ])
        #expect(Lint.check(infoPlist: binary, entitlements: try F.binary([Keys.readerSessionFormats: ["TAG"]])).isEmpty)
        #expect(Lint.exitStatus([]) == 0)
    }

    // MARK: Files

    @Test func anUnreadableInfoPlistIsOneErrorFinding() {
        let findings = Lint.check(infoPlist: Data("{ not a plist".utf8), entitlements: F.entitlements)
        #expect(codes(findings) == [.unreadable])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.key == nil)
        #expect(findings.first?.message.hasPrefix("Info.plist") == true)
        #expect(Lint.exitStatus(findings) == 2)
    }

    @Test func unreadableEntitlementsAreOneErrorFinding() {
        let findings = Lint.check(infoPlist: F.infoPlist, entitlements: Data("<plist><dict>".utf8))
        #expect(codes(findings) == [.unreadable])
        #expect(findings.first?.message.hasPrefix("entitlements") == true)
    }

    @Test func aMissingFileIsOneErrorFinding() {
        let nowhere = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)/Info.plist")
        let findings = Lint.check(infoPlistURL: nowhere, entitlementsURL: nil)
        #expect(codes(findings) == [.unreadable])
    }

    @Test func aWrongTypedValueIsReportedOnceWithItsKey() {
        let findings = lint(info: "\t<key>NFCReaderUsageDescription</key>\n\t<true/>\n" + Self.aids + Self.codes)
        #expect(codes(findings) == [.wrongType])
        #expect(findings.first?.key == Keys.usageDescription)
    }

    @Test func withoutEntitlementsTheirChecksAreSkippedWithANote() {
        let findings = lint(rights: nil)
        #expect(codes(findings) == [.entitlementsNotChecked])
        #expect(findings.first?.severity == .note)
        #expect(Lint.exitStatus(findings) == 0, "a note never changes the exit status")
    }

    // MARK: Info.plist

    @Test func missingUsageDescription() {
        let findings = lint(info: Self.aids + Self.codes)
        #expect(codes(findings) == [.usageDescriptionMissing])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.key == Keys.usageDescription)
    }

    @Test func emptyOrBlankUsageDescription() {
        #expect(
            codes(lint(info: "\t<key>NFCReaderUsageDescription</key>\n\t<string></string>\n" + Self.aids + Self.codes))
                == [.usageDescriptionEmpty])
        #expect(codes(lint(info: F.string(Keys.usageDescription, "   ") + Self.aids + Self.codes)) == [.usageDescriptionEmpty])
    }

    @Test func appExtension() {
        let findings = lint(info: Self.usage + Self.aids + Self.codes + "\t<key>NSExtension</key>\n\t<dict/>\n")
        #expect(codes(findings) == [.appExtension])
        #expect(findings.first?.severity == .error)
    }

    @Test func malformedSelectIdentifiers() {
        let aids = F.stringArray(
            Keys.iso7816SelectIdentifiers,
            ["D2760000850101", "A0000003", "A00000030", "D2 76 00 00 85", "A000000000000000000000000000000000"])
        let findings = lint(info: Self.usage + aids + Self.codes)
        #expect(codes(findings) == Array(repeating: .aidMalformed, count: 4))
        #expect(findings.allSatisfy { $0.severity == .error && $0.key == Keys.iso7816SelectIdentifiers })
        #expect(findings.first?.message.contains("item 1") == true)
    }

    @Test func duplicatedSelectIdentifier() {
        let aids = F.stringArray(Keys.iso7816SelectIdentifiers, ["D2760000850101", "A000000308", "d2760000850101"])
        let findings = lint(info: Self.usage + aids + Self.codes)
        #expect(codes(findings) == [.aidDuplicate])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message.contains("repeats item 0") == true)
        #expect(Lint.exitStatus(findings) == 1)
    }

    @Test func paymentSelectIdentifiers() {
        let aids = F.stringArray(Keys.iso7816SelectIdentifiers, ["D2760000850101", "A0000000031010", "325041592E5359532E4444463031"])
        let findings = lint(info: Self.usage + aids + Self.codes)
        #expect(codes(findings) == [.aidPayment, .aidPayment])
        #expect(findings.first?.message.contains("Visa") == true)
        #expect(findings.last?.message.contains("2PAY.SYS.DDF01") == true)
        #expect(Lint.exitStatus(findings) == 2)
    }

    @Test func malformedSystemCodes() {
        let codes = F.stringArray(Keys.felicaSystemCodes, ["0003", "3", "0x0003", "12FCA"])
        let findings = lint(info: Self.usage + Self.aids + codes)
        #expect(self.codes(findings) == [.systemCodeMalformed, .systemCodeMalformed, .systemCodeMalformed])
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    /// The wildcard `FF` in either byte (Apple's reference for the system-codes key).
    @Test(arguments: ["FFFF", "88FF", "FFB4"])
    func wildcardSystemCode(code: String) {
        let findings = lint(info: Self.usage + Self.aids + F.stringArray(Keys.felicaSystemCodes, ["0003", code]))
        #expect(codes(findings) == [.systemCodeWildcard])
        #expect(findings.first?.severity == .error)
    }

    // MARK: Entitlements

    @Test func missingFormatsEntitlement() {
        let findings = lint(rights: "")
        #expect(codes(findings) == [.formatsMissing])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.key == Keys.readerSessionFormats)
    }

    @Test func emptyFormatsEntitlement() {
        #expect(codes(lint(rights: F.stringArray(Keys.readerSessionFormats, []))) == [.formatsEmpty])
    }

    @Test func legacyNDEFAlone() {
        let findings = lint(rights: F.stringArray(Keys.readerSessionFormats, ["NDEF"]))
        #expect(codes(findings) == [.formatsNDEFOnly])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("ITMS-90778") == true)
    }

    @Test func legacyNDEFBesideTag() {
        let findings = lint(rights: F.stringArray(Keys.readerSessionFormats, ["NDEF", "TAG"]))
        #expect(codes(findings) == [.formatsNDEFDisallowed])
        #expect(findings.first?.severity == .error)
    }

    @Test func legacyNDEFIsAcceptedForAnIOS12DeploymentTarget() {
        let info = Self.usage + Self.aids + Self.codes + F.string(Keys.minimumOSVersion, "12.4")
        #expect(lint(info: info, rights: F.stringArray(Keys.readerSessionFormats, ["NDEF", "TAG"])).isEmpty)
        let modern = Self.usage + Self.aids + Self.codes + F.string(Keys.minimumOSVersion, "13.0")
        #expect(codes(lint(info: modern, rights: F.stringArray(Keys.readerSessionFormats, ["NDEF", "TAG"]))) == [.formatsNDEFDisallowed])
    }

    @Test func unknownFormatValue() {
        let findings = lint(rights: F.stringArray(Keys.readerSessionFormats, ["TAG", "PACE", "Tag"]))
        #expect(codes(findings) == [.formatsUnknownValue])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message.contains("\"Tag\"") == true)
    }

    @Test func formatsWithNeitherTagNorNDEF() {
        let findings = lint(rights: F.stringArray(Keys.readerSessionFormats, ["PACE"]))
        #expect(codes(findings) == [.formatsUnusable])
        #expect(findings.first?.severity == .error)
    }

    @Test func tagWithoutSelectIdentifiers() {
        let findings = lint(info: Self.usage + Self.codes)
        #expect(codes(findings) == [.aidsMissing])
        #expect(findings.first?.severity == .note, "without sources, whether the app reads ISO 7816 tags is unknown")
        #expect(findings.first?.key == Keys.iso7816SelectIdentifiers)
        #expect(Lint.exitStatus(findings) == 0)
    }

    @Test func tagWithoutSystemCodes() {
        let findings = lint(info: Self.usage + Self.aids + F.stringArray(Keys.felicaSystemCodes, []))
        #expect(codes(findings) == [.systemCodesMissing])
        #expect(findings.first?.severity == .note, "without sources, whether the app polls FeliCa is unknown")
        #expect(findings.first?.message.contains("sessions polling iso18092 fail without system codes") == true)
    }

    @Test func associatedDomainsWithoutAppLinks() {
        let domains = F.stringArray(Keys.associatedDomains, ["webcredentials:example.com", "activitycontinuation:example.com"])
        let findings = lint(rights: Self.tag + domains)
        #expect(codes(findings) == [.noAppLinks])
        #expect(findings.first?.severity == .warning)
        #expect(lint(rights: Self.tag + F.stringArray(Keys.associatedDomains, ["applinks:example.com"])).isEmpty)
    }

    // MARK: Exit status and output

    @Test func exitStatusRanksErrorsAboveWarnings() {
        let warning = Lint.Finding(.warning, .aidDuplicate, key: nil, "w", fix: "f")
        let error = Lint.Finding(.error, .aidPayment, key: nil, "e", fix: "f")
        #expect(Lint.exitStatus([]) == 0)
        #expect(Lint.exitStatus([warning]) == 1)
        #expect(Lint.exitStatus([warning, error]) == 2)
        #expect(Lint.Severity.warning < .error)
    }

    @Test func findingsPrintOnOneLineWithStableCodes() {
        let finding = lint(info: Self.aids + Self.codes).first
        #expect(finding?.code.rawValue == "usage-description.missing")
        #expect(finding?.description.hasPrefix("error [usage-description.missing] NFCReaderUsageDescription: ") == true)
        #expect(finding?.description.contains("\n") == false)
    }
}
