import OpenCoreNFC
import Testing

/// The rules sessions apply before they begin, and the reader-error codes they report.
@Suite struct ConfigurationRulesTests {
    typealias Violation = NFCConfigurationViolation

    /// A complete configuration for an app that reads ISO 7816 and FeliCa tags.
    static let complete = NFCAppConfiguration(
        usageDescription: "Reads tags", readerSessionFormats: [.tag],
        iso7816SelectIdentifiers: ["D2760000850101"], felicaSystemCodes: ["0003"])

    @Test func aCompleteConfigurationAllowsEverySession() {
        #expect(Self.complete.checkCanBeginNDEFSession() == nil)
        #expect(Self.complete.checkCanBeginTagSession(polling: Set(NFCAppConfiguration.PollingKind.allCases)) == nil)
        #expect(Self.complete.checkCanDetectISO7816Tag() == nil)
    }

    @Test func readerErrorCodesHaveApplesRawValues() {
        #expect(Violation.ReaderErrorCode.unsupportedFeature.rawValue == 1)
        #expect(Violation.ReaderErrorCode.securityViolation.rawValue == 2)
        #expect(Violation.ReaderErrorCode.invalidParameter.rawValue == 3)
    }

    // MARK: NDEF sessions

    @Test func ndefSessionNeedsAUsageDescription() {
        var configuration = Self.complete
        configuration.usageDescription = nil
        #expect(configuration.checkCanBeginNDEFSession()?.kind == .missingUsageDescription)
        configuration.usageDescription = ""
        let violation = configuration.checkCanBeginNDEFSession()
        #expect(violation?.kind == .missingUsageDescription)
        #expect(violation?.readerErrorCode == .securityViolation)
        #expect(violation?.message.contains("NFCReaderUsageDescription") == true)
    }

    @Test func ndefSessionNeedsTheFormatsEntitlement() {
        var configuration = Self.complete
        configuration.readerSessionFormatValues = nil
        #expect(configuration.checkCanBeginNDEFSession()?.kind == .missingFormat)
        configuration.readerSessionFormatValues = ["PACE"]
        #expect(configuration.checkCanBeginNDEFSession()?.readerErrorCode == .securityViolation)
    }

    @Test func ndefSessionAcceptsTagOrTheLegacyNDEF() {
        var configuration = Self.complete
        configuration.readerSessionFormatValues = ["TAG"]
        #expect(configuration.checkCanBeginNDEFSession() == nil)
        configuration.readerSessionFormatValues = ["NDEF"]
        #expect(configuration.checkCanBeginNDEFSession() == nil)
    }

    @Test func noSessionInAnAppExtension() {
        var configuration = Self.complete
        configuration.isAppExtension = true
        #expect(configuration.checkCanBeginNDEFSession()?.kind == .appExtension)
        let violation = configuration.checkCanBeginTagSession(polling: [.iso14443])
        #expect(violation?.kind == .appExtension)
        #expect(violation?.readerErrorCode == .unsupportedFeature)
    }

    // MARK: Tag sessions

    @Test func tagSessionNeedsTag() {
        var configuration = Self.complete
        configuration.readerSessionFormatValues = ["NDEF"]
        let violation = configuration.checkCanBeginTagSession(polling: [.iso14443])
        #expect(violation?.kind == .missingFormat)
        #expect(violation?.readerErrorCode == .securityViolation)
    }

    @Test func tagSessionNeedsAUsageDescription() {
        var configuration = Self.complete
        configuration.usageDescription = nil
        #expect(configuration.checkCanBeginTagSession(polling: [.iso15693])?.kind == .missingUsageDescription)
    }

    @Test func tagSessionMustPollForSomething() {
        let violation = Self.complete.checkCanBeginTagSession(polling: [])
        #expect(violation?.kind == .emptyPolling)
        #expect(violation?.readerErrorCode == .invalidParameter)
    }

    @Test func pollingFeliCaNeedsASystemCode() {
        var configuration = Self.complete
        configuration.felicaSystemCodeValues = nil
        #expect(configuration.checkCanBeginTagSession(polling: [.iso18092])?.kind == .missingSystemCodes)
        configuration.felicaSystemCodeValues = ["3"]  // malformed: not usable
        #expect(configuration.checkCanBeginTagSession(polling: [.iso18092])?.kind == .missingSystemCodes)
        #expect(configuration.checkCanBeginTagSession(polling: [.iso14443, .iso15693]) == nil)
    }

