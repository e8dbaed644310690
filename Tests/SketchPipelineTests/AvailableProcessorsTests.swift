import Testing

@testable import SketchPipeline

@Suite("Available processors")
struct AvailableProcessorsTests {
    @Test func cgroupQuotaRoundsUpAndUnlimitedIsNoLimit() {
        #expect(AvailableProcessors.cgroupQuota("150000 100000\n") == 2)
        #expect(AvailableProcessors.cgroupQuota("100000 100000") == 1)
        #expect(AvailableProcessors.cgroupQuota("max 100000\n") == nil)
        #expect(AvailableProcessors.cgroupQuota("") == nil)
    }

    @Test func affinityMaskCountsSetBits() {
        #expect(AvailableProcessors.affinityMaskCount(" 3") == 2)
        #expect(AvailableProcessors.affinityMaskCount("ff,00000001") == 9)
        #expect(AvailableProcessors.affinityMaskCount("0") == nil)
    }

    @Test func countIsAtLeastOneAndAtMostTheMachine() {
        #expect(AvailableProcessors.count >= 1)
    }
}
