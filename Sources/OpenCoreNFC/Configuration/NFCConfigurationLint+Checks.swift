/// The individual checks of ``NFCConfigurationLint``, over one read configuration.
struct LintChecks {
    typealias Finding = NFCConfigurationLint.Finding
    typealias Keys = NFCAppConfiguration.Keys

    let configuration: NFCAppConfiguration
    /// Keys whose values had the wrong type (already reported; their checks are skipped).
    let badKeys: Set<String>
    /// Whether an entitlements file was given.
    let hasEntitlements: Bool
    /// What the app's sources show, when they were given.
    var evidence: NFCAppSourceEvidence?

    /// All checks, in report order.
    func run() -> [Finding] {
        var findings: [Finding] = []
        findings += appExtension()
        findings += usageDescription()
        findings += selectIdentifiers()
        findings += systemCodes()
        findings += sourceUse()
        guard hasEntitlements else {
            findings.append(
                Finding(
                    .note, .entitlementsNotChecked, key: Keys.readerSessionFormats,
                    "no entitlements file was given, so the formats and associated-domains checks did not run",
                    fix: "Pass the app's .entitlements file too"))
            return findings
        }
        findings += formats()
        findings += missingLists()
        findings += associatedDomains()
        return findings
    }

    // MARK: Info.plist

    /// Apple's Core NFC overview: not available in app extensions.
    func appExtension() -> [Finding] {
        guard configuration.isAppExtension else { return [] }
        return [
            Finding(
                .error, .appExtension, key: Keys.appExtension,
                "this Info.plist is an app extension's; Core NFC is not available in app extensions",
                fix: "Move the NFC code into the containing app")
        ]
    }

    /// Apple's `NFCReaderUsageDescription` reference: required for any use of the NFC hardware.
    func usageDescription() -> [Finding] {
        let key = Keys.usageDescription
        guard !badKeys.contains(key) else { return [] }
        let fix = "Add \(key) (Xcode: Privacy - NFC Scan Usage Description) saying why the app reads tags"
        guard let text = configuration.usageDescription else {
            return [Finding(.error, .usageDescriptionMissing, key: key, "missing: sessions fail with a security violation", fix: fix)]
        }
        guard text.allSatisfy(\.isWhitespace) else { return [] }
        let what = text.isEmpty ? "empty" : "only white space"
        return [Finding(.error, .usageDescriptionEmpty, key: key, "\(what): people would see no reason for the scan", fix: fix)]
    }

    /// Well-formed (5–16 bytes of hex), unique, and not payment AIDs.
    func selectIdentifiers() -> [Finding] {
        let key = Keys.iso7816SelectIdentifiers
        guard !badKeys.contains(key), let values = configuration.iso7816SelectIdentifierValues else { return [] }
        var findings: [Finding] = []
        var firstIndex: [[UInt8]: Int] = [:]
        for (index, value) in values.enumerated() {
            let aid: [UInt8]
            do {
                aid = try ApplicationIdentifier.parse(value)
            } catch {
                findings.append(
                    Finding(
                        .error, .aidMalformed, key: key, "item \(index) \"\(value)\" \(error.reason)",
                        fix: "Write each AID as 10 to 32 hex digits, e.g. D2760000850101"))
                continue
            }
            if let first = firstIndex[aid] {
                findings.append(
                    Finding(
                        .warning, .aidDuplicate, key: key, "item \(index) \"\(value)\" repeats item \(first)",
                        fix: "Remove the repeated entry; Core NFC selects each AID once"))
            } else {
                firstIndex[aid] = index
            }
            if let application = PaymentApplicationIdentifiers.paymentApplication(aid) {
                findings.append(
                    Finding(
                        .error, .aidPayment, key: key,
                        "item \(index) \"\(value)\" selects \(application), a payment application that Core NFC refuses",
                        fix: "Remove payment AIDs; only NFCPaymentTagReaderSession (iOS 26, EU) reads payment cards"))
            }
        }
        return findings
    }

    /// Exactly 4 hex digits each, and no wildcard `FF` in either byte (Apple's reference for the system-codes key).
    func systemCodes() -> [Finding] {
        let key = Keys.felicaSystemCodes
        guard !badKeys.contains(key), let values = configuration.felicaSystemCodeValues else { return [] }
        var findings: [Finding] = []
        for (index, value) in values.enumerated() {
            guard let code = FeliCaSystemCode.parse(value) else {
                findings.append(
                    Finding(
                        .error, .systemCodeMalformed, key: key, "item \(index) \"\(value)\" is not a system code of 4 hex digits",
                        fix: "Write each system code as 4 hex digits, e.g. 12FC"))
                continue
            }
            if FeliCaSystemCode.hasWildcard(code) {
                findings.append(
                    Finding(
                        .error, .systemCodeWildcard, key: key,
                        "item \(index) \"\(value)\" holds the wildcard FF, which Core NFC does not allow in either byte",
                        fix: "List the discrete system codes of the cards the app reads instead"))
            }
        }
        return findings
    }

