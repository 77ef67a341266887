#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc-soak` — long runs that look for leaks (scripts/soak.sh runs it; not part of the tests).
///
///     nfc-soak sim [--cycles 100000] [--sessions 10000] [--samples 10]
///                  [--session-clock continuous|simulated] [--session-lifetime SECONDS]
///                  [--max-rss-growth-kib 16384] [--max-fd-growth 0]
///     nfc-soak pcsc --reader NAME [--minutes 10] [--samples 10]
///                  [--max-rss-growth-kib 16384] [--max-fd-growth 0]
///
/// Resident memory (/proc/self/statm) and open descriptors (/proc/self/fd) are sampled during
/// each phase; the run fails (exit 1) when either grows beyond its bound between the first
/// sample after warm-up and the last. Prints the start, middle and end figures and the rate.
let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let samples = value("--samples").flatMap { Int($0) } ?? 10
let maxRSSGrowth = value("--max-rss-growth-kib").flatMap { Int($0) } ?? 16384
let maxFDGrowth = value("--max-fd-growth").flatMap { Int($0) } ?? 0

/// Checks a phase against the bounds; false when it grew too much.
func judge(_ log: SampleLog, rate: Double, unit: String) -> Bool {
    let growth = log.growth
    print(log.summary)
    print(
        "\(log.phase): \(Int(rate)) \(unit)/s; growth after warm-up: RSS \(growth.rssKiB) KiB (bound \(maxRSSGrowth)), fds \(growth.descriptors) (bound \(maxFDGrowth))"
    )
    if growth.rssKiB > maxRSSGrowth || growth.descriptors > maxFDGrowth {
        print("\(log.phase): FAILED — grew beyond the bound")
        return false
    }
    return true
}

do {
    switch arguments.first {
    case "sim":
        let cycles = value("--cycles").flatMap { Int($0) } ?? 100_000
        let sessions = value("--sessions").flatMap { Int($0) } ?? 10_000
        let (cycleLog, cycleRate) = try await SimulatedSoak.run(cycles: cycles, samples: samples)
        let cyclesOK = judge(cycleLog, rate: cycleRate, unit: "cycles")
        let simulatedClock = value("--session-clock") == "simulated"
        let lifetime = Duration.milliseconds(Int((value("--session-lifetime").flatMap { Double($0) } ?? 60) * 1000))
        let (sessionLog, sessionRate) = try await SessionSoak.run(
            sessions: sessions, samples: samples, simulatedClock: simulatedClock, lifetime: lifetime)
        let sessionsOK = judge(sessionLog, rate: sessionRate, unit: "sessions")
        exit(cyclesOK && sessionsOK ? 0 : 1)
    case "pcsc":
        guard let reader = value("--reader") else {
            print("nfc-soak pcsc: --reader NAME is required")
            exit(2)
        }
        let minutes = value("--minutes").flatMap { Double($0) } ?? 10
        let (log, rate, cycles) = try await PCSCSoak.run(reader: reader, seconds: minutes * 60, samples: samples)
        print("pcsc: \(cycles) cycles")
        exit(judge(log, rate: rate, unit: "cycles") ? 0 : 1)
    default:
        print("usage: nfc-soak sim [--cycles N] [--sessions N] | nfc-soak pcsc --reader NAME [--minutes M]")
        exit(2)
    }
} catch {
    print("nfc-soak: FAILED — \(error)")
    exit(1)
}
