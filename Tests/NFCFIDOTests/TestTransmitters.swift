import ISO7816
import NFCBytes
import NFCSimulator

/// The emulated authenticator applet driven directly (already selected; extended APDUs).
final class AppletTransmitter: APDUTransmitter {
    let supportsExtendedLength = true
    private let applet: Guarded<FIDOAuthenticator>

    init(_ applet: FIDOAuthenticator = FIDOAuthenticator()) {
        self.applet = Guarded(applet)
    }

    var authenticator: FIDOAuthenticator { applet.withLock { $0 } }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        let apdu = try SimCommandAPDU(bytes: command)
        return applet.withLock { applet in
            if apdu.ins == 0xA4 { return applet.select(command: apdu).bytes }
            return applet.process(apdu).bytes
        }
    }

    /// A power cycle: transient state (key agreement key, token, PIN-failure count) resets.
    func powerCycle() {
        applet.withLock { $0.reset() }
    }
}
