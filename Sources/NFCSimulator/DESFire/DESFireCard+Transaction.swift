/// CommitTransaction and AbortTransaction (MIFARE DESFire EV1 short data sheet §8.3 and §9):
/// the uncommitted changes to backup, value and record files become the files' state in one
/// EEPROM write — a tear leaves all of the old state or all of the new — or are dropped.
extension DESFireCard {
    /// Drops the uncommitted changes (selecting, authenticating, leaving the field, AbortTransaction).
    mutating func discardTransaction() {
        uncommitted = nil
        limitedCreditUsed = []
        writingRecords = []
        debited = [:]
    }

    /// Forgets what the transaction holds for a file that is gone.
    mutating func forget(file number: UInt8) {
        limitedCreditUsed.remove(number)
        writingRecords.remove(number)
        debited[number] = nil
    }

    /// CommitTransaction (`C7`): the changes take effect; a value file's LimitedCredit allowance
    /// becomes the sum of this transaction's Debits (none: unchanged; used: zero). Nothing to
    /// commit answers NO_CHANGES (`0C`, EV1 short data sheet §9: "no changes done to backup files,
    /// CommitTransaction / AbortTransaction not necessary"), in the clear, the session kept (a
    /// model choice: the short data sheets do not say whether that answer is MACed).
    mutating func commitTransaction(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success(let app) = application() else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0xC7, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard let changed = uncommitted else { return DESFireAnswer(.noChanges) }
            for (index, file) in changed.enumerated() where file.kind.code != 0x00 {
                let old = applications[app].files[index]
                var new = file
                if case .value = old.kind, case .value(var after) = new.kind {
                    if limitedCreditUsed.contains(file.number) {
                        after.limitedCreditValue = 0
                    } else if let sum = debited[file.number], sum > 0 {
                        after.limitedCreditValue = Int32(clamping: sum)
                    }
                    new.kind = .value(after)
                }
                applications[app].files[index] = new
            }
            discardTransaction()
            return seal([], mode: managementMode, writes: true)
        }
    }

    /// AbortTransaction (`A7`): the uncommitted changes are dropped; nothing to drop answers NO_CHANGES.
    mutating func abortTransaction(_ data: [UInt8]) -> DESFireAnswer {
        guard case .success = application() else { return DESFireAnswer(.permissionDenied) }
        switch open(ins: 0xA7, data, headerLength: 0, mode: managementMode) {
        case .failure(let status): return DESFireAnswer(status)
        case .success(let parts):
            guard parts.body.isEmpty else { return DESFireAnswer(.lengthError) }
            guard uncommitted != nil else { return DESFireAnswer(.noChanges) }
            discardTransaction()
            return seal([], mode: managementMode)
        }
    }
}
