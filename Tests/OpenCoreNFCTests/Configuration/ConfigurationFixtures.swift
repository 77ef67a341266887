import Foundation

/// Info.plist and entitlements files shaped like a real Xcode project's, for the Configuration suites.
enum ConfigurationFixtures {
    /// The Info.plist of an app that reads NDEF tags, YubiKeys (ISO 7816) and Suica cards (FeliCa).
    static let infoPlist = infoPlist(
        extra: """
            \t<key>NFCReaderUsageDescription</key>
            \t<string>Hold your iPhone near a tag to read the item it labels.</string>
            \t<key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key>
            \t<array>
            \t\t<string>D2760000850101</string>
            \t\t<string>A000000527471117</string>
            \t\t<string>A0000006472F0001</string>
            \t</array>
            \t<key>com.apple.developer.nfc.readersession.felica.systemcodes</key>
            \t<array>
            \t\t<string>0003</string>
            \t\t<string>fe00</string>
            \t</array>

            """)

    /// The entitlements file Xcode writes for the "Near Field Communication Tag Reading" capability,
    /// plus associated domains for universal links.
    static let entitlements = entitlements(
        extra: """
            \t<key>com.apple.developer.nfc.readersession.formats</key>
            \t<array>
            \t\t<string>TAG</string>
            \t</array>
            \t<key>com.apple.developer.associated-domains</key>
            \t<array>
            \t\t<string>applinks:tags.example.com</string>
            \t\t<string>webcredentials:example.com</string>
            \t</array>

            """)

    /// A typical Xcode Info.plist around `extra` (which sits inside the top-level dictionary).
    static func infoPlist(extra: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleDevelopmentRegion</key>
            \t<string>$(DEVELOPMENT_LANGUAGE)</string>
            \t<key>CFBundleExecutable</key>
            \t<string>$(EXECUTABLE_NAME)</string>
            \t<key>CFBundleIdentifier</key>
            \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>$(MARKETING_VERSION)</string>
            \t<key>LSRequiresIPhoneOS</key>
            \t<true/>
            \t<key>UIApplicationSceneManifest</key>
            \t<dict>
            \t\t<key>UIApplicationSupportsMultipleScenes</key>
            \t\t<false/>
            \t</dict>
            \t<key>UIRequiredDeviceCapabilities</key>
            \t<array>
            \t\t<string>armv7</string>
            \t\t<string>nfc</string>
            \t</array>
            \(extra)</dict>
            </plist>

            """.utf8)
    }

    /// A `.entitlements` file around `extra`.
    static func entitlements(extra: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>aps-environment</key>
            \t<string>development</string>
            \(extra)</dict>
            </plist>

            """.utf8)
    }

    /// One `<key>` with an array of strings, as Xcode writes it.
    static func stringArray(_ key: String, _ values: [String]) -> String {
        "\t<key>\(key)</key>\n\t<array>\n" + values.map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n"
    }

    /// One `<key>` with a string.
    static func string(_ key: String, _ value: String) -> String {
        "\t<key>\(key)</key>\n\t<string>\(value)</string>\n"
    }

    /// A binary property list of `dictionary`, as Xcode writes into a built bundle.
    static func binary(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }
}
