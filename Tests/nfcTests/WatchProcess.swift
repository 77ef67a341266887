import Foundation
import NFCTestSupport

/// A running `nfc watch` (or another long-running command) whose standard output is read line
/// by line as it comes.
final class WatchProcess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false
    private let errors = Pipe()

    convenience init(_ arguments: [String]) throws {
        try self.init(command: ["watch"] + arguments)
    }

    /// Any `nfc` command whose output comes line by line (`nfc write --loop --json`).
    init(command arguments: [String]) throws {
        guard let executable = NFCTool.executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "nfc executable not built next to the tests"])
        }
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.receive(handle.availableData)
        }
        try process.run()
    }

    private func receive(_ data: Data) {
        condition.lock()
        defer {
            condition.unlock()
            condition.broadcast()
        }
        if data.isEmpty {
            ended = true
            return
        }
        partial.append(data)
        while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial.removeSubrange(partial.startIndex...newline)
        }
    }

    /// The next event as a JSON object, waiting up to `seconds` (a deadline on a condition, not a
    /// sleep) on a thread of its own, off the cooperative pool.
    func next(within seconds: Double = 20) async -> [String: Any]? {
        guard let line = await offCooperativePool({ self.nextLine(within: seconds) }) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["unparsed": line]
    }

    private func nextLine(within seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty && !ended {
            if !condition.wait(until: deadline) { return nil }
        }
        guard !lines.isEmpty else { return nil }
        return lines.removeFirst()
    }

    /// The next event of a kind, skipping others (returned in `skipped`).
    func next(_ event: String, within seconds: Double = 20, skipped: inout [[String: Any]]) async -> [String: Any]? {
        while let item = await next(within: seconds) {
            if item["event"] as? String == event { return item }
            skipped.append(item)
        }
        return nil
    }

    /// Ctrl-C, then the exit status and what was left on standard error.
    func interrupt() async -> (status: Int32, stderr: String) {
        if process.isRunning { process.interrupt() }
        return await ended()
    }

    /// Waits for a command that ends by itself, then its exit status and standard error; one
    /// still running after `seconds` is killed (a deadline on a condition, not a sleep), and its
    /// status then says so.
    func ended(within seconds: Double = 20) async -> (status: Int32, stderr: String) {
        await offCooperativePool {
            let deadline = Date().addingTimeInterval(seconds)
            let nap = NSCondition()
            nap.lock()
            while self.process.isRunning && Date() < deadline { _ = nap.wait(until: Date().addingTimeInterval(0.05)) }
            nap.unlock()
            if self.process.isRunning { self.process.terminate() }
            self.process.waitUntilExit()
            let stderr = String(decoding: self.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (self.process.terminationStatus, stderr)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
