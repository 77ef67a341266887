import Testing

@testable import NFCTags

@Suite struct Type2ReadPlanTests {
    @Test func nearbyRunsShareOneFastRead() throws {
        let plan = try Type2ReadPlan(pages: [6, 7, 8, 12, 13, 40], fastRead: true, maximumLength: 1024)
        #expect(plan.commands == [.fastRead(start: 6, end: 13), .fastRead(start: 40, end: 40)])
    }

    @Test func spansFollowTheAnswerLimit() throws {
        let plan = try Type2ReadPlan(pages: Array(4..<14), fastRead: true, maximumLength: 17)
        #expect(plan.commands == [.fastRead(start: 4, end: 7), .fastRead(start: 8, end: 11), .fastRead(start: 12, end: 13)])
    }

    @Test func withoutFastReadEveryReadCoversFourPages() throws {
        let plan = try Type2ReadPlan(pages: [2, 3, 4, 5, 6, 9, 40], fastRead: false, maximumLength: 16)
        #expect(plan.commands == [.read(page: 2, keep: 4), .read(page: 6, keep: 4), .read(page: 40, keep: 1)])
    }

    @Test func whatCannotBeReadIsUnsupported() {
        #expect(throws: TagEngineError(.unsupported, "")) { try Type2ReadPlan(pages: [4], fastRead: false, maximumLength: 15) }
        #expect(throws: TagEngineError(.unsupported, "")) { try Type2ReadPlan(pages: [4], fastRead: true, maximumLength: 3) }
        #expect(throws: TagEngineError(.unsupported, "")) { try Type2ReadPlan(pages: [255, 256], fastRead: true, maximumLength: 64) }
    }
}
