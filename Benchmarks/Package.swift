// swift-tools-version: 6.1
import PackageDescription

/// OpenCoreNFC's benchmarks and soak tool, in a package of their own (as swift-asn1's
/// `Benchmarks/`), so the library's build, its tests and CI never compile them:
///   - `NDEFCodec`: package-benchmark suite, the NDEF codec's throughput and allocations on the
///     workloads `Integration/ndeflib/bench_ndeflib.py` runs for ndeflib
///     (`swift package --package-path Benchmarks benchmark`; `scripts/bench-ndef.sh` sets the
///     two side by side);
///   - `nfc-bench`: the tag engines' simulated air time (deterministic), tag-image loading, and
///     PC/SC round trips (`swift run --package-path Benchmarks -c release nfc-bench airtime`);
///   - `nfc-soak`: long runs that look for leaks (`scripts/soak.sh`).
let package = Package(
    name: "OpenCoreNFCBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenCoreNFC", path: ".."),
        // MallocInterposer alone: package-benchmark's other default trait pulls in a Linux runtime
        // interposer for Swift 6.3 that this suite does not need (it counts mallocs, not retains).
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "NDEFCodec",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "NDEF", package: "OpenCoreNFC"), .product(name: "OpenCoreNFC", package: "OpenCoreNFC"),
            ],
            path: "Benchmarks/NDEFCodec",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "nfc-bench",
            dependencies: [
                .product(name: "NDEF", package: "OpenCoreNFC"), .product(name: "NFCBytes", package: "OpenCoreNFC"),
                .product(name: "NFCJSON", package: "OpenCoreNFC"), .product(name: "NFCTags", package: "OpenCoreNFC"),
                .product(name: "NFCSimulator", package: "OpenCoreNFC"), .product(name: "NFCTransport", package: "OpenCoreNFC"),
                .product(name: "NFCPCSC", package: "OpenCoreNFC"),
            ]
        ),
        .executableTarget(
            name: "nfc-soak",
            dependencies: [
                .product(name: "NDEF", package: "OpenCoreNFC"), .product(name: "NFCTags", package: "OpenCoreNFC"),
                .product(name: "NFCSimulator", package: "OpenCoreNFC"), .product(name: "NFCTransport", package: "OpenCoreNFC"),
                .product(name: "NFCPCSC", package: "OpenCoreNFC"), .product(name: "OpenCoreNFC", package: "OpenCoreNFC"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
