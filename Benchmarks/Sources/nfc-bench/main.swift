import NDEF
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc-bench` — measurements that are not a package-benchmark suite: the tag engines' simulated
/// air time (deterministic, AirTimeScenarios.swift), tag-image loading against Foundation, and
/// PC/SC round trips through pcscd (wall clock). Run a release build:
/// `swift run --package-path Benchmarks -c release nfc-bench airtime`.

let arguments = CommandLine.arguments
if arguments.dropFirst().first == "airtime" {
    // Simulated air time of full NDEF reads per tag type (deterministic; no timing of this machine).
    try await AirTimeScenarios.run()
    exit(0)
}
if arguments.dropFirst().first == "images" {
    // Tag image loading: our strict JSON parser against Foundation's, and the whole load.
    try ImageLoading.run(seconds: 0.5)
    exit(0)
}
if arguments.dropFirst().first == "pcsc" {
    // APDU round trips per second through the PC/SC driver (wall clock; needs pcscd and a card).
    try await PCSCRoundTrips.run(Array(arguments.dropFirst(2)))
    exit(0)
}
print(
    """
    usage: nfc-bench airtime | images | pcsc [--reader NAME] [--seconds S]
      airtime  simulated air time of full NDEF reads per tag type (deterministic)
      images   tag image loading: NFCJSON against Foundation's JSONSerialization
      pcsc     APDU round trips per second through pcscd (needs pcscd and an emulated card)
    The NDEF codec's throughput is the package-benchmark suite NDEFCodec:
      swift package --package-path Benchmarks benchmark --target NDEFCodec
    """)
exit(2)
