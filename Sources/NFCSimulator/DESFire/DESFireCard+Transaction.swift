/// CommitTransaction and AbortTransaction (MIFARE DESFire EV1 short data sheet §8.3 and §9):
/// the uncommitted changes to backup, value and record files become the files' state in one
/// EEPROM write — a tear leaves all of the old state or all of the new — or are dropped.
extension DESFireCard {
    /// Drops the uncommitted changes (selecting, authenticating, leaving the field, AbortTransaction).
    mutating func discardTransaction() {
        uncommitted = nil
        limitedCreditUsed = []
        writingRecords = []
    }

    /// CommitTransaction (`C7`): the changes take effect; a value file's LimitedCredit allowance
    /// becomes what this transaction debited. Nothing to commit is not an error.
    mutating func commitTransaction(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0xC7, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard let changed = uncommitted else { return seal([], mode: managementMode) }
            for (index, file) in changed.enumerated() where file.kind.code != 0x00 {
                let old = applications[app].files[index]
                var new = file
                if case .value(let before) = old.kind, case .value(var after) = new.kind {
                    let debited = Int64(before.value) - Int64(after.value)
                    if !limitedCreditUsed.contains(file.number) {
                        after.limitedCreditValue = debited > 0 ? Int32(clamping: debited) : after.limitedCreditValue
                    } else {
                        after.limitedCreditValue = 0
                    }
                    new.kind = .value(after)
                }
                applications[app].files[index] = new
            }
            discardTransaction()
            return seal([], mode: managementMode, writes: true)
        }
    }

    /// AbortTransaction (`A7`): the uncommitted changes are dropped.
    mutating func abortTransaction(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success = application() else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0xA7, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            discardTransaction()
            return seal([], mode: managementMode)
        }
    }
}