    // MARK: Entitlements

    /// The formats entitlement: present, non-empty, `TAG` rather than the legacy `NDEF`.
    ///
    /// App Store Connect's asset validation refuses `NDEF` in builds made with the iOS 13 SDK or
    /// later whose deployment target is iOS 13 or later: "Invalid entitlement for core nfc
    /// framework … because 'NDEF is disallowed'" (ITMS-90778), reported with SDK 13.0
    /// (treastrain/TRETJapanNFCReader#6), 16.1 (Yubico/yubikit-ios#116), 17.2, 18.2 (Apple
    /// Developer Forums thread 772845) and 26.2, which adds "TAG is missing in the entitlement"
    /// for `NDEF` alone (BenGWeeks/lightning-piggy-mobile#399). Builds for iOS 12 and earlier
    /// still need `NDEF` (iOS 11/12 know no `TAG`), so a declared `MinimumOSVersion` below 13
    /// silences the check.
    func formats() -> [Finding] {
        let key = Keys.readerSessionFormats
        guard !badKeys.contains(key) else { return [] }
        let tagFix = "Enable Near Field Communication Tag Reading in Xcode's Signing & Capabilities, which writes TAG"
        guard let values = configuration.readerSessionFormatValues else {
            return [
                Finding(.error, .formatsMissing, key: key, "missing: every reader session fails with a security violation", fix: tagFix)
            ]
        }
        guard !values.isEmpty else {
            return [Finding(.error, .formatsEmpty, key: key, "empty: every reader session fails with a security violation", fix: tagFix)]
        }
        var findings: [Finding] = []
        for value in values where !["TAG", "NDEF", "PACE"].contains(value) {
            findings.append(
                Finding(
                    .warning, .formatsUnknownValue, key: key, "\"\(value)\" is not a known format (TAG, NDEF, PACE; case matters)",
                    fix: "Remove it, or correct its spelling"))
        }
        let formats = configuration.readerSessionFormats
        let hasTag = formats.contains(.tag)
        let hasNDEF = formats.contains(.ndef)
        if !hasTag && !hasNDEF {
            findings.append(
                Finding(.error, .formatsUnusable, key: key, "holds neither TAG nor NDEF: no reader session can begin", fix: tagFix))
        } else if hasNDEF && !targetsBeforeiOS13 {
            let validation = "App Store Connect rejects the build (ITMS-90778: 'NDEF is disallowed' for iOS 13 and later)"
            if hasTag {
                findings.append(
                    Finding(
                        .error, .formatsNDEFDisallowed, key: key, "holds the legacy NDEF beside TAG; \(validation)",
                        fix: "Remove NDEF; TAG also allows NDEF reader sessions"))
            } else {
                findings.append(
                    Finding(
                        .error, .formatsNDEFOnly, key: key,
                        "holds only the legacy NDEF; \(validation), and tag reader sessions cannot begin",
                        fix: "Replace NDEF with TAG, which also allows NDEF reader sessions"))
            }
        }
        return findings
    }

    /// `TAG` declared without the lists that ISO 7816 and FeliCa polling need. Whether that
    /// matters depends on the app: without its sources each is a note; with them, a missing
    /// system-code list is an error when the sources poll `iso18092` (the session cannot poll
    /// FeliCa), a missing AID list a warning when they handle ISO 7816 tags, and nothing
    /// otherwise.
    func missingLists() -> [Finding] {
        guard !badKeys.contains(Keys.readerSessionFormats), configuration.readerSessionFormats.contains(.tag) else { return [] }
        var findings: [Finding] = []
        if !badKeys.contains(Keys.iso7816SelectIdentifiers), configuration.iso7816SelectIdentifierValues?.isEmpty ?? true {
            let severity: NFCConfigurationLint.Severity? =
                switch evidence.map(\.handlesISO7816Tags) {
                case nil: .note
                case true?: .warning
                case false?: nil
                }
            if let severity {
                findings.append(
                    Finding(
                        severity, .aidsMissing, key: Keys.iso7816SelectIdentifiers,
                        "TAG is declared but no AID: tag sessions will not report ISO 7816 tags"
                            + (evidence == nil ? "" : ", and the sources handle NFCISO7816Tag"),
                        fix: "List the AIDs of the applications the app selects"))
            }
        }
        if !badKeys.contains(Keys.felicaSystemCodes), configuration.felicaSystemCodeValues?.isEmpty ?? true {
            let severity: NFCConfigurationLint.Severity? =
                switch evidence.map({ $0.pollingOptions.contains(.iso18092) }) {
                case nil: .note
                case true?: .error
                case false?: nil
                }
            if let severity {
                findings.append(
                    Finding(
                        severity, .systemCodesMissing, key: Keys.felicaSystemCodes,
                        "TAG is declared but no system code: sessions polling iso18092 fail without system codes"
                            + (evidence == nil ? "" : ", and the sources poll iso18092"),
                        fix: "List the system codes of the FeliCa cards the app reads"))
            }
        }
        return findings
    }

