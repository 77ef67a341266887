import Foundation
import Testing

@testable import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the test's own SIGHUP handler, which ``TemporaryFiles`` must call.
nonisolated(unsafe) private var earlierHandlerRan: sig_atomic_t = 0

/// A signal that ends the process during a save removes the temporary file; one the process
/// survives (its own handler runs) leaves the save alone.
@Suite struct TemporaryFilesTests {
    /// The removal itself, slot by slot as the handler runs it before the default action ends
    /// the process (which a test cannot let happen to itself; and only this test's slot, since
    /// other tests' saves run in this process too).
    @Test func theCleanupRemovesEveryRegisteredTemporaryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfiles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let temporary = folder + "/.tag.json.ghijkl"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data([1, 2, 3])))
        let slot = try #require(TemporaryFiles.register(temporary))
        TemporaryFiles.unlinkRegistered(slot: slot)
        TemporaryFiles.unregister(slot)
        #expect(!FileManager.default.fileExists(atPath: temporary), "the registered temporary file was removed")
    }

    /// The process lives on after the signal: a save in progress keeps its temporary file (else
    /// its rename would fail, as a concurrent save in this test process once did).
    @Test func aSignalTheProcessSurvivesChainsToTheEarlierHandlerAndKeepsTheFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfiles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // SIGHUP's disposition before the cleanup handler: a handler of the test's own, which
        // keeps the test process alive (the default action would end it).
        var earlier = sigaction()
        #if canImport(Glibc)
        earlier.__sigaction_handler.sa_handler = { _ in earlierHandlerRan = 1 }
        #else
        earlier.__sigaction_u.__sa_handler = { _ in earlierHandlerRan = 1 }
        #endif
        sigemptyset(&earlier.sa_mask)
        var saved = sigaction()
        sigaction(SIGHUP, &earlier, &saved)
        defer { sigaction(SIGHUP, &saved, nil) }
        TemporaryFiles.removeOnSignals()

        let temporary = folder + "/.tag.json.abcdef"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data([1, 2, 3])))
        let slot = TemporaryFiles.register(temporary)
        #expect(slot != nil)
        // raise() signals the calling thread; test threads may block signals, so raise it on a
        // thread of our own that unblocks SIGHUP first.
        let done = DispatchSemaphore(value: 0)
        Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGHUP)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(SIGHUP)  // delivered to this thread before raise returns
            done.signal()
        }.start()
        done.wait()
        TemporaryFiles.unregister(slot)
        #expect(FileManager.default.fileExists(atPath: temporary), "the save in progress keeps its temporary file")
        #expect(earlierHandlerRan == 1, "the handler that was there before ran")
    }
}
