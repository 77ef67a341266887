/// A credential's name as the applet stores it, read as YubiKey clients write it:
/// `[period/][issuer:]account` for TOTP (the period only when not 30 s), `[issuer:]account`
/// for HOTP. The applet itself treats names as opaque bytes (at most 64).
public struct OATHCredentialName: Sendable, Hashable, CustomStringConvertible {
    /// The TOTP period when none is written in the name.
    public static let defaultPeriod = 30
    /// The most bytes a name may have (YKOATH, PUT: "max 64 bytes").
    public static let maximumLength = 64

    /// The issuer (the text before the first `:`, after any period), when the name has one.
    public var issuer: String?
    /// The account: what follows the period and the issuer in the stored name.
    public var account: String
    /// The TOTP time step in seconds (30 unless the name starts with `N/`); unused for HOTP.
    public var period: Int

    /// A name with these parts; by default no issuer and a 30-second period.
    public init(issuer: String? = nil, account: String, period: Int = OATHCredentialName.defaultPeriod) {
        self.issuer = issuer
        self.account = account
        self.period = period
    }

    /// Reads a stored name. Bytes that are not UTF-8 are decoded with replacement characters
    /// (the raw bytes stay in ``OATHCredential/id``).
    public init(parsing id: [UInt8], type: OATHType) {
        let text = String(decoding: id, as: UTF8.self)
        var rest = Substring(text)
        var period = Self.defaultPeriod
        if type == .totp, let slash = rest.firstIndex(of: "/") {
            let digits = rest[rest.startIndex..<slash]
            // Only a leading run of decimal digits followed by more text is a period.
            if !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(digits), value > 0, rest.index(after: slash) < rest.endIndex
            {
                period = value
                rest = rest[rest.index(after: slash)...]
            }
        }
        var issuer: String?
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex, rest.index(after: colon) < rest.endIndex {
            issuer = String(rest[rest.startIndex..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        self.init(issuer: issuer, account: String(rest), period: period)
    }

    /// The bytes stored on the applet for a credential of this type.
    public func encoded(type: OATHType) -> [UInt8] {
        var text = ""
        if type == .totp && period != Self.defaultPeriod { text += "\(period)/" }
        if let issuer, !issuer.isEmpty { text += issuer + ":" }
        text += account
        return Array(text.utf8)
    }

    /// `issuer:account` (or the account alone).
    public var description: String {
        if let issuer { return "\(issuer):\(account)" }
        return account
    }
}
