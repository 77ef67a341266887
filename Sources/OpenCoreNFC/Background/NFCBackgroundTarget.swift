/// Where a background tag read goes.
public enum NFCBackgroundTarget: Sendable, Hashable, CustomStringConvertible {
    /// An installed app, by `TEAMID.bundle.identifier`: the URL is one of its universal links.
    case app(String)
    /// A system app handling a supported scheme.
    case system(NFCSystemApp)

    /// `app TEAMID.bundle.id` for an app, the system app's raw value (e.g. `safari`) otherwise.
    public var description: String {
        switch self {
        case .app(let appID): "app \(appID)"
        case .system(let app): app.rawValue
        }
    }
}

/// The system apps background tag reading hands URLs to (Apple, "Adding support for background
/// tag reading", the table of supported URI types).
public enum NFCSystemApp: String, Sendable, Hashable, CaseIterable {
    /// `http`/`https` that no installed app claims as a universal link.
    case safari
    /// `mailto:`.
    case mail
    /// `sms:`.
    case messages
    /// `tel:`.
    case phone
    /// `facetime:` and `facetime-audio:`.
    case facetime
    /// Apple Maps links: `http(s)://maps.apple.com/…`.
    case maps
    /// HomeKit accessory setup codes: `X-HM://…`.
    case home

    /// The system app for a scheme and host, `nil` when the scheme is not supported.
    static func handling(scheme: String, host: String?) -> NFCSystemApp? {
        switch scheme.lowercased() {
        case "http", "https": host?.lowercased() == "maps.apple.com" ? .maps : .safari
        case "mailto": .mail
        case "sms": .messages
        case "tel": .phone
        case "facetime", "facetime-audio": .facetime
        case "x-hm": .home
        default: nil
        }
    }
}
