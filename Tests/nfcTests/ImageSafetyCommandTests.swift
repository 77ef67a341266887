import Foundation
import NFCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 16, items 1–3 and 9: concurrent commands lose nothing, key images stay private, reading
/// needs no write access, and no temporary file survives a signal — run as a user would.
@Suite(.serialized) struct ImageSafetyCommandTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func newImage(_ type: String, in folder: URL, name: String? = nil) async throws -> String {
        let path = folder.appendingPathComponent(name ?? "\(type).json").path
        let made = try await NFCTool.run(["tag", "new", type, "-o", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mode & 0o777
    }

    private func identity(_ path: String) -> (UInt64, Int) {
        var status = stat()
        _ = stat(path, &status)
        #if canImport(Darwin)
        return (UInt64(status.st_ino), status.st_mtimespec.tv_nsec)
        #else
        return (UInt64(status.st_ino), status.st_mtim.tv_nsec)
        #endif
    }

    @Test("Every acknowledged write is read back while reads run beside it")
    func readsBesideWritesUndoNothing() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = "sim:" + (try await newImage("ntag216", in: directory))
        let undone = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                var undone: [String] = []
                for round in 1...12 {
                    guard let written = try? await NFCTool.run(["write", "--reader", reader, "--text", "round \(round)"]),
                        written.status == 0
                    else {
                        undone.append("write \(round) failed")
                        continue
                    }
                    let read = try? await NFCTool.run(["read", "--reader", reader, "--json"])
                    if read?.stdout.contains("\"text\" : \"round \(round)\"") != true
                        && read?.stdout.contains("\"text\": \"round \(round)\"") != true
                    {
                        undone.append("round \(round) acknowledged, then read back as: \(read?.stdout.prefix(300) ?? "nothing")")
                    }
                }
                return undone
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<10 { _ = try? await NFCTool.run(["read", "--reader", reader]) }
                    return []
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(undone.isEmpty, "\(undone)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ntag216.json"])
    }

    @Test("Parallel applet changes all land: OATH credentials, PIV keys, FIDO resident credentials")
    func parallelAppletChangesAllLand() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = "sim:" + (try await newImage("security-key", in: directory))
        let names = (1...6).map { "account\($0)" }
        let slots = ["9a", "9c", "9d", "9e"]
        let parties = ["a.example", "b.example", "c.example"]
        let statuses = await withTaskGroup(of: (String, Int32).self) { group in
            for name in names {
                group.addTask {
                    (
                        name,
                        (try? await NFCTool.run(["oath", "add", name, "--secret", "JBSWY3DPEHPK3PXP", "--reader", reader]))?.status ?? -1
                    )
                }
            }
            for slot in slots {
                group.addTask {
                    (slot, (try? await NFCTool.run(["piv", "generate", slot, "--pin", "123456", "--reader", reader]))?.status ?? -1)
                }
            }
            for party in parties {
                let keyFile = directory.appendingPathComponent("\(party).key.json").path
                group.addTask {
                    (
                        party,
                        (try? await NFCTool.run([
                            "fido", "register", "--rp", party, "--resident", "-o", keyFile, "--reader", reader,
                        ]))?.status ?? -1
                    )
                }
            }
            for _ in 0..<3 {
                group.addTask { ("list", (try? await NFCTool.run(["oath", "list", "--reader", reader]))?.status ?? -1) }
                group.addTask { ("status", (try? await NFCTool.run(["piv", "status", "--reader", reader]))?.status ?? -1) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0.1 == 0 }, "\(statuses)")
        let list = try await NFCTool.run(["oath", "list", "--reader", reader])
        for name in names { #expect(list.stdout.contains(name), "\(name) acknowledged but lost: \(list.stdout)") }
        let status = try await NFCTool.run(["piv", "status", "--reader", reader, "--json"])
        #expect(
            status.stdout.components(separatedBy: "\"subject\"").count - 1 == slots.count,
            "every generated slot kept its certificate: \(status.stdout)")
        for party in parties {
            let keyFile = directory.appendingPathComponent("\(party).key.json").path
            let assertion = try await NFCTool.run(["fido", "assert", "--key-file", keyFile, "--reader", reader])
            #expect(assertion.status == 0, "\(party) acknowledged but lost: \(assertion.stderr)")
        }
    }

    @Test("Key images are 0600 whatever the umask; saves keep a chosen mode; tag show warns")
    func keyImagesArePrivate() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try await newImage("security-key", in: directory)
        #expect(mode(key) == 0o600)
        let plain = try await newImage("ntag213", in: directory)
        #expect(mode(plain) == 0o666 & ~umaskNow(), "plain images follow the umask")
        chmod(key, 0o640)
        #expect(try await NFCTool.run(["oath", "add", "x", "--secret", "JBSWY3DPEHPK3PXP", "--reader", "sim:" + key]).status == 0)
        #expect(try await NFCTool.run(["piv", "status", "--reader", "sim:" + key]).status == 0)
        #expect(mode(key) == 0o640, "a command kept the mode it found")
        let shown = try await NFCTool.run(["tag", "show", key])
        #expect(shown.status == 0 && shown.stderr.contains("readable by others") && shown.stderr.contains("chmod 600"), "\(shown.stderr)")
        chmod(key, 0o600)
        #expect(try await NFCTool.run(["tag", "show", key]).stderr.isEmpty)
    }

    @Test("Reading commands never write the image")
    func readingNeverWrites() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tag = try await newImage("ntag215", in: directory)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + tag, "--uri", "https://example.com"]).status == 0)
        let key = try await newImage("security-key", in: directory)
        let before = (identity(tag), identity(key))
        for arguments in [["read"], ["scan"], ["dump"], ["read", "--json"]] {
            #expect(try await NFCTool.run(arguments + ["--reader", "sim:" + tag]).status == 0)
        }
        for arguments in [["oath", "list"], ["piv", "status"], ["fido", "info"]] {
            #expect(try await NFCTool.run(arguments + ["--reader", "sim:" + key]).status == 0)
        }
        #expect(identity(tag) == before.0 && identity(key) == before.1, "the files were not replaced")
    }

    @Test("An image in a folder the user cannot write is read (as an unprivileged user)")
    func readingInAReadOnlyFolder() async throws {
        let directory = try folder()
        defer {
            chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
        let tag = try await newImage("ntag213", in: directory)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + tag, "--text", "shared"]).status == 0)
        chmod(tag, 0o644)
        chmod(directory.path, 0o555)
        // As root the folder's mode does not apply; run the commands as nobody, as a user is.
        let asUser: [String] = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        guard let nfc = NFCTool.executable?.path else {
            Issue.record("nfc not built")
            return
        }
        for command in [["read"], ["scan"], ["dump"]] {
            let result = try await runProcess(asUser + [nfc] + command + ["--reader", "sim:" + tag])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if command == ["read"] { #expect(result.stdout.contains("shared")) }
        }
        let refused = try await runProcess(asUser + [nfc, "write", "--reader", "sim:" + tag, "--text", "nope"])
        #expect(refused.status == 4, "permission: \(refused.status) \(refused.stderr)")
    }
}

private func umaskNow() -> mode_t {
    let current = umask(0o022)
    umask(current)
    return current
}

/// Runs a program (not through a shell) and collects its output, off the cooperative pool.
func runProcess(_ arguments: [String]) async throws -> NFCTool.Result {
    try await offCooperativePool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return NFCTool.Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
