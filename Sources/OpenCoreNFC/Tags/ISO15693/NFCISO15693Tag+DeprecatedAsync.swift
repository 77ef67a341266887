import Foundation

/// The `async` forms Swift imports from two deprecated iOS 13 completion-handler methods of
/// `NFCISO15693Tag.h` (a method whose last parameter is a completion handler gets one): the
/// misspelt `lockDFSID` and the tuple-returning `getSystemInfo`. Apple deprecates both in iOS 14;
/// they still compile there, so they compile here.
extension NFCISO15693Tag {
    /// Lock DSFID (0x2A) under its iOS 13 misspelling.
    @available(iOS, introduced: 13.0, deprecated: 14.0, renamed: "lockDSFID(requestFlags:)")
    public func lockDFSID(requestFlags flags: NFCISO15693RequestFlag) async throws {
        try await lockDSFID(requestFlags: flags)
    }

    /// Get System Information (0x2B) as the iOS 13 tuple: DSFID, AFI, block size, block count and
    /// IC reference, each -1 when the tag leaves it out.
    @available(iOS, introduced: 13.0, deprecated: 14.0, message: "Use systemInfo(requestFlags:)")
    public func getSystemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> (Int, Int, Int, Int, Int) {
        let info = try await systemInfo(requestFlags: flags)
        return (
            info.dataStorageFormatIdentifier, info.applicationFamilyIdentifier, info.blockSize, info.totalBlocks, info.icReference
        )
    }
}
