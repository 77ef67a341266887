import Foundation
import OpenCoreNFC

/// The apps, association files and handlers `nfc dispatch` and `nfc watch` use (docs/background.md):
///
/// ```json
/// {"apps": [{"appID": "ABCDE12345.com.example.shop",
///            "associatedDomains": ["applinks:shop.example.com"],
///            "handler": ["/usr/local/bin/open-shop", "--url", "{url}"]}],
///  "associations": {"shop.example.com": {"applinks": {"details": […]}},
///                   "news.example": "news-aasa.json"},
///  "handlers": {"safari": ["xdg-open"], "mail": ["thunderbird", "-compose"]}}
/// ```
/// An association is the file's JSON inline or a path (relative to the configuration file).
/// A handler is an argument vector run without a shell: `{url}` arguments are replaced by the
/// URL, and without one the URL is appended as the last argument.
package struct BackgroundConfiguration: Sendable {
    /// The background tag reader the apps and associations configure.
    package var reader: NFCBackgroundTagReader
    /// The command for each app (by app ID) or system app (by `NFCSystemApp` raw value).
    package var handlers: [String: [String]]

    /// No apps, no associations, no handlers.
    package static let empty = BackgroundConfiguration(reader: NFCBackgroundTagReader(), handlers: [:])

    /// The handler for a target, if one is configured.
    package func handler(for target: NFCBackgroundTarget) -> [String]? {
        switch target {
        case .app(let appID): handlers["app:" + appID]
        case .system(let app): handlers[app.rawValue]
        }
    }

    /// Initializes a configuration from its parts.
    package init(reader: NFCBackgroundTagReader, handlers: [String: [String]]) {
        self.reader = reader
        self.handlers = handlers
    }

    /// Parses a configuration; association files named by path are read through `readFile`
    /// (relative paths against `directory`). The module needs only Foundation and OpenCoreNFC,
    /// so the `config` fuzz target compiles it as it ships (docs/fuzzing.md).
    ///
    /// Foundation's `JSONSerialization` reads it: key order does not matter here, and the
    /// `nfc` tool checks the syntax with `NFCJSON` first so that a broken file says where.
    /// - Throws: ``BackgroundConfigurationError`` naming the key path of what is wrong.
    package static func parse(
        _ data: Data, relativeTo directory: URL, readFile: (URL) -> Data? = { FileManager.default.contents(atPath: $0.path) }
    ) throws -> BackgroundConfiguration {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw BackgroundConfigurationError("", "expected a JSON object at the top level")
        }
        let known: Set<String> = ["apps", "associations", "handlers"]
        if let unknown = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw BackgroundConfigurationError(unknown, "unknown key (expected apps, associations, handlers)")
        }
        var apps: [NFCBackgroundApp] = []
        var handlers: [String: [String]] = [:]
        guard let appList = (root["apps"] ?? [Any]()) as? [Any] else { throw BackgroundConfigurationError("apps", "expected an array") }
        for (index, item) in appList.enumerated() {
            let path = "apps[\(index)]"
            guard let app = item as? [String: Any] else { throw BackgroundConfigurationError(path, "expected an object") }
            guard let appID = app["appID"] as? String, !appID.isEmpty else {
                throw BackgroundConfigurationError("\(path).appID", "expected a TEAMID.bundle.identifier string")
            }
            guard let domains = (app["associatedDomains"] ?? [String]()) as? [String] else {
                throw BackgroundConfigurationError("\(path).associatedDomains", "expected an array of strings")
            }
            for (position, domain) in domains.enumerated()
            where domain.hasPrefix("applinks:") && AssociatedDomain(entitlement: domain) == nil {
                throw BackgroundConfigurationError("\(path).associatedDomains[\(position)]", "\"\(domain)\" is not a valid applinks: entry")
            }
            apps.append(NFCBackgroundApp(appID: appID, associatedDomains: domains))
            if let handler = app["handler"] {
                handlers["app:" + appID] = try command(handler, at: "\(path).handler")
            }
        }
        guard let associationTable = (root["associations"] ?? [String: Any]()) as? [String: Any] else {
            throw BackgroundConfigurationError("associations", "expected an object of domain → file")
        }
        var associations: [String: AppSiteAssociation] = [:]
        for (domain, value) in associationTable {
            let path = "associations.\(domain)"
            do {
                if let file = value as? String {
                    let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
                    guard let bytes = readFile(url) else {
                        throw BackgroundConfigurationError(path, "cannot read \(url.path)")
                    }
                    associations[domain] = try AppSiteAssociation(json: bytes)
                } else {
                    associations[domain] = try AppSiteAssociation(jsonObject: value)
                }
            } catch let error as AppSiteAssociationError {
                throw BackgroundConfigurationError(path, error.description)
            }
        }
        guard let handlerTable = (root["handlers"] ?? [String: Any]()) as? [String: Any] else {
            throw BackgroundConfigurationError("handlers", "expected an object of system app → command")
        }
        for (name, value) in handlerTable {
            guard NFCSystemApp(rawValue: name) != nil else {
                let names = NFCSystemApp.allCases.map(\.rawValue).joined(separator: ", ")
                throw BackgroundConfigurationError(
                    "handlers.\(name)", "unknown system app (one of \(names); app handlers go in apps[].handler)")
            }
            handlers[name] = try command(value, at: "handlers.\(name)")
        }
        return BackgroundConfiguration(reader: NFCBackgroundTagReader(apps: apps, associations: associations), handlers: handlers)
    }

    private static func command(_ value: Any, at path: String) throws -> [String] {
        guard let argv = value as? [String], let program = argv.first, !program.isEmpty else {
            throw BackgroundConfigurationError(path, "expected a non-empty array of strings: the program and its arguments")
        }
        return argv
    }
}
