/// Parsing the FeliCa system codes an Info.plist declares.
enum FeliCaSystemCode {
    /// The wildcard system code, which matches any card in a FeliCa polling command (JIS X 6319-4);
    /// Apple's reference for the system-codes key does not allow it.
    static let wildcard: UInt16 = 0xFFFF

    /// Whether a system code holds the wildcard `FF` in either byte (`88FF`, `FFB4`, `FFFF`):
    /// a polling command with it matches a whole group of systems (JIS X 6319-4, Polling's system
    /// code field, where `FF` in a byte matches any value of that byte). Apple's reference for the
    /// system-codes key: "the wildcard system code (FF) is not allowed" — in either byte.
    static func hasWildcard(_ code: UInt16) -> Bool {
        code >> 8 == 0xFF || code & 0xFF == 0xFF
    }

    /// The system code a declared string names: exactly 4 hex digits, either case; nil otherwise.
    static func parse(_ text: String) -> UInt16? {
        let digits = Array(text.utf8)
        guard digits.count == 4 else { return nil }
        var value: UInt16 = 0
        for c in digits {
            guard let nibble = ApplicationIdentifier.hexValue(c) else { return nil }
            value = value << 4 | UInt16(nibble)
        }
        return value
    }
}
