/// The applets of a `security-key` card, in the order SELECT searches them.
///
/// Each authenticator applet (OATH, FIDO, PIV) adds itself here; keys and secrets are made fresh
/// from the system's random source every time a card is made.
enum SecurityKeyApplets {
    /// Fresh applets for a new card; `blank` makes them as a key leaves the factory (no
    /// credentials), which is also what a card that is not blank starts with.
    static func make(blank: Bool) -> [any ISO7816Applet] {
        [
            OATHApplet(),
            FIDOAuthenticator(),
            PIVApplet(),
        ]
    }
}
