import Foundation

/// `defaults` of an apple-app-site-association file: how patterns compare unless a component
/// says otherwise. Apple's defaults: case-sensitive, percent-encoded.
struct AppLinkDefaults: Sendable, Hashable {
    var caseSensitive: Bool
    var percentEncoded: Bool

    static let standard = AppLinkDefaults(caseSensitive: true, percentEncoded: true)

    init(caseSensitive: Bool, percentEncoded: Bool) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// Reads a `defaults` object (absent: the inherited values).
    init(_ value: Any?, at path: String, inheriting base: AppLinkDefaults) throws(AppSiteAssociationError) {
        self = base
        guard let value else { return }
        let object = try JSONShape.dictionary(value, at: path)
        if let flag = object["caseSensitive"] { caseSensitive = try JSONShape.bool(flag, at: "\(path).caseSensitive") }
        if let flag = object["percentEncoded"] { percentEncoded = try JSONShape.bool(flag, at: "\(path).percentEncoded") }
    }
}

/// One rule of a detail: a `components` entry or an older `paths` pattern.
struct AppLinkRule: Sendable, Hashable {
    /// What the query must look like.
    enum QueryRule: Sendable, Hashable {
        /// Any query, or none.
        case any
        /// The whole query string (without `?`; empty when there is none) matches.
        case pattern(WildcardPattern)
        /// Each named item is present and its value (empty when it has none) matches.
        case items([String: WildcardPattern])
    }

    var path: WildcardPattern?
    var query: QueryRule
    var fragment: WildcardPattern?
    var excludes: Bool
    var percentEncoded: Bool

    /// A `components` entry.
    init(component value: Any, at path: String, defaults: AppLinkDefaults) throws(AppSiteAssociationError) {
        let object = try JSONShape.dictionary(value, at: path)
        var settings = defaults
        if let flag = object["caseSensitive"] { settings.caseSensitive = try JSONShape.bool(flag, at: "\(path).caseSensitive") }
        if let flag = object["percentEncoded"] { settings.percentEncoded = try JSONShape.bool(flag, at: "\(path).percentEncoded") }
        let sensitive = settings.caseSensitive
        self.path = try object["/"].map { value throws(AppSiteAssociationError) in
            WildcardPattern(try JSONShape.string(value, at: "\(path)./"), caseSensitive: sensitive)
        }
        self.fragment = try object["#"].map { value throws(AppSiteAssociationError) in
            WildcardPattern(try JSONShape.string(value, at: "\(path).#"), caseSensitive: sensitive)
        }
        switch object["?"] {
        case nil:
            query = .any
        case let text as String:
            query = .pattern(WildcardPattern(text, caseSensitive: sensitive))
        case let items as [String: Any]:
            var rules: [String: WildcardPattern] = [:]
            for (name, pattern) in items {
                rules[name] = WildcardPattern(try JSONShape.string(pattern, at: "\(path).?.\(name)"), caseSensitive: sensitive)
            }
            query = .items(rules)
        default:
            throw AppSiteAssociationError(path: "\(path).?", "expected a pattern string or an object of query item patterns")
        }
        excludes =
            try object["exclude"].map { value throws(AppSiteAssociationError) in try JSONShape.bool(value, at: "\(path).exclude") } ?? false
        percentEncoded = settings.percentEncoded
    }

    /// An older `paths` entry: a path pattern, `NOT ` in front to exclude.
    init(legacyPath text: String, defaults: AppLinkDefaults) {
        let excluding = text.hasPrefix("NOT ")
        path = WildcardPattern(excluding ? String(text.dropFirst(4)) : text, caseSensitive: defaults.caseSensitive)
        query = .any
        fragment = nil
        excludes = excluding
        percentEncoded = defaults.percentEncoded
    }

    /// Whether every part the rule names matches the URL.
    func matches(_ url: URLComponents) -> Bool {
        if let path {
            let subject = percentEncoded ? url.percentEncodedPath : url.path
            guard path.matches(subject.isEmpty ? "/" : subject) else { return false }
        }
        switch query {
        case .any:
            break
        case .pattern(let pattern):
            guard pattern.matches((percentEncoded ? url.percentEncodedQuery : url.query) ?? "") else { return false }
        case .items(let rules):
            let items = (percentEncoded ? url.percentEncodedQueryItems : url.queryItems) ?? []
            for (name, pattern) in rules {
                guard items.contains(where: { $0.name == name && pattern.matches($0.value ?? "") }) else { return false }
            }
        }
        if let fragment {
            guard fragment.matches((percentEncoded ? url.percentEncodedFragment : url.fragment) ?? "") else { return false }
        }
        return true
    }
}
