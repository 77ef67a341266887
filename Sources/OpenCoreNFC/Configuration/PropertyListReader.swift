import Foundation

/// Reads the NFC keys out of an Info.plist and an entitlements file, collecting every problem.
///
/// Both XML and binary property lists are accepted (Foundation's `PropertyListSerialization`
/// reads both, on Linux too). A key holding a value of the wrong type is reported and then treated
/// as absent, so the initializer can throw the first problem while the lint reports them all.
struct PropertyListReader {
    /// The problems found, in the order they were found.
    private(set) var errors: [NFCConfigurationError] = []
    /// The documents that could not be read at all.
    private(set) var unreadableDocuments: Set<NFCConfigurationError.Document> = []
    /// The keys whose values had the wrong type.
    private(set) var badKeys: Set<String> = []

    /// Reads both documents into a configuration; an unreadable document contributes nothing.
    mutating func read(infoPlist: Data, entitlements: Data?) -> NFCAppConfiguration {
        typealias Keys = NFCAppConfiguration.Keys
        let info = dictionary(infoPlist, .infoPlist) ?? [:]
        let rights = entitlements.flatMap { dictionary($0, .entitlements) } ?? [:]
        var configuration = NFCAppConfiguration(
            usageDescription: string(Keys.usageDescription, in: info, .infoPlist),
            readerSessionFormatValues: strings(Keys.readerSessionFormats, in: rights, .entitlements),
            iso7816SelectIdentifierValues: strings(Keys.iso7816SelectIdentifiers, in: info, .infoPlist),
            felicaSystemCodeValues: strings(Keys.felicaSystemCodes, in: info, .infoPlist),
            associatedDomains: strings(Keys.associatedDomains, in: rights, .entitlements) ?? [],
            isAppExtension: info[Keys.appExtension] != nil,
            minimumOSVersion: string(Keys.minimumOSVersion, in: info, .infoPlist))
        configuration.cardEmulationEntitled = bool(Keys.cardEmulation, in: rights, .entitlements) ?? false
        configuration.cardEmulationPrefixValues = strings(Keys.cardEmulationSelectIdentifierPrefixes, in: info, .infoPlist)
        return configuration
    }

    /// A Boolean value, or nil when absent or of the wrong type (recorded).
    private mutating func bool(_ key: String, in dictionary: [String: Any], _ document: NFCConfigurationError.Document) -> Bool? {
        guard let value = dictionary[key] else { return nil }
        if let flag = value as? Bool { return flag }
        wrongType(key, document, "expected a Boolean, found \(kind(of: value))")
        return nil
    }

    /// The top-level dictionary of a property list, or nil (with the reason recorded).
    private mutating func dictionary(_ data: Data, _ document: NFCConfigurationError.Document) -> [String: Any]? {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            fail(
                NFCConfigurationError(
                    .unreadablePropertyList, in: document,
                    "not a readable XML or binary property list (\(data.count) bytes)"))
            return nil
        }
        if let dictionary = root as? [String: Any] { return dictionary }
        if let dictionary = root as? [AnyHashable: Any] {
            // Keys are always strings in a property list; keep the ones that are.
            var result: [String: Any] = [:]
            for (key, value) in dictionary { if let key = key as? String { result[key] = value } }
            return result
        }
        fail(
            NFCConfigurationError(
                .notADictionary, in: document, "the top level is \(kind(of: root)), not a dictionary"))
        return nil
    }

    private mutating func fail(_ error: NFCConfigurationError) {
        errors.append(error)
        unreadableDocuments.insert(error.document)
    }

    /// A string value, or nil when absent or of the wrong type (recorded).
    private mutating func string(
        _ key: String, in dictionary: [String: Any], _ document: NFCConfigurationError.Document
    ) -> String? {
        guard let value = dictionary[key] else { return nil }
        if let text = value as? String { return text }
        wrongType(key, document, "expected a string, found \(kind(of: value))")
        return nil
    }

    /// An array of strings, or nil when absent or of the wrong type (recorded, with the index).
    private mutating func strings(
        _ key: String, in dictionary: [String: Any], _ document: NFCConfigurationError.Document
    ) -> [String]? {
        guard let value = dictionary[key] else { return nil }
        guard let array = value as? [Any] else {
            wrongType(key, document, "expected an array of strings, found \(kind(of: value))")
            return nil
        }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element as? String else {
                wrongType(key, document, "item \(index) is \(kind(of: element)), not a string")
                return nil
            }
            result.append(text)
        }
        return result
    }

    private mutating func wrongType(_ key: String, _ document: NFCConfigurationError.Document, _ reason: String) {
        errors.append(NFCConfigurationError(.wrongType, in: document, key: key, reason))
        badKeys.insert(key)
    }

    /// The property-list type name of a value, for messages.
    private func kind(of value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [AnyHashable: Any]: return "a dictionary"
        case is Data: return "data"
        case is Date: return "a date"
        case is Bool: return "a boolean or number"
        case is NSNumber, is Int, is Double: return "a number"
        default: return "a \(type(of: value))"
        }
    }
}
