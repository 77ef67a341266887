import Foundation

/// The rules Core NFC applies from the app's Info.plist and entitlements
/// (``NFCSessionEnvironment/appConfiguration``).
enum AppRules {
    static var configuration: NFCAppConfiguration? { NFCSessionEnvironment.shared.appConfiguration }

    /// The error when there is no configuration: the files' problem when the environment names
    /// files that cannot be read, else how to give one.
    static var missing: NFCReaderError {
        if let problem = NFCSessionEnvironment.shared.configurationProblem {
            return NFCReaderError(.readerErrorSecurityViolation, reason: "no app configuration: \(problem)")
        }
        return NFCReaderError(
            .readerErrorSecurityViolation,
            reason:
                "no app configuration: set NFCSessionEnvironment.shared.appConfiguration or OPENCORENFC_INFO_PLIST (NFCReaderUsageDescription is required)"
        )
    }

    /// Why an NDEF session may not begin, if it may not.
    static func ndefSessionRefusal() -> NFCReaderError? {
        guard let configuration else { return missing }
        return configuration.checkCanBeginNDEFSession().map(error)
    }

    /// Why a tag session polling these technologies may not begin, if it may not.
    static func tagSessionRefusal(polling: NFCTagReaderSession.PollingOption) -> NFCReaderError? {
        guard let configuration else { return missing }
        var kinds: Set<NFCAppConfiguration.PollingKind> = []
        if polling.contains(.iso14443) { kinds.insert(.iso14443) }
        if polling.contains(.iso15693) { kinds.insert(.iso15693) }
        if polling.contains(.iso18092) { kinds.insert(.iso18092) }
        if polling.rawValue & 0x8 != 0 { kinds.insert(.pace) }
        return configuration.checkCanBeginTagSession(polling: kinds).map(error)
    }

    /// The AIDs a tag session SELECTs, in the app's order, payment AIDs removed.
    static func selectableAIDs(allowingPayment: Bool = false) -> [[UInt8]] {
        configuration?.selectableAIDs(allowingPayment: allowingPayment) ?? []
    }

    static func error(_ violation: NFCConfigurationViolation) -> NFCReaderError {
        let code: NFCReaderError.Code =
            switch violation.readerErrorCode {
            case .unsupportedFeature: .readerErrorUnsupportedFeature
            case .securityViolation: .readerErrorSecurityViolation
            case .invalidParameter: .readerErrorInvalidParameter
            }
        return NFCReaderError(code, reason: violation.message)
    }
}
