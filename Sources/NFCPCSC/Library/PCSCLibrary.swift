import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The PC/SC library, loaded at run time with `dlopen` so that building needs nothing but the
/// toolchain and a machine without PC/SC runs everything else.
///
/// Linux: `libpcsclite.so.1` (pcsc-lite's client library; pcscd itself is a separate daemon).
/// macOS: `PCSC.framework`. `OPENCORENFC_PCSC_LIBRARY` names another file.
final class PCSCLibrary: @unchecked Sendable {  // immutable C function pointers and a handle never closed
    let path: String
    let establishContext: PCSCABI.EstablishContext
    let releaseContext: PCSCABI.ReleaseContext
    let listReaders: PCSCABI.ListReaders
    let getStatusChange: PCSCABI.GetStatusChange
    let connect: PCSCABI.Connect
    let reconnect: PCSCABI.Reconnect
    let disconnect: PCSCABI.Disconnect
    let transmit: PCSCABI.Transmit
    let status: PCSCABI.Status
    let cancel: PCSCABI.Cancel

    /// The library as loaded once per process, or why it could not be.
    static let shared: Result<PCSCLibrary, TransportError> = load()

    static var candidates: [String] {
        if let override = getenv("OPENCORENFC_PCSC_LIBRARY").map({ String(cString: $0) }), !override.isEmpty {
            return [override]
        }
        #if os(macOS)
        return ["/System/Library/Frameworks/PCSC.framework/PCSC"]
        #else
        return ["libpcsclite.so.1", "libpcsclite.so"]
        #endif
    }

    private static func load() -> Result<PCSCLibrary, TransportError> {
        var reasons: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            do {
                return .success(try PCSCLibrary(path: path, handle: handle))
            } catch {
                reasons.append(error.reason)
            }
        }
        let hint: String
        #if os(macOS)
        hint = "PCSC.framework is missing"
        #else
        hint = "install pcsc-lite (Debian: apt install pcscd libpcsclite1)"
        #endif
        return .failure(TransportError(.serviceUnavailable, "no PC/SC library: \(hint) (\(reasons.joined(separator: "; ")))"))
    }

    private init(path: String, handle: UnsafeMutableRawPointer) throws(TransportError) {
        func symbol<F>(_ name: String, as type: F.Type) throws(TransportError) -> F {
            guard let pointer = dlsym(handle, name) else {
                throw TransportError(.serviceUnavailable, "\(path) has no \(name)")
            }
            return unsafeBitCast(pointer, to: F.self)
        }
        self.path = path
        establishContext = try symbol("SCardEstablishContext", as: PCSCABI.EstablishContext.self)
        releaseContext = try symbol("SCardReleaseContext", as: PCSCABI.ReleaseContext.self)
        listReaders = try symbol("SCardListReaders", as: PCSCABI.ListReaders.self)
        getStatusChange = try symbol("SCardGetStatusChange", as: PCSCABI.GetStatusChange.self)
        connect = try symbol("SCardConnect", as: PCSCABI.Connect.self)
        reconnect = try symbol("SCardReconnect", as: PCSCABI.Reconnect.self)
        disconnect = try symbol("SCardDisconnect", as: PCSCABI.Disconnect.self)
        transmit = try symbol("SCardTransmit", as: PCSCABI.Transmit.self)
        status = try symbol("SCardStatus", as: PCSCABI.Status.self)
        cancel = try symbol("SCardCancel", as: PCSCABI.Cancel.self)
    }
}
