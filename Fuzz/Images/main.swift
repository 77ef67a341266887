import Foundation
import NFCSimulator

/// libFuzzer target for tag image files: `opencorenfc-tag-image` JSON (``TagImageFile``) and
/// Flipper Zero `.nfc` dumps (``FlipperNFCFile`` → ``FlipperDump`` → ``FlipperImport``).
///
/// Input: `[format] file…` — an even first byte means JSON, odd means Flipper text.
/// Asserts: a refused file is a typed `TagImageError`/`FlipperImportError`, never a trap; an
/// image that decodes encodes, and the encoding decodes and re-encodes to the same bytes (save
/// → load → save is stable); an imported Flipper dump gives a tag that saves and reloads.
///
/// `FUZZ_MAKE_SEEDS=DIR` writes one image per virtual tag kind (blank and formatted) and exits.
func stableImage(_ tag: any VirtualTag, _ what: String) {
    guard let encoded = try? TagImageFile.encode(tag) else { return }
    guard let reloaded = try? TagImageFile.decode(encoded), let again = try? TagImageFile.encode(reloaded) else {
        fatalError("\(what): a saved image does not load")  // trap-ok: fuzz oracle
    }
    guard again == encoded else { fatalError("\(what): save → load → save changed the image") }  // trap-ok: fuzz oracle
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImages(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = Array(bytes.dropFirst())
    if bytes[0] & 1 == 0 {
        guard let tag = try? TagImageFile.decode(file) else { return 0 }
        stableImage(tag, "JSON image")
    } else {
        let text = String(decoding: file, as: UTF8.self)
        guard let parsed = try? FlipperNFCFile(text: text), let dump = try? FlipperDump(parsed) else { return 0 }
        guard let tag = try? FlipperImport.tag(from: dump) else { return 0 }
        stableImage(tag, "Flipper import")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    var written = 0
    for kind in VirtualTagKind.allCases {
        for blank in [false, true] {
            guard let tag = try? kind.make(blank: blank), let image = try? TagImageFile.encode(tag) else { continue }
            let url = URL(fileURLWithPath: "\(directory)/\(kind.rawValue)\(blank ? "-blank" : "").json")
            try? Data([0] + image).write(to: url)
            written += 1
        }
    }
    print("wrote \(written) seeds to \(directory)")
    exit(0)
}
