import Foundation
import NFCBytes
import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc watch --reader sim:PATH`: a simulated field whose tags are image files.
///
/// PATH is one tag image or a directory of them (`*.json`). A file appearing (or replaced by
/// a new version) is a tag tapped on the reader; a file that stays is a tag held still; a file
/// removed is the tag taken away. Scripts and tests drive taps by writing and deleting files.
final class ImageFolderField: Sendable {
    let field: SimulatedField
    let path: String
    /// The file each tag in the field came from, by its target handle.
    private let files = Guarded<[UInt64: String]>([:])

    init(path: String) {
        self.path = path
        self.field = SimulatedField(name: "sim:" + path)
    }

    /// What identifies one version of a file.
    struct Version: Hashable {
        var inode: UInt64
        var size: UInt64
        var modified: Date
    }

    /// Keeps the field in step with the files until the task is cancelled; `problem` hears of
    /// images that cannot be loaded (once per version), of entries that are not regular files
    /// (skipped: a FIFO would block the watch), and of a watched path that is missing (once; the
    /// watch goes on and picks it up when it appears).
    func run(every interval: Duration = .milliseconds(50), problem: @escaping @Sendable (String) -> Void) async {
        var placed: [String: (version: Version, id: VirtualTagID?)] = [:]
        var reported: Set<String> = []
        var missingReported = false
        while !Task.isCancelled {
            let listing = scan()
            if listing.missing, !missingReported {
                problem("\(path): no such file or folder; watching for it to appear")
            }
            if !listing.missing, missingReported { problem("\(path) appeared") }
            missingReported = listing.missing
            for entry in listing.skipped where !reported.contains(entry) {
                reported.insert(entry)
                problem("\(entry): not a regular file; skipped")
            }
            reported.formIntersection(listing.skipped)
            let now = listing.files
            for (file, known) in placed where now[file] != known.version {
                if let id = known.id {
                    _ = await field.remove(id)
                    files.withLock { $0[id.rawValue] = nil }
                }
                placed[file] = nil
            }
            for (file, version) in now.sorted(by: { $0.key < $1.key }) where placed[file] == nil {
                do {
                    let tag = try TagImageFile.load(file)
                    let id = await field.place(tag)
                    files.withLock { $0[id.rawValue] = file }
                    placed[file] = (version, id)
                } catch {
                    placed[file] = (version, nil)
                    problem("\(file): \(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// The image file the tag with target `handle` was loaded from, while it is in the field.
    func file(of handle: UInt64) -> String? { files.withLock { $0[handle] } }

    /// Saves the tag with target `handle` back to its image file, under the image's lock
    /// (`nfc write --loop`); the folder then sees a new version of the file, a tap of the same tag.
    func save(_ handle: UInt64) async throws {
        // The arrival is announced inside `place`, before `run` records the tag's file: a reader
        // as quick as `write --loop` may get here first, so wait (briefly) for the record.
        var file = file(of: handle)
        let deadline = ContinuousClock.now + .seconds(2)
        while file == nil, ContinuousClock.now < deadline, await field.tag(VirtualTagID(rawValue: handle)) != nil {
            try? await Task.sleep(for: .milliseconds(5))
            file = self.file(of: handle)
        }
        guard let file, let tag = await field.tag(VirtualTagID(rawValue: handle)) else {
            throw CLIError("the tag left before its image could be saved")
        }
        do throws(TagImageError) {
            let image = try TagImageStore.open(file, for: .modify)
            defer { image.close() }
            _ = try image.save(tag)
        } catch {
            throw CLIError(imageError: error, path: file, doing: "cannot save")
        }
    }

    /// What the watched path holds now.
    struct Listing {
        /// The regular image files and their versions.
        var files: [String: Version] = [:]
        /// Entries that look like images but are FIFOs, devices, sockets or folders.
        var skipped: Set<String> = []
        /// Whether the watched path itself is missing.
        var missing = false
    }

    /// The image files present now and their versions (`lstat`: never opens or follows into a
    /// FIFO or device; a symbolic link to a regular file counts as that file).
    func scan() -> Listing {
        var listing = Listing()
        var status = stat()
        guard stat(path, &status) == 0 else {
            listing.missing = true
            return listing
        }
        let candidates: [String]
        if status.st_mode & S_IFMT == S_IFDIR {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            candidates = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { (path as NSString).appendingPathComponent($0) }
        } else {
            candidates = [path]
        }
        for file in candidates {
            var entry = stat()
            guard stat(file, &entry) == 0 else { continue }
            guard entry.st_mode & S_IFMT == S_IFREG else {
                listing.skipped.insert(file)
                continue
            }
            #if canImport(Darwin)
            let modified = Date(timeIntervalSince1970: Double(entry.st_mtimespec.tv_sec) + Double(entry.st_mtimespec.tv_nsec) / 1e9)
            #else
            let modified = Date(timeIntervalSince1970: Double(entry.st_mtim.tv_sec) + Double(entry.st_mtim.tv_nsec) / 1e9)
            #endif
            listing.files[file] = Version(inode: UInt64(entry.st_ino), size: UInt64(entry.st_size), modified: modified)
        }
        return listing
    }
}
