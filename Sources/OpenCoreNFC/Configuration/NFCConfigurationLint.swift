import Foundation

/// Checks an iOS app's NFC configuration (Info.plist and entitlements) for the mistakes that make
/// sessions fail or App Store Connect refuse the build; `nfc lint` prints its findings.
///
/// Usable from an app's own test suite too:
/// `#expect(NFCConfigurationLint.check(infoPlist: info, entitlements: rights).isEmpty)`.
public enum NFCConfigurationLint {
    /// Every problem found, in a stable order (files, Info.plist keys, then entitlements).
    ///
    /// Never throws: a file that cannot be read at all is one ``Code/unreadable`` error finding
    /// (and the other checks are skipped), a wrong-typed value is one ``Code/wrongType`` finding.
    ///
    /// - Parameters:
    ///   - infoPlist: the bytes of the app's `Info.plist`, XML or binary.
    ///   - entitlements: the bytes of its `.entitlements` file; nil skips the entitlement checks
    ///     (with a ``Code/entitlementsNotChecked`` note).
    ///   - sources: what the app's Swift sources show (``NFCAppSourceEvidence``); with it, the
    ///     findings that depend on what the app does become warnings or errors where the sources
    ///     show they matter, and go where they show they do not; without it they are notes.
    public static func check(infoPlist: Data, entitlements: Data?, sources: NFCAppSourceEvidence? = nil) -> [Finding] {
        var reader = PropertyListReader()
        let configuration = reader.read(infoPlist: infoPlist, entitlements: entitlements)
        if !reader.unreadableDocuments.isEmpty {
            return reader.errors.filter { reader.unreadableDocuments.contains($0.document) }.map(unreadable)
        }
        var findings = reader.errors.map { error in
            Finding(
                .error, .wrongType, key: error.key, "\(error.document): \(error.reason)",
                fix: "Give \(error.key ?? "the key") the type Apple documents for it")
        }
        let checks = LintChecks(
            configuration: configuration, badKeys: reader.badKeys, hasEntitlements: entitlements != nil, evidence: sources)
        findings += checks.run()
        return findings
    }

    /// Every problem found in the files at these locations; an unreadable file or sources folder
    /// is one finding.
    public static func check(infoPlistURL: URL, entitlementsURL: URL?, sourcesURL: URL? = nil) -> [Finding] {
        let info: Data
        do {
            info = try NFCAppConfiguration.contents(of: infoPlistURL, .infoPlist)
        } catch {
            return [unreadable(error)]
        }
        var rights: Data?
        if let entitlementsURL {
            do {
                rights = try NFCAppConfiguration.contents(of: entitlementsURL, .entitlements)
            } catch {
                return [unreadable(error)]
            }
        }
        var evidence: NFCAppSourceEvidence?
        if let sourcesURL {
            do {
                evidence = try NFCAppSourceEvidence(directory: sourcesURL)
            } catch {
                return [unreadable(error)]
            }
        }
        return check(infoPlist: info, entitlements: rights, sources: evidence)
    }

    /// The process exit status for `findings`: 0 when clean or with notes only, 1 for warnings,
    /// 2 for any error.
    public static func exitStatus(_ findings: [Finding]) -> Int32 {
        if findings.contains(where: { $0.severity == .error }) { return 2 }
        return findings.contains(where: { $0.severity == .warning }) ? 1 : 0
    }

    private static func unreadable(_ error: NFCConfigurationError) -> Finding {
        Finding(
            .error, .unreadable, key: nil, "\(error.document): \(error.reason)",
            fix: "Check the file with `plutil -lint`; it must be an XML or binary property list holding a dictionary")
    }
}
