import Foundation
import NFCBytes

/// Where `sim` keeps its persistent virtual tag, and the tag it starts with.
///
/// The `nfc` tool and Core NFC sessions (through NFCReaders) share it, so that a tag written
/// with `nfc write` is the tag an app's session reads under `OPENCORENFC_READER=sim`.
public enum SimulatorHome {
    /// Where `sim` keeps its tag: `$OPENCORENFC_SIM_IMAGE`, else
    /// `$XDG_DATA_HOME/opencorenfc/sim-tag.json` (`~/.local/share/…` by default; on macOS
    /// `~/Library/Application Support/OpenCoreNFC/sim-tag.json`).
    public static var defaultImagePath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["OPENCORENFC_SIM_IMAGE"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
        let base = home + "/Library/Application Support/OpenCoreNFC"
        #else
        let base = (environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (home + "/.local/share")) + "/opencorenfc"
        #endif
        return base + "/sim-tag.json"
    }

    /// Creates the default tag at `path` if nothing is there; two processes starting at once
    /// create it once.
    /// - Returns: whether this call created it (the CLI says so once).
    /// - Throws: ``TagImageError`` when the folder or file cannot be created.
    @discardableResult
    public static func createWelcomeTagIfMissing(at path: String) throws(TagImageError) -> Bool {
        guard !FileManager.default.fileExists(atPath: path) else { return false }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try TagImageStore.create(try welcomeTag(), at: path)
            return true
        } catch let error as TagImageError where error.code == .exists {
            return false
        } catch let error as TagImageError {
            throw error
        } catch {
            throw TagImageError(.io, "cannot create the simulated tag \(path): \(error)")
        }
    }

    /// The tag `sim` starts with: an NTAG216 holding a Smart Poster (the URI
    /// `https://nfc-forum.org` and the English title "Hello NFC"), so that a first read shows
    /// something.
    public static func welcomeTag() throws -> Type2Tag {
        let poster = try Hex.decode("d10222537091010e55036e66632d666f72756d2e6f726751010c5402656e48656c6c6f204e4643")
        var image = Type2Tag(model: .ntag216).image
        var memory = image.memory.bytes
        let tlv = [0x03, UInt8(poster.count)] + poster + [0xFE]
        memory.replaceSubrange(16..<(16 + tlv.count), with: tlv)
        image.memory = HexBytes(memory)
        return try Type2Tag(image: image)
    }
}
