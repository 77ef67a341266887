import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resident memory and open file descriptors of this process, read from `/proc/self`
/// (`statm`'s second field is resident pages; `fd` has one entry per open descriptor).
struct ProcessSample: CustomStringConvertible {
    let residentKiB: Int
    let openDescriptors: Int

    static func now() -> ProcessSample {
        ProcessSample(residentKiB: residentKiB(), openDescriptors: openDescriptors())
    }

    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    static func openDescriptors() -> Int {
        // The listing itself opens one descriptor while it runs; it is the same at every sample.
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    var description: String { "RSS \(residentKiB) KiB, \(openDescriptors) fds" }
}

/// Samples taken during one soak phase, and the bound they must stay within.
struct SampleLog {
    let phase: String
    private(set) var samples: [(done: Int, sample: ProcessSample)] = []

    init(phase: String) { self.phase = phase }

    mutating func take(after done: Int) {
        let sample = ProcessSample.now()
        samples.append((done, sample))
        print("\(phase): \(done) done, \(sample)")
    }

    /// The growth from the first sample after warm-up (the second one) to the last.
    /// The first sample is taken before any work, when lazily built tables and caches are not
    /// allocated yet; growth after warm-up is what a leak shows as.
    var growth: (rssKiB: Int, descriptors: Int) {
        guard let first = samples.dropFirst().first?.sample ?? samples.first?.sample, let last = samples.last?.sample else { return (0, 0) }
        return (last.residentKiB - first.residentKiB, last.openDescriptors - first.openDescriptors)
    }

    /// start / middle / end samples, for BENCHMARKS.md.
    var summary: String {
        guard let first = samples.first, let last = samples.last else { return "\(phase): no samples" }
        let middle = samples[samples.count / 2]
        return
            "\(phase): RSS start \(first.sample.residentKiB) KiB, middle \(middle.sample.residentKiB) KiB, end \(last.sample.residentKiB) KiB; "
            + "fds start \(first.sample.openDescriptors), middle \(middle.sample.openDescriptors), end \(last.sample.openDescriptors)"
    }
}
