import Benchmark
import Foundation
import NDEF
import OpenCoreNFC

/// The NDEF codec on the three workloads ndeflib's side runs (Workloads.swift,
/// Integration/ndeflib/bench_ndeflib.py): decode through `NDEFMessage(decoding:)` including the
/// typed views (as ndeflib's decoder builds typed record objects), encode from typed values (as
/// ndeflib's encoder starts from record objects), and for the 8 KiB workload a plain copy of the
/// same bytes into a new array as the floor.
///
/// Metrics: throughput (messages per second, what BENCHMARKS.md compares with ndeflib), wall
/// clock, and mallocs per message (the allocations the borrowing codec removes).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    for workload in Workload.allCases {
        let typed = workload.typedRecords

        Benchmark("decode \(workload.rawValue): \(workload.title)") { benchmark in
            let bytes = try NDEFMessage(records: typed.map { try $0.record() }).encoded()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let message = try NDEFMessage(decoding: bytes)
                var typedCount = 0
                for record in message.records where try record.typed() != nil { typedCount &+= 1 }
                blackHole(typedCount)
            }
        }

        // Core NFC's API on the same bytes: `NFCNDEFMessage(data:)`, then each record's URI or
        // text as an app reads it (`wellKnownTypeURIPayload()`, `wellKnownTypeTextPayload()`).
        if workload != .b {
            Benchmark("corenfc decode \(workload.rawValue): \(workload.title)") { benchmark in
                let uriType = Data("U".utf8)
                let textType = Data("T".utf8)
                let data = Data(try NDEFMessage(records: typed.map { try $0.record() }).encoded())
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    guard let message = NFCNDEFMessage(data: data) else { continue }
                    var read = 0
                    for record in message.records {
                        // As an app does: by the record's type, then the typed accessor.
                        if record.type == uriType, record.wellKnownTypeURIPayload() != nil {
                            read &+= 1
                        } else if record.type == textType, record.wellKnownTypeTextPayload().0 != nil {
                            read &+= 1
                        }
                    }
                    blackHole(read)
                }
            }
        }

        Benchmark("encode \(workload.rawValue): \(workload.title)") { benchmark in
            for _ in benchmark.scaledIterations {
                var records: [NDEFRecord] = []
                records.reserveCapacity(typed.count)
                for value in typed { records.append(try value.record()) }
                blackHole(try NDEFMessage(records: records).encoded().count)
            }
        }

        if workload == .b {
            Benchmark("copy b: the same bytes into a new array (the floor)") { benchmark in
                let bytes = try NDEFMessage(records: typed.map { try $0.record() }).encoded()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    // A real copy: new storage, then memcpy (Array(bytes) would share the buffer).
                    let copy = [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in
                        bytes.withUnsafeBufferPointer { source in
                            if let destination = out.baseAddress, let start = source.baseAddress {
                                destination.update(from: start, count: source.count)
                            }
                        }
                        count = bytes.count
                    }
                    blackHole(copy)
                }
            }
        }
    }
}
