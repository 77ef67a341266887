import Foundation
import NFCSimulator
import NFCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tag images as a small database: locking, saving only changes, modes, no stray files.
@Suite struct TagImageStoreTests {
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mode & 0o777
    }

    private func inode(_ path: String) -> UInt64 {
        var status = stat()
        _ = stat(path, &status)
        return UInt64(status.st_ino)
    }

    /// An NTAG213 whose first counter is `value` (a change that is easy to count).
    private func counting(_ tag: any VirtualTag, plus increment: UInt32) throws -> Type2Tag {
        var image = try #require(tag as? Type2Tag).image
        image.counters[0] += increment
        return try Type2Tag(image: image)
    }

    @Test("Concurrent writers and readers on threads: no acknowledged change is lost")
    func concurrentThreadsLoseNothing() async throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        let writers = 8
        let rounds = 10
        let readers = 4
        // Each worker runs on a thread of its own and reports what went wrong (Issue.record needs a test's task).
        let failures = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<writers {
                group.addTask {
                    await offCooperativePool {
                        var failures: [String] = []
                        for _ in 0..<rounds {
                            do {
                                let handle = try TagImageStore.open(path, for: .modify, timeout: .seconds(60))
                                var image = try #require(handle.tag as? Type2Tag).image
                                image.counters[0] += 1
                                if try handle.save(try Type2Tag(image: image)) != .saved { failures.append("a change was not saved") }
                                handle.close()
                            } catch {
                                failures.append("writer: \(error)")
                            }
                        }
                        return failures
                    }
                }
            }
            for _ in 0..<readers {
                group.addTask {
                    await offCooperativePool {
                        var failures: [String] = []
                        for _ in 0..<rounds * 2 {
                            // A reader that changed nothing saves nothing, so it cannot undo a write.
                            do {
                                let handle = try TagImageStore.open(path, for: .read, timeout: .seconds(60))
                                if try handle.save(handle.tag) != .unchanged { failures.append("an unchanged read saved") }
                                handle.close()
                            } catch {
                                failures.append("reader: \(error)")
                            }
                        }
                        return failures
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures)")
        let final = try #require(try TagImageFile.load(path) as? Type2Tag)
        #expect(final.image.counters[0] == UInt32(writers * rounds))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tag.json"], "no temporary file left")
    }

    @Test func aReadThatChangesNothingNeverWrites() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag216.make(), at: path)
        let before = inode(path)
        for access in [TagImageAccess.read, .modify] {
            let handle = try TagImageStore.open(path, for: access)
            #expect(try handle.save(handle.tag) == .unchanged)
            handle.close()
        }
        #expect(inode(path) == before, "the file was not replaced")
    }

    @Test func aReadingCommandNeverSavesEvenWhenTheTagChangedItself() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        let before = inode(path)
        let reader = try TagImageStore.open(path, for: .read)
        guard case .notKept = try reader.save(try counting(reader.tag, plus: 1)) else {
            Issue.record("a reading command saved")
            return
        }
        reader.close()
        #expect(inode(path) == before)
        #expect(try #require(try TagImageFile.load(path) as? Type2Tag).image.counters[0] == 0)
    }

    @Test func aSymbolicLinkKeepsPointingAtTheUpdatedImage() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/real.json"
        let link = folder + "/link.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: target)
        #expect(symlink(target, link) == 0)
        let handle = try TagImageStore.open(link, for: .modify)
        #expect(try handle.save(try counting(handle.tag, plus: 3)) == .saved)
        handle.close()
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
        #expect(try #require(try TagImageFile.load(link) as? Type2Tag).image.counters[0] == 3)
    }

    @Test func replacingAnImageKeepsItsModeAndWaitsForItsLock() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        chmod(path, 0o640)
        let holder = try TagImageStore.open(path, for: .read)
        #expect(throws: TagImageError(.busy, "")) {
            try TagImageStore.create(try VirtualTagKind.ntag216.make(), at: path, replace: true, timeout: .milliseconds(20))
        }
        holder.close()
        try TagImageStore.create(try VirtualTagKind.ntag216.make(), at: path, replace: true)
        #expect(mode(path) == 0o640)
        try TagImageStore.create(try VirtualTagKind.securityKey.make(), at: path, replace: true)
        #expect(mode(path) == 0o600, "secrets narrow the kept mode to the owner")
    }

    @Test func aLockHeldLongerThanTheTimeoutIsBusy() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        let holder = try TagImageStore.open(path, for: .modify)
        #expect(throws: TagImageError(.busy, "")) { try TagImageStore.open(path, for: .read, timeout: .milliseconds(20)) }
        #expect(throws: TagImageError(.busy, "")) { try TagImageStore.open(path, for: .modify, timeout: .zero) }
        holder.close()
        // Not .zero: a process another test spawns at this moment holds a copy of the descriptor
        // (and so the flock) between its fork and its exec, until O_CLOEXEC closes it.
        #expect(throws: Never.self) { try TagImageStore.open(path, for: .modify, timeout: .seconds(5)).close() }
    }

    @Test("A holder that saved keeps its lock on the new file; waiters queue behind it")
    func theLockFollowsTheReplacedFile() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        let holder = try TagImageStore.open(path, for: .modify)
        #expect(try holder.save(try counting(holder.tag, plus: 1)) == .saved)
        #expect(throws: TagImageError(.busy, "")) { try TagImageStore.open(path, for: .read, timeout: .milliseconds(20)) }
        #expect(try holder.save(try counting(holder.tag, plus: 2)) == .saved)
        holder.close()
        #expect(try #require(try TagImageFile.load(path) as? Type2Tag).image.counters[0] == 2)
    }

    @Test func savesKeepTheModeAndSecretsAreCreatedPrivate() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let previous = umask(0o022)
        defer { umask(previous) }
        let plain = folder + "/plain.json"
        let key = folder + "/key.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: plain)
        try TagImageStore.create(try VirtualTagKind.securityKey.make(), at: key)
        #expect(mode(plain) == 0o644)
        #expect(mode(key) == 0o600, "a security key holds private keys, PINs and OATH secrets")
        umask(0o077)
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: folder + "/private.json")
        #expect(mode(folder + "/private.json") == 0o600, "the umask applies to images without secrets")
        chmod(plain, 0o640)
        let handle = try TagImageStore.open(plain, for: .modify)
        #expect(try handle.save(try counting(handle.tag, plus: 1)) == .saved)
        handle.close()
        #expect(mode(plain) == 0o640, "a save keeps the file's mode")
        #expect(TagImageFile.holdsSecrets(try VirtualTagKind.securityKey.make()))
        #expect(TagImageFile.holdsSecrets(try VirtualTagKind.ntag424.make()), "AES keys")
        #expect(!TagImageFile.holdsSecrets(try VirtualTagKind.ntag213.make()))
    }

    @Test func createRefusesToReplaceUnlessAsked() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/tag.json"
        try TagImageStore.create(try VirtualTagKind.ntag213.make(), at: path)
        #expect(throws: TagImageError(.exists, "")) { try TagImageStore.create(try VirtualTagKind.ntag216.make(), at: path) }
        try TagImageStore.create(try VirtualTagKind.ntag216.make(), at: path, replace: true)
        #expect(VirtualTagKind(of: try TagImageFile.load(path)) == .ntag216)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tag.json"])
    }

    @Test("A save that fails removes its temporary file")
    func failedSaveLeavesNoTemporaryFile() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/tag.json"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)  // rename onto a folder fails
        #expect(throws: TagImageError.self) { try TagImageFile.save(try VirtualTagKind.ntag213.make(), to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tag.json"], "only the folder that blocked the rename")
    }

    @Test func loadsRefuseWhatIsNotARegularFile() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, folder, "/dev/zero"] {
            #expect(throws: TagImageError(.notARegularFile, "")) { try TagImageFile.load(path) }
            #expect(throws: TagImageError(.notARegularFile, "")) { try TagImageStore.open(path, for: .read) }
        }
    }
}
