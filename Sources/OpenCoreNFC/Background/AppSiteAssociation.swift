import Foundation

/// The `applinks` part of an `apple-app-site-association` file: which apps a domain's URLs open.
///
/// Both forms Apple has published are read (Apple, "Supporting associated domains"):
/// - current: `details[].appIDs` with `components` — dictionaries of `/` (path), `?` (query: a
///   pattern, or a dictionary of item name → value pattern), `#` (fragment), `exclude`,
///   `caseSensitive`, `percentEncoded`, and `defaults` for the last two;
/// - older: `details[].appID` with `paths` — patterns, `NOT ` in front to exclude.
///
/// Rules are tried in order and the first that matches decides; an excluding rule means the
/// app does not take the URL. An app not named in any detail does not take any URL.
public struct AppSiteAssociation: Sendable, Hashable {
    /// One app's (or several apps') rules.
    public struct Detail: Sendable, Hashable {
        /// `TEAMID.bundle.identifier` values.
        public var appIDs: [String]
        /// The rules, in order.
        var rules: [AppLinkRule]
    }

    /// The details, in file order.
    public var details: [Detail]

    /// Parses the JSON of an `apple-app-site-association` file.
    /// - Throws: ``AppSiteAssociationError`` naming the key path and what is wrong.
    public init(json data: Data) throws(AppSiteAssociationError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw AppSiteAssociationError(path: "", "not JSON: \(error.localizedDescription)")
        }
        try self.init(jsonObject: object)
    }

    /// Parses an already-decoded JSON object (as `JSONSerialization` gives it).
    public init(jsonObject: Any) throws(AppSiteAssociationError) {
        let root = try JSONShape.dictionary(jsonObject, at: "")
        let applinks = try JSONShape.dictionary(root["applinks"] ?? [String: Any](), at: "applinks")
        let globalDefaults = try AppLinkDefaults(applinks["defaults"], at: "applinks.defaults", inheriting: .standard)
        let entries = try JSONShape.array(applinks["details"] ?? [Any](), at: "applinks.details")
        var details: [Detail] = []
        for (index, entry) in entries.enumerated() {
            let path = "applinks.details[\(index)]"
            let detail = try JSONShape.dictionary(entry, at: path)
            var appIDs: [String] = []
            if let many = detail["appIDs"] {
                appIDs = try JSONShape.strings(many, at: "\(path).appIDs")
            }
            if let one = detail["appID"] {
                appIDs.append(try JSONShape.string(one, at: "\(path).appID"))
            }
            let defaults = try AppLinkDefaults(detail["defaults"], at: "\(path).defaults", inheriting: globalDefaults)
            var rules: [AppLinkRule] = []
            if let components = detail["components"] {
                for (position, component) in try JSONShape.array(components, at: "\(path).components").enumerated() {
                    rules.append(try AppLinkRule(component: component, at: "\(path).components[\(position)]", defaults: defaults))
                }
            } else if let paths = detail["paths"] {
                for pattern in try JSONShape.strings(paths, at: "\(path).paths") {
                    rules.append(AppLinkRule(legacyPath: pattern, defaults: defaults))
                }
            }
            details.append(Detail(appIDs: appIDs, rules: rules))
        }
        self.details = details
    }

    /// Whether the app `appID` takes `url` under this file's rules.
    public func allows(_ url: URLComponents, for appID: String) -> Bool {
        for detail in details where detail.appIDs.contains(appID) {
            for rule in detail.rules where rule.matches(url) {
                return !rule.excludes
            }
        }
        return false
    }
}

/// A malformed `apple-app-site-association` file: where (a key path such as
/// `applinks.details[0].components[2].?`) and what.
public struct AppSiteAssociationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path of the offending value, e.g. `applinks.details[0].appIDs`; empty when the file is not JSON at all.
    public let path: String
    /// What is wrong there, in English.
    public let reason: String

    init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or the reason alone when the path is empty.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// Type checks on decoded JSON that name the key path on failure.
enum JSONShape {
    static func dictionary(_ value: Any, at path: String) throws(AppSiteAssociationError) -> [String: Any] {
        guard let dictionary = value as? [String: Any] else { throw AppSiteAssociationError(path: path, "expected an object") }
        return dictionary
    }

    static func array(_ value: Any, at path: String) throws(AppSiteAssociationError) -> [Any] {
        guard let array = value as? [Any] else { throw AppSiteAssociationError(path: path, "expected an array") }
        return array
    }

    static func string(_ value: Any, at path: String) throws(AppSiteAssociationError) -> String {
        guard let string = value as? String else { throw AppSiteAssociationError(path: path, "expected a string") }
        return string
    }

    static func strings(_ value: Any, at path: String) throws(AppSiteAssociationError) -> [String] {
        var out: [String] = []
        for (index, item) in try array(value, at: path).enumerated() {
            out.append(try string(item, at: "\(path)[\(index)]"))
        }
        return out
    }

    static func bool(_ value: Any, at path: String) throws(AppSiteAssociationError) -> Bool {
        guard let flag = value as? Bool else { throw AppSiteAssociationError(path: path, "expected true or false") }
        return flag
    }
}
