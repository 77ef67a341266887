import ISO7816
import NFCTransport

/// Makes a Type 4 Tag read-only, as far as standard commands allow.
///
/// NFC Forum Type 4 Tag 2.0 has no lock command: a tag is READ-ONLY (§5.3.3) when its CC's
/// write access byte is `FF`, and how that byte and the file's real access rights change is left
/// to each chip (NTAG 424 DNA ChangeFileSettings, ST25TA's permanent-lock command, DESFire
/// ChangeFileSettings — all proprietary and often authenticated). This procedure does the one
/// standard thing: UPDATE BINARY of `FF` into the CC's write access byte, then reads it back.
///
/// - Write access already `FF`: nothing to do.
/// - A proprietary write condition (`80`–`FE`), or a CC file that refuses the update (as most
///   tags' CC files do, `6982`): `.unsupported`, naming the status word.
/// - Accepted: compliant readers and writers (this engine included) now treat the tag as
///   read-only; the chip itself may still accept UPDATE BINARY of its NDEF file from a writer
///   that ignores the CC, which is all T4T can promise without proprietary commands.
public struct Type4LockProcedure: Type4Procedure {
    /// Nothing: the CC says read-only when the procedure is done.
    public typealias Output = Void

    enum State: Sendable {
        case detecting(Type4Detection)
        case updating(Type4Capabilities)
        case verifying(Type4Capabilities)
        case done
    }

    var state = State.detecting(Type4Detection(depth: .capabilities))

    /// A lock procedure, starting with NDEF detection up to the CC.
    public init() {}

    /// SELECT of the NDEF Tag Application, the first step of detection.
    /// - Throws: `.unexpectedResponse` when started twice.
    public mutating func start() throws(TagEngineError) -> Type4Action<Void> {
        guard case .detecting(var detection) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 lock started twice")
        }
        let action = try detection.start()
        state = .detecting(detection)
        return try afterDetection(action)
    }

    /// Follows detection, then UPDATE BINARY of `FF` into the write access byte and a READ BINARY
    /// to check it.
    /// - Throws: `.unsupported` for a proprietary write access, a refused update or a byte that does
    ///   not read back as `FF`; the detection errors.
    public mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Void> {
        let sw = response.statusWord
        switch state {
        case .detecting(var detection):
            let action = try detection.handle(response)
            state = .detecting(detection)
            return try afterDetection(action)
        case .updating(let capabilities):
            guard sw == .success else {
                state = .done
                throw Type4Status.failure(
                    .unsupported,
                    "the CC file E103 refused the write access byte FF: Type 4 has no standard lock command, and making this tag read-only needs the chip's proprietary commands",
                    sw
                )
            }
            state = .verifying(capabilities)
            return .send(.readBinary(offset: capabilities.writeAccessOffset, length: 1))
        case .verifying:
            state = .done
            guard sw == .success, response.data == [0xFF] else {
                throw TagEngineError(
                    .unsupported,
                    "the CC file E103 accepted the write access byte FF but reads back \(response.data.map { Type4Capabilities.hex($0) }.joined()) (SW \(sw)); the tag needs its proprietary commands",
                    tagStatus: sw.bytes
                )
            }
            return .done(())
        case .done:
            throw TagEngineError(.unexpectedResponse, "an answer arrived after locking ended")
        }
    }

    private mutating func afterDetection(_ action: Type4Action<Type4NDEFFile>) throws(TagEngineError) -> Type4Action<Void> {
        let capabilities: Type4Capabilities
        switch action {
        case .send(let command): return .send(command)
        case .done(let file): capabilities = file.capabilities
        }
        switch capabilities.writeAccess {
        case 0xFF:
            state = .done
            return .done(())
        case 0x00:
            // Detection to the CC depth leaves the CC file selected.
            state = .updating(capabilities)
            return .send(.updateBinary(offset: capabilities.writeAccessOffset, data: [0xFF]))
        default:
            throw TagEngineError(
                .unsupported,
                "the CC's write access \(Type4Capabilities.hex(capabilities.writeAccess)) is a proprietary condition; only the chip's own commands can change it"
            )
        }
    }
}
