import Foundation
import OpenCoreNFC
import Testing

/// Reading NFCAppConfiguration from XML and binary property lists, from files, and from bad input.
@Suite struct ConfigurationPropertyListTests {
    typealias Keys = NFCAppConfiguration.Keys

    @Test func readsAnXcodeInfoPlistAndEntitlements() throws {
        let configuration = try NFCAppConfiguration(
            infoPlist: ConfigurationFixtures.infoPlist, entitlements: ConfigurationFixtures.entitlements)
        #expect(configuration.usageDescription == "Hold your iPhone near a tag to read the item it labels.")
        #expect(configuration.readerSessionFormatValues == ["TAG"])
        #expect(configuration.iso7816SelectIdentifierValues == ["D2760000850101", "A000000527471117", "A0000006472F0001"])
        #expect(configuration.felicaSystemCodeValues == ["0003", "fe00"])
        #expect(configuration.associatedDomains == ["applinks:tags.example.com", "webcredentials:example.com"])
        #expect(!configuration.isAppExtension)
        #expect(configuration.minimumOSVersion == nil)
    }

    @Test func readsABinaryPropertyList() throws {
        let info = try ConfigurationFixtures.binary([
            "CFBundleIdentifier": "com.example.reader",
            "MinimumOSVersion": "15.0",
            Keys.usageDescription: "Reads tags",
            Keys.iso7816SelectIdentifiers: ["D2760000850101"],
            Keys.felicaSystemCodes: ["12FC"],
            "UIDeviceFamily": [1, 2],
        ])
        let rights = try ConfigurationFixtures.binary([Keys.readerSessionFormats: ["TAG"]])
        #expect(info.starts(with: Array("bplist00".utf8)))
        let configuration = try NFCAppConfiguration(infoPlist: info, entitlements: rights)
        #expect(configuration.usageDescription == "Reads tags")
        #expect(configuration.minimumOSVersion == "15.0")
        #expect(configuration.iso7816SelectIdentifiers == [[0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]])
        #expect(configuration.felicaSystemCodes == [0x12FC])
        #expect(configuration.readerSessionFormats == [.tag])
    }

    @Test func entitlementsAreOptional() throws {
        let configuration = try NFCAppConfiguration(infoPlist: ConfigurationFixtures.infoPlist, entitlements: nil)
        #expect(configuration.readerSessionFormatValues == nil)
        #expect(configuration.readerSessionFormats.isEmpty)
        #expect(configuration.associatedDomains.isEmpty)
    }

    @Test func recognisesAnAppExtension() throws {
        let info = ConfigurationFixtures.infoPlist(
            extra: """
                \t<key>NSExtension</key>
                \t<dict>
                \t\t<key>NSExtensionPointIdentifier</key>
                \t\t<string>com.apple.widgetkit-extension</string>
                \t</dict>

                """)
        #expect(try NFCAppConfiguration(infoPlist: info, entitlements: nil).isAppExtension)
    }

    @Test func readsFilesFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let infoURL = directory.appendingPathComponent("Info.plist")
        let rightsURL = directory.appendingPathComponent("Reader.entitlements")
        try ConfigurationFixtures.infoPlist.write(to: infoURL)
        try ConfigurationFixtures.entitlements.write(to: rightsURL)
        let configuration = try NFCAppConfiguration(infoPlistURL: infoURL, entitlementsURL: rightsURL)
        #expect(
            configuration
                == (try NFCAppConfiguration(
                    infoPlist: ConfigurationFixtures.infoPlist, entitlements: ConfigurationFixtures.entitlements)))

        let missing = directory.appendingPathComponent("Missing.entitlements")
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlistURL: infoURL, entitlementsURL: missing)
        }
        #expect(error?.code == .unreadableFile)
        #expect(error?.document == .entitlements)
    }

    @Test func memberwiseInitializerTakesValuesDirectly() {
        let configuration = NFCAppConfiguration(
            usageDescription: "Reads tags", readerSessionFormats: [.tag, .other("PACE")],
            iso7816SelectIdentifiers: ["A000000308"], felicaSystemCodes: ["0003"],
            associatedDomains: ["applinks:example.com"])
        #expect(configuration.readerSessionFormatValues == ["PACE", "TAG"])
        #expect(configuration.readerSessionFormats == [.tag, .other("PACE")])
        #expect(configuration.iso7816SelectIdentifiers == [[0xA0, 0x00, 0x00, 0x03, 0x08]])
        #expect(configuration.felicaSystemCodes == [0x0003])
    }

    @Test(arguments: [
        ("garbage", Data("this is not <plist> at all {".utf8)),
        ("empty", Data()),
        ("binary header then noise", Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40)),
        ("unterminated XML", Data(ConfigurationFixtures.infoPlist.prefix(300))),
    ])
    func corruptInfoPlistThrowsNotCrashes(name: String, data: Data) {
        let error = #expect(throws: NFCConfigurationError.self, "\(name)") {
            try NFCAppConfiguration(infoPlist: data, entitlements: nil)
        }
        #expect(error?.code == .unreadablePropertyList)
        #expect(error?.document == .infoPlist)
    }

    @Test func everyPrefixOfABinaryPlistIsHandled() throws {
        let info = try ConfigurationFixtures.binary([Keys.usageDescription: "Reads tags", Keys.felicaSystemCodes: ["0003"]])
        for length in 0..<info.count {
            #expect(throws: NFCConfigurationError.self) {
                try NFCAppConfiguration(infoPlist: info.prefix(length), entitlements: nil)
            }
        }
        #expect(try NFCAppConfiguration(infoPlist: info, entitlements: nil).felicaSystemCodes == [0x0003])
    }

    @Test func corruptEntitlementsNameTheirDocument() {
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlist: ConfigurationFixtures.infoPlist, entitlements: Data("<plist><dict><key>".utf8))
        }
        #expect(error?.document == .entitlements)
        #expect(error?.code == .unreadablePropertyList)
    }

    @Test func aTopLevelArrayIsNotADictionary() {
        let array = Data(#"<?xml version="1.0"?><plist version="1.0"><array><string>TAG</string></array></plist>"#.utf8)
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlist: array, entitlements: nil)
        }
        #expect(error?.code == .notADictionary)
    }

    @Test func aNumberForTheUsageDescriptionNamesTheKey() {
        let info = ConfigurationFixtures.infoPlist(extra: "\t<key>NFCReaderUsageDescription</key>\n\t<integer>42</integer>\n")
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlist: info, entitlements: nil)
        }
        #expect(error?.code == .wrongType)
        #expect(error?.key == Keys.usageDescription)
        #expect(error?.document == .infoPlist)
    }

    @Test func aStringWhereAnArrayBelongsNamesTheKey() {
        let rights = ConfigurationFixtures.entitlements(extra: ConfigurationFixtures.string(Keys.readerSessionFormats, "TAG"))
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlist: ConfigurationFixtures.infoPlist, entitlements: rights)
        }
        #expect(error?.code == .wrongType)
        #expect(error?.key == Keys.readerSessionFormats)
        #expect(error?.document == .entitlements)
    }

    @Test func aNonStringArrayItemNamesTheKeyAndIndex() throws {
        let info = try ConfigurationFixtures.binary([Keys.iso7816SelectIdentifiers: ["D2760000850101", 7]])
        let error = #expect(throws: NFCConfigurationError.self) {
            try NFCAppConfiguration(infoPlist: info, entitlements: nil)
        }
        #expect(error?.key == Keys.iso7816SelectIdentifiers)
        #expect(error?.reason.contains("item 1") == true)
    }
}
