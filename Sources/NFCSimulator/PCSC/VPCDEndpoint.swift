/// Where vpcd listens for its card: a host and a TCP port (vsmartcard vpcd protocol; the Debian
/// `vsmartcard-vpcd` reader `Virtual PCD 00 00` listens on 35963, `… 00 01` on 35964).
public struct VPCDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// vpcd's first reader.
    public static let defaultPort: UInt16 = 35963
    /// The local host, where pcscd runs.
    public static let defaultHost = "127.0.0.1"

    /// A host name or numeric address (IPv6 without brackets).
    public var host: String
    /// The TCP port (``defaultPort``, 35963, for vpcd's first reader).
    public var port: UInt16

    /// An endpoint; by default vpcd's first reader on the local host, `127.0.0.1:35963`.
    public init(host: String = VPCDEndpoint.defaultHost, port: UInt16 = VPCDEndpoint.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`; `nil` when the host is empty or the port is not a
    /// number from 1 to 65535.
    public init?(parsing text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            // An IPv6 address needs brackets to be told from its port.
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace),
            !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
            portText.count <= 5, let port = UInt16(portText), port > 0
        else { return nil }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
