/// One `applinks:` entry of an app's Associated Domains entitlement
/// (`com.apple.developer.associated-domains`): `applinks:example.com`, `applinks:*.example.com`
/// (every subdomain, not the domain itself), optionally `?mode=developer` or `?mode=managed`.
///
/// Apple, "Supporting associated domains" — "Add the associated domains entitlement".
public struct AssociatedDomain: Sendable, Hashable, CustomStringConvertible {
    /// Where the system may use the domain.
    public enum Mode: String, Sendable, Hashable {
        /// Always.
        case standard
        /// Only on a device in developer mode (the file is fetched from the server directly).
        case developer
        /// Only on a managed (MDM) device.
        case managed
    }

    /// The host, lower-cased, without the `*.` of a wildcard entry.
    public let host: String
    /// `*.host`: any subdomain of ``host`` matches, ``host`` itself does not.
    public let isWildcard: Bool
    /// The entry's mode.
    public let mode: Mode

    /// Parses one entitlement value; `nil` for services other than `applinks:` and for malformed
    /// entries (they are reported by `nfc lint`, and ignored here as iOS ignores them).
    public init?(entitlement value: String) {
        guard value.hasPrefix("applinks:") else { return nil }
        var rest = Substring(value.dropFirst("applinks:".count))
        var mode = Mode.standard
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            rest = rest[..<question]
            guard query.hasPrefix("mode="), let parsed = Mode(rawValue: String(query.dropFirst("mode=".count))),
                parsed != .standard
            else { return nil }
            mode = parsed
        }
        var host = rest.lowercased()
        let wildcard = host.hasPrefix("*.")
        if wildcard { host.removeFirst(2) }
        // A host is labels of letters, digits and hyphens, a port allowed (`example.com:8080`).
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.:")
        guard !host.isEmpty, host.allSatisfy(allowed.contains), !host.hasPrefix("."), !host.hasSuffix("."),
            !host.contains("..")
        else { return nil }
        self.host = host
        self.isWildcard = wildcard
        self.mode = mode
    }

    /// Whether a URL's host is covered by this entry (hosts compare without case).
    public func covers(host candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        if isWildcard { return candidate.hasSuffix("." + host) }
        return candidate == host
    }

    /// Whether the entry is in force on a device in `state`.
    func applies(in state: NFCBackgroundDeviceState) -> Bool {
        switch mode {
        case .standard: true
        case .developer: state.contains(.developerMode)
        case .managed: state.contains(.managedDevice)
        }
    }

    /// The entitlement string: `applinks:` and the host, `*.` before it for a wildcard, `?mode=developer` or `?mode=managed` after it.
    public var description: String {
        "applinks:" + (isWildcard ? "*." : "") + host + (mode == .standard ? "" : "?mode=\(mode.rawValue)")
    }
}
