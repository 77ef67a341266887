import NFCTransport

#if Simulator
import NFCSimulator
#endif
#if PCSC
import NFCPCSC
#endif
#if PN532
import NFCPN532
#endif

/// Opens the reader a ``ReaderName`` names, with the backends this build includes.
///
/// The simulator, PC/SC and PN532 backends are package traits (`Simulator`, `PCSC`, `PN532`, all
/// on by default). An app that takes only Core NFC's API turns them off and links neither the
/// simulator nor swift-crypto nor the PC/SC or PN532 drivers; a name for a missing backend is then a
/// ``ReaderNameError/Code-swift.struct/unsupportedBackend`` error.
public enum ReaderBackends {
    /// Whether this build includes the simulator.
    public static var hasSimulator: Bool {
        #if Simulator
        true
        #else
        false
        #endif
    }

    /// Whether this build includes the PC/SC driver.
    public static var hasPCSC: Bool {
        #if PCSC
        true
        #else
        false
        #endif
    }

    /// Whether this build includes the PN532 driver.
    public static var hasPN532: Bool {
        #if PN532
        true
        #else
        false
        #endif
    }

    /// A driver for Core NFC sessions: a simulated field holding the tag of the image (`sim`
    /// creates the persistent tag, `SimulatorHome`, on first use), or the PC/SC readers the
    /// name selects, or the PN532 board on the serial device it names.
    ///
    /// Sessions read the image once; what they change stays in the field (the `nfc` tool's
    /// commands are the ones that save images back, under the image lock).
    public static func sessionDriver(for name: ReaderName) throws(ReaderNameError) -> any ReaderDriver {
        switch name {
        case .simulator(let path):
            #if Simulator
            let file = path ?? SimulatorHome.defaultImagePath
            let tag: any VirtualTag
            do {
                if path == nil { try SimulatorHome.createWelcomeTagIfMissing(at: file) }
                tag = try TagImageFile.load(file)
            } catch {
                throw ReaderNameError(.unavailable, "\(name): \(error)")
            }
            return SimulatedField(name: name.description, holding: [tag])
            #else
            throw ReaderNameError(.unsupportedBackend, "\(name): this build has no simulator (enable the package trait Simulator)")
            #endif
        case .pcsc(let filter):
            #if PCSC
            guard PCSCDriver.isLibraryAvailable else {
                throw ReaderNameError(.unavailable, "\(name): the PC/SC library (libpcsclite.so.1) is not installed")
            }
            return PCSCDriver(readerFilter: filter)
            #else
            throw ReaderNameError(.unsupportedBackend, "\(name): this build has no PC/SC driver (enable the package trait PCSC)")
            #endif
        case .pn532(let path, let baudRate):
            #if PN532
            // The line opens on first use: a missing device is an error of the session's first poll.
            return PN532Driver(path: path, baudRate: baudRate ?? 115_200)
            #else
            throw ReaderNameError(.unsupportedBackend, "\(name): this build has no PN532 driver (enable the package trait PN532)")
            #endif
        case .nfcpyUDP(let host, let port):
            #if PN532
            return NfcpyUDPReader(host: host, port: port)
            #else
            throw ReaderNameError(.unsupportedBackend, "\(name): this build has no PN532 module (enable the package trait PN532)")
            #endif
        case .pn532Target(let path):
            #if PN532
            // The terminal is made now, so that the card's program can open it before the first poll.
            do {
                return try PN532TargetReader(linkPath: path)
            } catch {
                throw ReaderNameError(.unavailable, "\(name): \(error.reason)")
            }
            #else
            throw ReaderNameError(.unsupportedBackend, "\(name): this build has no PN532 driver (enable the package trait PN532)")
            #endif
        }
    }
}
