import Foundation

extension NFCAppConfiguration {
    /// Reads the configuration from an Info.plist and an entitlements file, XML or binary.
    ///
    /// Keys that are not about NFC are ignored; a known key with a value of the wrong type is an
    /// error, not silently skipped.
    ///
    /// - Parameters:
    ///   - infoPlist: the bytes of the app's `Info.plist`.
    ///   - entitlements: the bytes of the app's `.entitlements` file; nil when it has none.
    /// - Throws: ``NFCConfigurationError`` naming the file, and the key for a wrong-typed value:
    ///   the first problem found, Info.plist first.
    public init(infoPlist: Data, entitlements: Data?) throws(NFCConfigurationError) {
        var reader = PropertyListReader()
        let configuration = reader.read(infoPlist: infoPlist, entitlements: entitlements)
        if let first = reader.errors.first { throw first }
        self = configuration
    }

    /// Reads the configuration from files on disk.
    ///
    /// - Parameters:
    ///   - infoPlistURL: the app's `Info.plist`.
    ///   - entitlementsURL: the app's `.entitlements` file; nil when it has none.
    /// - Throws: ``NFCConfigurationError`` with ``NFCConfigurationError/Code/unreadableFile`` when a
    ///   file cannot be read, or any error of ``init(infoPlist:entitlements:)``.
    public init(infoPlistURL: URL, entitlementsURL: URL?) throws(NFCConfigurationError) {
        let info = try Self.contents(of: infoPlistURL, .infoPlist)
        let rights = try entitlementsURL.map { url throws(NFCConfigurationError) in try Self.contents(of: url, .entitlements) }
        try self.init(infoPlist: info, entitlements: rights)
    }

    /// The bytes of a file, or an ``NFCConfigurationError/Code/unreadableFile`` error.
    static func contents(of url: URL, _ document: NFCConfigurationError.Document) throws(NFCConfigurationError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw NFCConfigurationError(.unreadableFile, in: document, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}
