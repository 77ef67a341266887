import Foundation
import NFCSimulator

/// `nfc watch --reader sim:PATH`: a simulated field whose tags are image files.
///
/// PATH is one tag image or a directory of them (`*.json`). A file appearing (or replaced by
/// a new version) is a tag tapped on the reader; a file that stays is a tag held still; a file
/// removed is the tag taken away. Scripts and tests drive taps by writing and deleting files.
final class ImageFolderField: Sendable {
    let field: SimulatedField
    let path: String

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
    /// images that cannot be loaded (once per version).
    func run(every interval: Duration = .milliseconds(50), problem: @escaping @Sendable (String) -> Void) async {
        var placed: [String: (version: Version, id: VirtualTagID?)] = [:]
        while !Task.isCancelled {
            let now = scan()
            for (file, known) in placed where now[file] != known.version {
                if let id = known.id { _ = await field.remove(id) }
                placed[file] = nil
            }
            for (file, version) in now.sorted(by: { $0.key < $1.key }) where placed[file] == nil {
                do {
                    let tag = try TagImageFile.load(file)
                    placed[file] = (version, await field.place(tag))
                } catch {
                    placed[file] = (version, nil)
                    problem("\(file): \(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// The image files present now and their versions.
    func scan() -> [String: Version] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
        let files: [String]
        if isDirectory.boolValue {
            let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { (path as NSString).appendingPathComponent($0) }
        } else {
            files = [path]
        }
        var out: [String: Version] = [:]
        for file in files {
            guard let attributes = try? manager.attributesOfItem(atPath: file) else { continue }
            out[file] = Version(
                inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                modified: attributes[.modificationDate] as? Date ?? .distantPast
            )
        }
        return out
    }
}
