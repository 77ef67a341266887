import Foundation
import NFCBackgroundConfiguration
import OpenCoreNFC

/// libFuzzer target for the configuration files OpenCoreNFC reads: the
/// apple-app-site-association JSON (``AppSiteAssociation/init(json:)``, used by background tag
/// dispatch) and the Info.plist and entitlements property lists `nfc lint` checks
/// (``NFCConfigurationLint/check(infoPlist:entitlements:)``, which reads them through
/// PropertyListReader), and the `--apps` file of `nfc dispatch` and `nfc watch`
/// (`BackgroundConfiguration.parse` from the NFCBackgroundConfiguration module).
///
/// Input: `[selector] file…` — selector mod 5: 0: AASA JSON; 1: an Info.plist (no
/// entitlements); 2: an entitlements plist beside a minimal valid Info.plist; 3: the file as both;
/// 4: an `--apps` file, whose association paths read a fixed AASA for names ending `.json` and
/// nothing otherwise (never the disk).
/// Asserts: a refused file is a typed error or a lint finding, never a trap; lint is
/// deterministic (the same findings twice); an AASA that parses answers `allows` for any URL; an
/// `--apps` file that parses has a non-empty command for every handler it names, and dispatches a
/// URI tag for each of its apps' domains.
let minimalInfo = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>NFCReaderUsageDescription</key><string>Reads tags</string></dict></plist>
    """.utf8)

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    _ = minimalInfo.count  // built before the first input, not counted as a leak
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = Data(bytes.dropFirst())
    switch bytes[0] % 5 {
    case 0:
        guard let association = try? AppSiteAssociation(json: file) else { return 0 }
        for url in ["https://example.org/nfc/1?x=1#f", "https://example.org/", "https://example.org/a%20b"] {
            guard let components = URLComponents(string: url) else { continue }
            for detail in association.details {
                for appID in detail.appIDs { _ = association.allows(components, for: appID) }
            }
            _ = association.allows(components, for: "ABCDE12345.org.example.app")
        }
    case 4:
        fuzzAppsFile(file)
    default:
        let selector = bytes[0] % 5
        let info = selector == 2 ? minimalInfo : file
        let entitlements = selector == 1 ? nil : file
        let findings = NFCConfigurationLint.check(infoPlist: info, entitlements: entitlements)
        let again = NFCConfigurationLint.check(infoPlist: info, entitlements: entitlements)
        guard "\(findings)" == "\(again)" else { fatalError("lint is not deterministic") }  // trap-ok: fuzz oracle
    }
    return 0
}

let fixedAssociation = Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.org.example.app"],"components":[{"/":"/nfc/*"}]}]}}"#.utf8)

func fuzzAppsFile(_ file: Data) {
    let readFile: (URL) -> Data? = { $0.lastPathComponent.hasSuffix(".json") ? fixedAssociation : nil }
    guard let configuration = try? BackgroundConfiguration.parse(file, relativeTo: URL(fileURLWithPath: "/nonexistent"), readFile: readFile)
    else { return }
    for (name, argv) in configuration.handlers where argv.first?.isEmpty ?? true {
        fatalError("handler \(name) has no program")  // trap-ok: fuzz oracle
    }
    for app in configuration.reader.apps {
        for domain in app.domains.prefix(4) {
            let host = domain.isWildcard ? "nfc." + domain.host : domain.host
            guard let payload = NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://\(host)/nfc/1") else { continue }
            let dispatch = configuration.reader.dispatch(NFCNDEFMessage(records: [payload]), state: .idle)
            if let target = dispatch.target { _ = configuration.handler(for: target) }
        }
    }
}
