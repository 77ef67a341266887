/// The PN532's command codes (NXP UM0701-02 §7, Table 20 "list of commands"). A response's code
/// is the command's plus one.
package enum PN532Command: UInt8, Sendable, CaseIterable {
    // Miscellaneous (§7.2)
    /// Self-diagnosis (§7.2.1); test 0 is the communication line test, echoing its data.
    case diagnose = 0x00
    /// IC, version, revision and supported technologies (§7.2.2).
    case getFirmwareVersion = 0x02
    /// The last error, field state and active targets (§7.2.3).
    case getGeneralStatus = 0x04
    /// Reads CIU and SFR registers by 16-bit address (§7.2.4).
    case readRegister = 0x06
    /// Writes CIU and SFR registers (§7.2.5).
    case writeRegister = 0x08
    /// Reads the GPIO ports (§7.2.6).
    case readGPIO = 0x0C
    /// Writes the GPIO ports (§7.2.7).
    case writeGPIO = 0x0E
    /// Changes the HSU baud rate, after the ACK of its response (§7.2.8).
    case setSerialBaudRate = 0x10
    /// Sets the internal flags: NAD, DID, automatic ATR_RES and RATS, ISO 14443-4 PICC (§7.2.9).
    case setParameters = 0x12
    /// Configures the SAM; mode 1 (normal) is what hosts send first (§7.2.10).
    case samConfiguration = 0x14
    /// Enters power-down; a later frame wakes the chip (§7.2.11).
    case powerDown = 0x16
    // RF communication (§7.3)
    /// Field on/off, timings, retries, analog settings (§7.3.1).
    case rfConfiguration = 0x32
    /// RF regulation test (§7.3.2).
    case rfRegulationTest = 0x58
    // Initiator (§7.3)
    /// Activates a target for DEP with ATR (§7.3.3).
    case inJumpForDEP = 0x56
    /// Activates a target with ATR and PSL (§7.3.4).
    case inJumpForPSL = 0x46
    /// Detects and activates up to two targets of one modulation (§7.3.5).
    case inListPassiveTarget = 0x4A
    /// Sends ATR_REQ to an activated target (§7.3.6).
    case inATR = 0x50
    /// Changes bit rates with PSL (§7.3.7).
    case inPSL = 0x4E
    /// Exchanges data with a target, the PN532 doing the protocol (ISO-DEP, MIFARE) (§7.3.8).
    case inDataExchange = 0x40
    /// Sends raw bytes to the current target and returns its answer (§7.3.9).
    case inCommunicateThru = 0x42
    /// Deselects a target, keeping its information (§7.3.10).
    case inDeselect = 0x44
    /// Releases a target (§7.3.11).
    case inRelease = 0x52
    /// Selects a target again (§7.3.12).
    case inSelect = 0x54
    /// Polls for targets of several types (§7.3.13).
    case inAutoPoll = 0x60
    // Target (§7.3.14 onwards)
    /// Waits to be activated as a target (§7.3.14).
    case tgInitAsTarget = 0x8C
    /// Sets the general bytes of ATR_RES (§7.3.15).
    case tgSetGeneralBytes = 0x92
    /// Data from the initiator (§7.3.16).
    case tgGetData = 0x86
    /// Data to the initiator (§7.3.17).
    case tgSetData = 0x8E
    /// Meta data to the initiator (§7.3.18).
    case tgSetMetaData = 0x94
    /// A raw command from the initiator (§7.3.19).
    case tgGetInitiatorCommand = 0x88
    /// A raw response to the initiator (§7.3.20).
    case tgResponseToInitiator = 0x90
    /// The target's state (§7.3.21).
    case tgGetTargetStatus = 0x8A

    /// The command's name in the manual, e.g. `InListPassiveTarget`. (Not a `description`: the
    /// case name comes from `String(describing:)`, which would call that description again.)
    package var manualName: String {
        let name = String(describing: self)
        for acronym in ["sam", "rf"] where name.hasPrefix(acronym) {
            return acronym.uppercased() + name.dropFirst(acronym.count)
        }
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
