import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// Damaged images and dumps: every mutation is either refused with a typed error or loads a tag
/// that still answers commands — never a crash.
@Suite struct ImageMutationTests {
    private static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !out.isEmpty:  // flip a byte to a JSON-relevant character or hex digit
            let alphabet = Array("0123456789abcdefF{}[]\",:-. ".utf8)
            out[Int.random(in: 0..<out.count, using: &random)] = alphabet.randomElement(using: &random) ?? 0x30
        case 1 where !out.isEmpty:  // delete a run
            let start = Int.random(in: 0..<out.count, using: &random)
            out.removeSubrange(start..<min(out.count, start + Int.random(in: 1...8, using: &random)))
        case 2:  // duplicate a run
            let start = Int.random(in: 0..<max(1, out.count), using: &random)
            let run = Array(out[start..<min(out.count, start + 16)])
            out.insert(contentsOf: run, at: start)
        default:  // truncate
            out = Array(out.prefix(Int.random(in: 0...out.count, using: &random)))
        }
        return out
    }

    @Test(arguments: VirtualTagKind.allCases)
    func mutatedImagesNeverCrash(kind: VirtualTagKind) async throws {
        let original = try TagImageFile.encode(kind.make())
        var random = SeededGenerator(seed: 0x1A6E + UInt64(kind.rawValue.utf8.count))
        var refused = 0
        var loaded = 0
        for _ in 0..<300 {
            let bytes = Self.mutate(original, &random)
            let tag: any VirtualTag
            do {
                tag = try TagImageFile.decode(bytes)
            } catch {
                refused += 1
                #expect(!error.reason.isEmpty)
                continue
            }
            loaded += 1
            // A loaded tag saves and loads back to the same image…
            let saved = try TagImageFile.encode(tag)
            #expect(try TagImageFile.encode(TagImageFile.decode(saved)) == saved)
            // …and still answers in a field: a Type 2 tag's READ of page 0 gives 16 bytes.
            let harness = try await FieldHarness(tag)
            if tag is Type2Tag {
                #expect(try await harness.send([0x30, 0x00]).count == 16)
            }
        }
        #expect(refused > 0, "mutations are refused")
        #expect(loaded > 0, "and some (a changed memory byte) load")
    }

    @Test func mutatedFlipperDumpsNeverCrash() {
        var random = SeededGenerator(seed: 0xF11F)
        var refused = 0
        for _ in 0..<500 {
            for sample in [FlipperSamples.ntag213(), FlipperSamples.slix2] {
                let text = String(decoding: Self.mutate(Array(sample.utf8), &random), as: UTF8.self)
                do {
                    _ = try FlipperImport.tag(from: FlipperDump(FlipperNFCFile(text: text)))
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused > 0)
    }
}
