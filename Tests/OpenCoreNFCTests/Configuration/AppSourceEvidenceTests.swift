import Foundation
import OpenCoreNFC
import Testing

/// `NFCAppSourceEvidence` and the lint findings it turns on: SELECTs spelled out count as used,
/// bytes anywhere count as mentioned, comments count for nothing (so the lint never cries wolf).
@Suite struct AppSourceEvidenceTests {
    typealias Lint = NFCConfigurationLint
    typealias Keys = NFCAppConfiguration.Keys
    typealias F = ConfigurationFixtures

    static func evidence(_ text: String) -> NFCAppSourceEvidence {
        NFCAppSourceEvidence(sources: [(name: "App.swift", text: text)])
    }

    @Test func pollingOptionsAreCoreNFCsNames() {
        let found = Self.evidence("NFCTagReaderSession(pollingOption: [.iso14443, .iso18092], delegate: self)")
        #expect(found.pollingOptions == [.iso14443, .iso18092])
        #expect(found.usesTagReaderSession)
        #expect(Self.evidence("let x = y.iso18092Reader; // .iso15693").pollingOptions.isEmpty, "a longer name and a comment do not count")
        #expect(Self.evidence("case .iso7816(let tag): use(tag)").handlesISO7816Tags)
    }

    @Test func selectsAreFoundInEachSpelling() {
        let hex = Self.evidence(#"let select = "00 A4 04 00 07 D2 76 00 00 85 01 01 00""#)
        #expect(hex.selectedAIDs.keys.contains([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]))
        let bytes = Self.evidence("let apdu: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x05, 0xA0, 0x00, 0x00, 0x03, 0x08, 0x00]")
        #expect(bytes.selectedAIDs.keys.contains([0xA0, 0x00, 0x00, 0x03, 0x08]))
        let initializer = Self.evidence(
            """
            let apdu = NFCISO7816APDU(
                instructionClass: 0, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0,
                data: Data([0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]), expectedResponseLength: 256)
            let other = NFCISO7816APDU(instructionClass: 0, instructionCode: 164, p1Parameter: 4, p2Parameter: 0,
                data: Data(hex: "A000000527200101"), expectedResponseLength: -1)
            """)
        #expect(initializer.selectedAIDs.keys.contains([0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]))
        #expect(initializer.selectedAIDs.keys.contains([0xA0, 0x00, 0x00, 0x05, 0x27, 0x20, 0x01, 0x01]))
        #expect(initializer.selectedAIDs.values.allSatisfy { $0.hasPrefix("App.swift: ") })
    }

    @Test func commentsAndStringsAreToldApart() {
        let text = """
            // let a = "00A4040005A000000308"
            /* [0x00, 0xA4, 0x04, 0x00, 0x05, 0xA0, 0x00, 0x00, 0x03, 0x09] /* nested */ still comment */
            let url = "https://example.com/00A4040005A000000310" // a URL is not hex
            let raw = #"a "quoted" 00A4040005A000000311"#
            let multi = \"""
                00A4040005A000000312
                \"""
            let real = "00A4040005A000000313"
            """
        let found = Self.evidence(text)
        #expect(Array(found.selectedAIDs.keys) == [[0xA0, 0x00, 0x00, 0x03, 0x13]], "only the real literal is a SELECT")
        #expect(!found.mentions([0xA0, 0x00, 0x00, 0x03, 0x08]))
    }

    @Test func anAIDMadeAtRunTimeIsMentionedButNotSelected() {
        let found = Self.evidence(
            """
            let aid = Data([0xA0, 0x00, 0x00, 0x03, 0x08])
            let apdu = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, p2Parameter: 0, data: aid, expectedResponseLength: 256)
            """)
        #expect(found.selectedAIDs.isEmpty)
        #expect(found.mentions([0xA0, 0x00, 0x00, 0x03, 0x08]))
        #expect(found.mentions([0x00, 0x00, 0x03]))
        #expect(!found.mentions([0xA0, 0x00, 0x00, 0x03, 0x09]))
    }

    // MARK: The findings

    static let usage = F.string(Keys.usageDescription, "Reads security keys.")
    static let tag = F.stringArray(Keys.readerSessionFormats, ["TAG"])

    func lint(_ info: String, sources: String, rights: String = tag) -> [Lint.Finding] {
        Lint.check(
            infoPlist: F.infoPlist(extra: Self.usage + info), entitlements: F.entitlements(extra: rights), sources: Self.evidence(sources))
    }

    @Test func aSelectOfAnUndeclaredAIDIsAnError() {
        let findings = lint(
            F.stringArray(Keys.iso7816SelectIdentifiers, ["A000000308"]),
            sources: #"let piv = "00A4040009A00000030800001000"; let other = "00A4040007D2760000850101""#)
        #expect(findings.map(\.code) == [.aidUndeclared], "the PIV SELECT extends the declared truncated name; the NDEF one is not listed")
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("D2760000850101") == true)
        #expect(findings.first?.message.contains("App.swift") == true)
    }

    @Test func declaredButUnusedIsAWarning() {
        let findings = lint(
            F.stringArray(Keys.iso7816SelectIdentifiers, ["A000000308", "D2760000850101"])
                + F.stringArray(Keys.felicaSystemCodes, ["12FC"]),
            sources: "NFCTagReaderSession(pollingOption: .iso14443, delegate: d); let aid = [0xA0, 0x00, 0x00, 0x03, 0x08]")
        #expect(findings.map(\.code) == [.aidUnused, .systemCodesUnused])
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(findings.first?.message.contains("item 1 D2760000850101") == true)
        #expect(Lint.exitStatus(findings) == 1)
    }

    @Test func theMissingListsFollowTheSources() {
        let noLists = ""
        let quiet = lint(noLists, sources: "NFCNDEFReaderSession(delegate: d, queue: nil, invalidateAfterFirstRead: true)")
        #expect(quiet.isEmpty, "an NDEF-only app needs neither list")
        let felica = lint(noLists, sources: "NFCTagReaderSession(pollingOption: [.iso18092], delegate: d)")
        #expect(felica.map(\.code) == [.systemCodesMissing] && felica.first?.severity == .error)
        let iso7816 = lint(noLists, sources: "if case .iso7816(let card) = tag { use(card) }")
        #expect(iso7816.map(\.code) == [.aidsMissing] && iso7816.first?.severity == .warning)
    }

    @Test func malformedAppLinksAreReported() {
        let domains = F.stringArray(
            Keys.associatedDomains,
            ["applinks:good.example", "applinks:bad host.example", "applinks:x.example?mode=beta", "webcredentials:a.example"])
        let findings = Lint.check(
            infoPlist: F.infoPlist(
                extra: Self.usage + F.stringArray(Keys.iso7816SelectIdentifiers, ["A000000308"])
                    + F.stringArray(Keys.felicaSystemCodes, ["12FC"])),
            entitlements: F.entitlements(extra: Self.tag + domains))
        #expect(findings.map(\.code) == [.appLinkMalformed, .appLinkMalformed])
        #expect(findings.first?.message.contains("item 1 \"applinks:bad host.example\"") == true)
        #expect(findings.last?.message.contains("item 2") == true)
    }

    @Test func anUnreadableOrEmptySourcesFolderIsOneFinding() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let info = folder.appendingPathComponent("Info.plist")
        try F.infoPlist.write(to: info)
        try Data("int main(void) { return 0; }".utf8).write(to: folder.appendingPathComponent("main.m"))
        for sources in [URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"), folder] {
            let findings = Lint.check(infoPlistURL: info, entitlementsURL: nil, sourcesURL: sources)
            #expect(findings.map(\.code) == [.unreadable], "\(sources.path): \(findings)")
            #expect(findings.first?.message.hasPrefix("sources: ") == true)
        }
        #expect(Lint.check(infoPlistURL: info, entitlementsURL: nil, sourcesURL: folder).first?.message.contains("no .swift file") == true)
    }

    /// Windows line ends: a `//` comment still ends at the line's end.
    @Test func carriageReturnsEndComments() {
        let found = Self.evidence("// a comment\r\nNFCTagReaderSession(pollingOption: .iso18092, delegate: d)\r\n")
        #expect(found.pollingOptions == [.iso18092])
    }

    @Test func unusedAIDsAreNamedByTheirPlaceInTheList() {
        let findings = lint(
            F.stringArray(Keys.iso7816SelectIdentifiers, ["zz", "A000000308", "D2760000850101"]),
            sources: "let aid = [0xA0, 0x00, 0x00, 0x03, 0x08]")
        let unused = findings.filter { $0.code == .aidUnused }
        #expect(unused.count == 1 && unused.first?.message.contains("item 2 D2760000850101") == true, "\(findings)")
    }
}