    /// With the app's sources: AIDs selected but not listed (Core NFC refuses those SELECTs,
    /// `readerErrorSecurityViolation`), AIDs listed but never mentioned, and system codes listed
    /// while nothing polls `iso18092`.
    func sourceUse() -> [Finding] {
        guard let evidence else { return [] }
        var findings: [Finding] = []
        let aidKey = Keys.iso7816SelectIdentifiers
        // Indexed as the Info.plist lists them (a malformed item keeps its place, reported elsewhere).
        let declared = (configuration.iso7816SelectIdentifierValues ?? []).enumerated().compactMap { index, value in
            (try? ApplicationIdentifier.parse(value)).map { (index, $0) }
        }
        if !badKeys.contains(aidKey) {
            for (aid, place) in evidence.selectedAIDs.sorted(by: { $0.value < $1.value })
            where configuration.checkCanSelect(aid: aid, allowingPayment: true) != nil {
                findings.append(
                    Finding(
                        .error, .aidUndeclared, key: aidKey,
                        "the sources SELECT \(Self.hex(aid)) (\(place)), which the list lacks: Core NFC refuses that SELECT",
                        fix: "Add \(Self.hex(aid)) to \(aidKey)"))
            }
            for (index, aid) in declared where !evidence.mentions(aid) {
                findings.append(
                    Finding(
                        .warning, .aidUnused, key: aidKey,
                        "item \(index) \(Self.hex(aid)) appears nowhere in the sources (\(evidence.filesRead) Swift \(evidence.filesRead == 1 ? "file" : "files") read)",
                        fix: "Remove it if the app no longer selects it"))
            }
        }
        let codes = configuration.felicaSystemCodeValues ?? []
        if !badKeys.contains(Keys.felicaSystemCodes), !codes.isEmpty, !evidence.pollingOptions.contains(.iso18092) {
            findings.append(
                Finding(
                    .warning, .systemCodesUnused, key: Keys.felicaSystemCodes,
                    "system codes are listed, but no source polls iso18092 (\(evidence.filesRead) Swift \(evidence.filesRead == 1 ? "file" : "files") read)",
                    fix: "Remove the list if the app reads no FeliCa card"))
        }
        return findings
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// Background tag reading opens universal links, which need an `applinks:` associated domain;
    /// a malformed `applinks:` entry is ignored by iOS (Apple, "Supporting associated domains").
    func associatedDomains() -> [Finding] {
        let key = Keys.associatedDomains
        let domains = configuration.associatedDomains
        guard !badKeys.contains(key), !domains.isEmpty else { return [] }
        var findings: [Finding] = []
        for (index, entry) in domains.enumerated() where entry.hasPrefix("applinks:") && AssociatedDomain(entitlement: entry) == nil {
            findings.append(
                Finding(
                    .warning, .appLinkMalformed, key: key,
                    "item \(index) \"\(entry)\" is not a valid applinks: entry (a host of letters, digits, hyphens and dots, "
                        + "*. for subdomains, ?mode=developer or ?mode=managed); iOS ignores it",
                    fix: "Write it as applinks:example.com or applinks:*.example.com"))
        }
        guard !domains.contains(where: { $0.hasPrefix("applinks:") }) else { return findings }
        return findings + [
            Finding(
                .warning, .noAppLinks, key: key,
                "associated domains are declared but none is applinks:, so tags read in the background cannot open the app",
                fix: "Add applinks:<your domain> for the URLs your tags hold")
        ]
    }

    /// Whether the Info.plist declares a deployment target below iOS 13.
    private var targetsBeforeiOS13: Bool {
        guard let version = configuration.minimumOSVersion,
            let major = Int(version.split(separator: ".", omittingEmptySubsequences: false).first ?? "")
        else { return false }
        return major < 13
    }
}