    @Test func pollingFeliCaRefusesTheWildcard() {
        var configuration = Self.complete
        configuration.felicaSystemCodeValues = ["0003", "ffff"]
        let violation = configuration.checkCanBeginTagSession(polling: [.iso18092])
        #expect(violation?.kind == .wildcardSystemCode)
        #expect(violation?.readerErrorCode == .securityViolation)
    }

    @Test func pacePollingNeedsASelectableAID() {
        var configuration = Self.complete
        configuration.iso7816SelectIdentifierValues = ["A0000000031010"]  // Visa only: nothing selectable
        #expect(configuration.checkCanBeginTagSession(polling: [.pace])?.kind == .missingSelectIdentifier)
        #expect(configuration.checkCanBeginTagSession(polling: [.iso14443]) == nil)
    }

    @Test func iso7816TagsNeedASelectableAID() {
        var configuration = Self.complete
        configuration.iso7816SelectIdentifierValues = nil
        let violation = configuration.checkCanDetectISO7816Tag()
        #expect(violation?.kind == .missingSelectIdentifier)
        #expect(violation?.readerErrorCode == .securityViolation)
    }

    @Test func onlyDeclaredNonPaymentAIDsMayBeSelected() {
        let configuration = NFCAppConfiguration(
            usageDescription: "Reads tags", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: ["D2760000850101", "A0000000031010"])
        #expect(configuration.checkCanSelect(aid: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]) == nil)
        #expect(configuration.checkCanSelect(aid: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10])?.kind == .missingSelectIdentifier)
        #expect(configuration.checkCanSelect(aid: Array("2PAY.SYS.DDF01".utf8))?.kind == .missingSelectIdentifier)
        #expect(configuration.checkCanSelect(aid: [])?.kind == .missingSelectIdentifier)
    }

    // MARK: Selectable AIDs

    @Test func selectableAIDsKeepOrderAndDropRepeatsAndPaymentAIDs() {
        let configuration = NFCAppConfiguration(iso7816SelectIdentifiers: [
            "A000000527471117", "A0000000041010", "D2760000850101", "a000000527471117", "nothex", "A000000308",
        ])
        #expect(
            configuration.selectableAIDs == [
                [0xA0, 0x00, 0x00, 0x05, 0x27, 0x47, 0x11, 0x17],
                [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01],
                [0xA0, 0x00, 0x00, 0x03, 0x08],
            ])
    }

    @Test(arguments: [
        ("A0000000031010", "Visa"), ("A0000000032010", "Visa"), ("A000000003", "Visa"),
        ("A0000000041010", "Mastercard"), ("A0000000043060", "Mastercard"),
        ("A00000002501", "American Express"),
        ("A0000000651010", "JCB"),
        ("A0000001523010", "Diners Club/Discover"),
        ("A000000333010101", "UnionPay"),
        ("325041592E5359532E4444463031", "2PAY.SYS.DDF01"),
        ("315041592E5359532E4444463031", "1PAY.SYS.DDF01"),
        ("325041592E535953", "2PAY.SYS.DDF01"),  // a right-truncated DF name selects the directory
    ])
    func paymentAIDsAreNotSelectable(aid: String, application: String) {
        let configuration = NFCAppConfiguration(iso7816SelectIdentifiers: [aid])
        #expect(configuration.iso7816SelectIdentifiers.count == 1)
        #expect(configuration.selectableAIDs.isEmpty)
        let name = NFCAppConfiguration.paymentApplication(for: configuration.iso7816SelectIdentifiers[0])
        #expect(name?.hasPrefix(application) == true)
    }

    @Test(arguments: [
        "D2760000850101",  // NFC Forum Type 4 NDEF application
        "A000000308",  // PIV (NIST)
        "A0000005272101",  // Yubico OATH
        "A0000006472F0001",  // FIDO
        "A0000001510000",  // GlobalPlatform card manager: next to Discover's A000000152, not in it
    ])
    func otherAIDsAreSelectable(aid: String) {
        let configuration = NFCAppConfiguration(iso7816SelectIdentifiers: [aid])
        #expect(configuration.selectableAIDs.count == 1)
    }
}
