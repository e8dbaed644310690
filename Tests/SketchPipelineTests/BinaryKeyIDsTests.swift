import SketchDataset
import Testing

@testable import SketchPipeline

@Suite struct BinaryKeyIDsTests {
    @Test func aUInt64KeyIDIsKeptAndAnyOtherGetsFNV1aWithTheTopBitSet() {
        var keys = BinaryKeyIDs()
        #expect(keys.assign("5201136883597312") == .kept(5_201_136_883_597_312))
        #expect(keys.assign("airplane/1.svg") == .derived(FNV1a64.hash("airplane/1.svg") | 1 << 63))
        #expect(BinaryKeyIDs.value(of: "kanji.npz#train#0") == FNV1a64.hash("kanji.npz#train#0") | 1 << 63)
    }

    @Test func anotherKeyIDWithTheSameValueInTheFileCollidesButTheSameKeyIDIsADuplicate() {
        var keys = BinaryKeyIDs()
        let value = BinaryKeyIDs.derived(from: "mine")
        #expect(keys.assign(String(value)) == .kept(value))
        guard case .collision(let reason) = keys.assign("mine") else {
            Issue.record("a derived key_id equal to a kept one must collide")
            return
        }
        #expect(reason.contains("key_id mine would share the .bin key_id \(value)"))
        #expect(keys.assign(String(value)) == .kept(value))
        #expect(keys.assign("other") == keys.assign("other"))
    }
}
