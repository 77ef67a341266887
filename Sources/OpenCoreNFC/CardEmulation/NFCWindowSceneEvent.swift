/// Why the system activated an app's window scene for card emulation (Core NFC, iOS 17.4:
/// `NFCWindowSceneEvent`, used with UIKit's scene activation). There are no window scenes here;
/// the type exists so that code naming it compiles.
@available(iOS 17.4, *)
public enum NFCWindowSceneEvent: String, Codable, Hashable, Sendable, CustomStringConvertible {
    /// A reader's field was detected.
    case readerDetected
    /// The user asked to present a credential.
    case presentation

    /// The case's name.
    public var description: String { rawValue }
}
