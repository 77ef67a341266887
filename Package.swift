// swift-tools-version: 6.1
import PackageDescription

/// OpenCoreNFC — Apple's Core NFC, open, in Swift, everywhere Swift runs.
/// Layers (see ../shared/design/ARCHITECTURE.md): a module imports only modules on lower rows.
let package = Package(
    name: "OpenCoreNFC",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCoreNFC", targets: ["OpenCoreNFC"]),
        .library(name: "NFCReaders", targets: ["NFCReaders"]),
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NFCBytes", targets: ["NFCBytes"]),
        .library(name: "NFCTripleDES", targets: ["NFCTripleDES"]),
        .library(name: "NFCEllipticCurves", targets: ["NFCEllipticCurves"]),
        .library(name: "NFCJSON", targets: ["NFCJSON"]),
        .library(name: "NDEFJSON", targets: ["NDEFJSON"]),
        .library(name: "ISO7816", targets: ["ISO7816"]),
        .library(name: "NFCTransport", targets: ["NFCTransport"]),
        .library(name: "NFCSimulator", targets: ["NFCSimulator"]),
        .library(name: "NFCTags", targets: ["NFCTags"]),
        .library(name: "NFCPCSC", targets: ["NFCPCSC"]),
        .library(name: "NFCPN532", targets: ["NFCPN532"]),
        .library(name: "NFCCBOR", targets: ["NFCCBOR"]),
        .library(name: "NFCOATH", targets: ["NFCOATH"]),
        .library(name: "NFCFIDO", targets: ["NFCFIDO"]),
        .library(name: "NFCPIV", targets: ["NFCPIV"]),
        .library(name: "NFCDESFire", targets: ["NFCDESFire"]),
        .library(name: "NFCeMRTD", targets: ["NFCeMRTD"]),
        .executable(name: "nfc", targets: ["nfc"]),
    ],
    // The reader backends Core NFC sessions can name (`OPENCORENFC_READER`). All are on by
    // default; an app that wants only Core NFC's API (`traits: []`) links neither the simulator
    // (and swift-crypto) nor the PC/SC and PN532 drivers. The `nfc` tool and the tests always have them.
    traits: [
        .trait(name: "Simulator", description: "OPENCORENFC_READER=sim: the simulated field and its virtual tags."),
        .trait(name: "PCSC", description: "OPENCORENFC_READER=pcsc: USB readers through PC/SC."),
        .trait(name: "PN532", description: "OPENCORENFC_READER=pn532:PATH: a PN532 board on a serial line."),
        .default(enabledTraits: ["Simulator", "PCSC", "PN532"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0"),
    ],
    targets: [
        // Row 0
        .target(name: "NFCBytes"),
        // Row 0: DES and TDEA with CBC and CMAC (swift-crypto has no DES; DESFire keys and ICAO BAC need it)
        .target(name: "NFCTripleDES"),
        // Row 0: prime-field elliptic curves with any generator (PACE's generic mapping needs
        // point arithmetic swift-crypto does not expose, and brainpool curves it does not have)
        .target(name: "NFCEllipticCurves", dependencies: [.product(name: "BigInt", package: "BigInt")]),
        // Row 0 (strict JSON with locations, and a Decoder that names paths: tag images, configuration files)
        .target(name: "NFCJSON"),
        // Row 1
        .target(name: "NDEF", dependencies: ["NFCBytes"]),
        // Row 1 (above NDEF): the documented JSON form of NDEF messages (docs/ndef-json.md)
        .target(name: "NDEFJSON", dependencies: ["NDEF", "NFCBytes", "NFCJSON"]),
        .target(name: "ISO7816"),
        // Row 1 (RFC 8949 CBOR, canonical CTAP2 form; shared by the FIDO client and the emulated authenticator)
        .target(name: "NFCCBOR"),
        // Row 1: ISO 15693 and FeliCa command codes, shared by the engines and the Core NFC layer
        .target(name: "NFCCommandSets"),
        // Row 2
        .target(name: "NFCTransport", dependencies: ["NFCBytes"]),
        // Row 2: applet clients over any APDUTransmitter
        .target(
            name: "NFCOATH",
            dependencies: [
                "ISO7816", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .target(
            name: "NFCFIDO",
            dependencies: [
                "ISO7816", "NFCCBOR",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        .target(
            name: "NFCPIV",
            dependencies: [
                "ISO7816",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        // DESFire-family clients: NTAG 424 DNA (EV2 secure messaging, SDM) and SUN verification.
        .target(
            name: "NFCDESFire",
            dependencies: [
                "NFCBytes", "ISO7816", "NDEF", "NFCTripleDES", "NFCEllipticCurves", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"), .product(name: "BigInt", package: "BigInt"),
            ]),
        // Row 2: passports and ID cards (ICAO Doc 9303): MRZ, BAC, secure messaging, the LDS, passive authentication
        .target(
            name: "NFCeMRTD",
            dependencies: [
                "ISO7816", "NFCTripleDES", "NFCEllipticCurves", .product(name: "BigInt", package: "BigInt"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        // Row 3
        .target(
            name: "NFCTags",
            dependencies: ["NFCTransport", "ISO7816", "NFCBytes", "NFCCommandSets", .product(name: "Logging", package: "swift-log")]),
        // Row 3 (the simulator must not import NFCTags: it is an independent reading of the specs)
        // Emulated OATH/FIDO/PIV applets use swift-crypto and the shared CBOR codec, never the clients.
        .target(
            name: "NFCSimulator",
            dependencies: [
                "NFCTransport", "NFCBytes", "NFCCBOR", "NFCJSON", "NFCTripleDES", "NFCEllipticCurves",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        // Row 3 (loads libpcsclite / PCSC.framework at run time: nothing to link)
        .target(name: "NFCPCSC", dependencies: ["NFCTransport", "NFCBytes", .product(name: "Logging", package: "swift-log")]),
        // Row 3: the PN532 host protocol (NXP UM0701-02) and a virtual PN532 in front of any reader driver
        .target(name: "NFCPN532", dependencies: ["NFCTransport", "NFCBytes"]),
        // Row 4: one grammar for reader names, and the backends the enabled traits include
        .target(
            name: "NFCReaders",
            dependencies: [
                "NFCTransport",
                .target(name: "NFCSimulator", condition: .when(traits: ["Simulator"])),
                .target(name: "NFCPCSC", condition: .when(traits: ["PCSC"])),
                .target(name: "NFCPN532", condition: .when(traits: ["PN532"])),
            ]),
        // Row 4 (above NFCReaders): Core NFC's API
        .target(
            name: "OpenCoreNFC",
            dependencies: [
                "NDEF", "NFCBytes", "ISO7816", "NFCTransport", "NFCTags", "NFCReaders", "NFCCommandSets",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Row 5 (a library beside the CLI): the `--apps` file of `nfc dispatch` and `nfc watch`
        .target(name: "NFCBackgroundConfiguration", dependencies: ["OpenCoreNFC"]),
        // Row 5
        .executableTarget(
            name: "nfc",
            dependencies: [
                "OpenCoreNFC", "NFCBackgroundConfiguration", "NFCReaders", "NDEF", "NDEFJSON", "NFCBytes", "NFCJSON", "NFCTransport",
                "NFCSimulator", "NFCTags", "NFCPCSC", "NFCPN532", "ISO7816",
                "NFCOATH", "NFCFIDO", "NFCPIV", "NFCDESFire", "NFCeMRTD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // Test support (no product ships it)
        .target(name: "NFCTestSupport", dependencies: ["ISO7816", "NDEF", "NFCBytes", "NFCPCSC", "NFCSimulator", "NFCTransport"]),
        .testTarget(name: "ISO7816Tests", dependencies: ["ISO7816", "NFCTestSupport"]),
        .testTarget(name: "NFCEllipticCurvesTests", dependencies: ["NFCEllipticCurves", "NFCBytes"]),
        .testTarget(name: "NFCTransportTests", dependencies: ["NFCTransport", "NFCTestSupport"]),
        .testTarget(
            name: "NFCTagsTests",
            dependencies: ["NFCTags", "NFCSimulator", "NFCTransport", "ISO7816", "NDEF", "NFCBytes", "NFCTestSupport"]),
        .testTarget(
            name: "NFCSimulatorTests",
            dependencies: [
                "NFCSimulator", "NFCTransport", "NFCBytes", "NFCTestSupport",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .testTarget(name: "NFCBytesTests", dependencies: ["NFCBytes", "NFCTestSupport"]),
        .testTarget(name: "NFCTripleDESTests", dependencies: ["NFCTripleDES", "NFCBytes"]),
        .testTarget(name: "NFCJSONTests", dependencies: ["NFCJSON"]),
        .testTarget(name: "NFCBackgroundConfigurationTests", dependencies: ["NFCBackgroundConfiguration", "OpenCoreNFC"]),
        .testTarget(name: "NDEFJSONTests", dependencies: ["NDEFJSON", "NDEF", "NFCJSON"]),
        .testTarget(name: "NFCReadersTests", dependencies: ["NFCReaders", "NFCSimulator", "NFCTransport"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "NFCBytes", "NFCTestSupport"]),
        .testTarget(
            name: "OpenCoreNFCTests",
            dependencies: [
                "OpenCoreNFC", "NDEF", "NFCTags", "NFCSimulator", "NFCTransport", "NFCPCSC", "NFCPN532", "NFCTestSupport", "NFCDESFire",
                "NFCeMRTD",
                // The applet clients' sessions tests run serialized with the other session tests.
                "NFCOATH", "NFCPIV", "NFCFIDO", "NFCCBOR", "ISO7816", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        .testTarget(name: "NFCPN532Tests", dependencies: ["NFCPN532", "NFCTransport", "NFCBytes", "NFCSimulator", "NFCTags"]),
        .testTarget(
            name: "NFCPCSCTests",
            dependencies: ["NFCPCSC", "NFCTransport", "NFCBytes", "NFCSimulator", "NFCTags", "NDEF", "NFCTestSupport"]),
        .testTarget(
            name: "nfcTests",
            dependencies: ["nfc", "NFCSimulator", "NFCPN532", "NFCTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "NFCOATHTests", dependencies: ["NFCBytes", "NFCOATH", "ISO7816", "NFCTestSupport"]),
        .testTarget(name: "NFCCBORTests", dependencies: ["NFCCBOR"]),
        .testTarget(
            name: "NFCFIDOTests",
            dependencies: [
                "NFCBytes", "NFCFIDO", "NFCCBOR", "ISO7816", "NFCSimulator", "NFCTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "NFCDESFireTests",
            dependencies: [
                "NFCDESFire", "NFCBytes", "NFCTestSupport", "NFCSimulator", "NFCTransport", "ISO7816", "NFCTags", "NDEF",
                "NFCEllipticCurves",
            ]),
        .testTarget(
            name: "NFCeMRTDTests",
            dependencies: [
                "NFCeMRTD", "NFCBytes", "ISO7816", "NFCTripleDES", "NFCEllipticCurves", "NFCSimulator", "NFCTestSupport",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        .testTarget(
            name: "NFCPIVTests",
            dependencies: [
                "NFCBytes", "NFCPIV", "ISO7816", "NFCSimulator", "NFCTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
