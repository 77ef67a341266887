import Foundation

/// The phone's answer to one ``NFCVASCommandConfiguration`` (Core NFC's `NFCVASResponse`, iOS 13).
@available(iOS 13.0, *)
open class NFCVASResponse: NSObject, NSCopying, @unchecked Sendable {
    /// The GET VAS DATA status word (Core NFC's `NFCVASErrorCode`; raw values are the status
    /// words, `NFCVASReaderSession.h`).
    public enum ErrorCode: Int, Sendable {
        /// `9000`: the pass was released.
        case success = 0x9000
        /// `6A83`: no pass with this merchant id on the phone.
        case dataNotFound = 0x6A83
        /// `6287`: a matching pass is not released yet (phone locked, authentication pending).
        case dataNotActivated = 0x6287
        /// `6B00`: wrong P1 or P2.
        case wrongParameters = 0x6B00
        /// `6700`: wrong length.
        case wrongLCField = 0x6700
        /// `6984`: the phone needs the user to act.
        case userIntervention = 0x6984
        /// `6A80`: malformed command data.
        case incorrectData = 0x6A80
        /// `6340`: a VAS version the phone does not speak.
        case unsupportedApplicationVersion = 0x6340

        /// The iOS 13 spelling of ``success``.
        @available(*, deprecated, renamed: "success") public static let VASErrorCodeSuccess = ErrorCode.success
        /// The iOS 13 spelling of ``dataNotFound``.
        @available(*, deprecated, renamed: "dataNotFound") public static let VASErrorCodeDataNotFound = ErrorCode.dataNotFound
        /// The iOS 13 spelling of ``dataNotActivated``.
        @available(*, deprecated, renamed: "dataNotActivated") public static let VASErrorCodeDataNotActivated = ErrorCode.dataNotActivated
        /// The iOS 13 spelling of ``wrongParameters``.
        @available(*, deprecated, renamed: "wrongParameters") public static let VASErrorCodeWrongParameters = ErrorCode.wrongParameters
        /// The iOS 13 spelling of ``wrongLCField``.
        @available(*, deprecated, renamed: "wrongLCField") public static let VASErrorCodeWrongLCField = ErrorCode.wrongLCField
        /// The iOS 13 spelling of ``userIntervention``.
        @available(*, deprecated, renamed: "userIntervention") public static let VASErrorCodeUserIntervention = ErrorCode.userIntervention
        /// The iOS 13 spelling of ``incorrectData``.
        @available(*, deprecated, renamed: "incorrectData") public static let VASErrorCodeIncorrectData = ErrorCode.incorrectData
        /// The iOS 13 spelling of ``unsupportedApplicationVersion``.
        @available(*, deprecated, renamed: "unsupportedApplicationVersion")
        public static let VASErrorCodeUnsupportedApplicationVersion = ErrorCode.unsupportedApplicationVersion
    }

    /// The status word of this pass's GET VAS DATA.
    public let status: ErrorCode
    /// The encrypted pass data (`9F27`): key id, the phone's one-time key, ciphertext and tag; the
    /// app decrypts it with its merchant key (docs/vas-protocol.md §7). Empty unless `status` is success in normal mode.
    public let vasData: Data
    /// The mobile token (`9F2A`); empty in every published exchange.
    public let mobileToken: Data

    init(status: ErrorCode, vasData: Data, mobileToken: Data) {
        self.status = status
        self.vasData = vasData
        self.mobileToken = mobileToken
        super.init()
    }

    /// A copy with the same status and data.
    open func copy(with zone: NSZone? = nil) -> Any {
        NFCVASResponse(status: status, vasData: vasData, mobileToken: mobileToken)
    }
}

/// The iOS 13 name of ``NFCVASResponse/ErrorCode``.
@available(*, deprecated, renamed: "NFCVASResponse.ErrorCode")
public typealias VASErrorCode = NFCVASResponse.ErrorCode
