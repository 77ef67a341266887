import NDEF
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc-bench` — NDEF decode/encode throughput (messages per second).
///
/// Usage: `nfc-bench [--json] [--seconds S]`, or `nfc-bench airtime` for the tag engines'
/// simulated air time (see AirTimeScenarios.swift). Run a release build:
/// `swift run -c release nfc-bench`. Scripts/bench-ndef.sh runs it beside ndeflib.
/// Decoding includes the typed views (URI, Text, MIME), as ndeflib's decoder builds typed records;
/// encoding starts from typed values. For (b) a plain copy of the same bytes into a new array is
/// measured as the baseline.

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
let asJSON = arguments.contains("--json")
let seconds: Double = {
    if let i = arguments.firstIndex(of: "--seconds"), i + 1 < arguments.count, let s = Double(arguments[i + 1]), s > 0 {
        return s
    }
    return 1.0
}()

/// A sink the optimiser cannot see through.
@inline(never) func blackHole(_ x: Int) { if x == Int.min { print("") } }

/// Best rate over several runs of `body`, in calls per second.
func measure(seconds: Double, _ body: () throws -> Int) rethrows -> Double {
    let clock = ContinuousClock()
    var best = 0.0
    var n = 1
    // Calibrate so that one run lasts about a fifth of the budget.
    while true {
        let t = clock.now
        var sink = 0
        for _ in 0..<n { sink &+= try body() }
        blackHole(sink)
        let elapsed = (clock.now - t) / .seconds(1)
        if elapsed > seconds / 5 || n > 1 << 28 {
            best = max(best, Double(n) / elapsed)
            break
        }
        n *= 2
    }
    for _ in 0..<5 {
        let t = clock.now
        var sink = 0
        for _ in 0..<n { sink &+= try body() }
        blackHole(sink)
        let elapsed = (clock.now - t) / .seconds(1)
        best = max(best, Double(n) / elapsed)
    }
    return best
}

struct Row {
    let workload: Workload
    let bytes: Int
    let decode: Double
    let encode: Double
    let copy: Double?
}

var rows: [Row] = []
do {
    for w in Workload.allCases {
        let typed = w.typedRecords
        let message = NDEFMessage(records: try typed.map { try $0.record() })
        let bytes = try message.encoded()
        let decode = try measure(seconds: seconds) {
            let m = try NDEFMessage(decoding: bytes)
            var n = m.records.count
            for r in m.records { if try r.typed() != nil { n &+= 1 } }
            return n
        }
        let encode = try measure(seconds: seconds) {
            var records: [NDEFRecord] = []
            records.reserveCapacity(typed.count)
            for t in typed { records.append(try t.record()) }
            return try NDEFMessage(records: records).encoded().count
        }
        var copy: Double? = nil
        if w == .b {
            copy = measure(seconds: seconds) {
                // A real copy: new storage, then memcpy (Array(bytes) would share the buffer).
                let c = [UInt8](unsafeUninitializedCapacity: bytes.count) { out, n in
                    bytes.withUnsafeBufferPointer { src in
                        if let d = out.baseAddress, let s = src.baseAddress { d.update(from: s, count: src.count) }
                    }
                    n = bytes.count
                }
                return c.count &+ Int(c[c.count / 2])
            }
        }
        rows.append(Row(workload: w, bytes: bytes.count, decode: decode, encode: encode, copy: copy))
    }
} catch {
    print("nfc-bench: \(error)")
    exit(1)
}

if asJSON {
    let entries = rows.map { r -> String in
        var s = "\"\(r.workload.rawValue)\": {\"bytes\": \(r.bytes), \"decode\": \(Int(r.decode)), \"encode\": \(Int(r.encode))"
        if let c = r.copy { s += ", \"copy\": \(Int(c))" }
        return s + "}"
    }
    print("{\"opencorenfc\": {" + entries.joined(separator: ", ") + "}}")
} else {
    for r in rows {
        print(
            "\(r.workload.title) [\(r.bytes) B]: decode \(Int(r.decode)) msg/s, encode \(Int(r.encode)) msg/s"
                + (r.copy.map { ", plain copy \(Int($0))/s" } ?? ""))
    }
}
