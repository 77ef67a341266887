/// The 36 URI identifier codes that abbreviate a URI's beginning in a URI record.
///
/// NFC Forum URI Record Type Definition 1.0 §3.2.2 (Table 3). Codes 0x24–0xFF are reserved.
public enum URIPrefix: UInt8, CaseIterable, Sendable, Hashable {
    case none = 0x00
    case httpWWW = 0x01, httpsWWW, http, https, tel, mailto, ftpAnonymous, ftpFTP, ftps, sftp
    case smb, nfs, ftp, dav, news, telnet, imap, rtsp, urn, pop, sip, sips, tftp, btspp
    case btl2cap, btgoep, tcpobex, irdaobex, file, urnEPCID, urnEPCTag, urnEPCPat, urnEPCRaw
    case urnEPC, urnNFC

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
