/// The 36 URI identifier codes that abbreviate a URI's beginning in a URI record.
///
/// NFC Forum URI Record Type Definition 1.0 §3.2.2 (Table 3). Codes 0x24–0xFF are reserved.
public enum URIPrefix: UInt8, CaseIterable, Sendable, Hashable {
    /// 0x00: no abbreviation; the record holds the whole URI.
    case none = 0x00
    /// 0x01: `http://www.`.
    case httpWWW = 0x01
    /// 0x02: `https://www.`.
    case httpsWWW
    /// 0x03: `http://`.
    case http
    /// 0x04: `https://`.
    case https
    /// 0x05: `tel:`.
    case tel
    /// 0x06: `mailto:`.
    case mailto
    /// 0x07: `ftp://anonymous:anonymous@`.
    case ftpAnonymous
    /// 0x08: `ftp://ftp.`.
    case ftpFTP
    /// 0x09: `ftps://`.
    case ftps
    /// 0x0A: `sftp://`.
    case sftp
    /// 0x0B: `smb://`.
    case smb
    /// 0x0C: `nfs://`.
    case nfs
    /// 0x0D: `ftp://`.
    case ftp
    /// 0x0E: `dav://`.
    case dav
    /// 0x0F: `news:`.
    case news
    /// 0x10: `telnet://`.
    case telnet
    /// 0x11: `imap:`.
    case imap
    /// 0x12: `rtsp://`.
    case rtsp
    /// 0x13: `urn:`.
    case urn
    /// 0x14: `pop:`.
    case pop
    /// 0x15: `sip:`.
    case sip
    /// 0x16: `sips:`.
    case sips
    /// 0x17: `tftp:`.
    case tftp
    /// 0x18: `btspp://`.
    case btspp
    /// 0x19: `btl2cap://`.
    case btl2cap
    /// 0x1A: `btgoep://`.
    case btgoep
    /// 0x1B: `tcpobex://`.
    case tcpobex
    /// 0x1C: `irdaobex://`.
    case irdaobex
    /// 0x1D: `file://`.
    case file
    /// 0x1E: `urn:epc:id:`.
    case urnEPCID
    /// 0x1F: `urn:epc:tag:`.
    case urnEPCTag
    /// 0x20: `urn:epc:pat:`.
    case urnEPCPat
    /// 0x21: `urn:epc:raw:`.
    case urnEPCRaw
    /// 0x22: `urn:epc:`.
    case urnEPC
    /// 0x23: `urn:nfc:`.
    case urnNFC

    /// The text the code stands for.
    public var string: String { Self.strings[Int(rawValue)] }

    private static let strings: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://",
        "ftp://", "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:",
        "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://",
        "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:",
        "urn:nfc:",
    ]

    /// The prefixes as UTF-8, longest first, for matching when encoding.
    private static let byLength: [(URIPrefix, [UInt8])] = allCases.dropFirst()
        .map { ($0, Array($0.string.utf8)) }
        .sorted { $0.1.count > $1.1.count }

    /// The longest prefix `uri` starts with (case-sensitive, as the table is written), or `.none`.
    public static func longestMatch(for uri: String) -> URIPrefix {
        let utf8 = uri.utf8
        for (prefix, bytes) in byLength where utf8.starts(with: bytes) {
            return prefix
        }
        return .none
    }
}
