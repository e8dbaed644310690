import Testing

@testable import SketchFormats

@Test func webDatasetKeysHoldNoDotsOrSlashesAndDifferForDifferentKeyIDs() {
    #expect(WebDatasetKey.of("5201136883597312") == "5201136883597312")
    #expect(WebDatasetKey.of("airplane/1.svg") == "airplane~2F1~2Esvg")
    #expect(WebDatasetKey.of("omniglot.npz#train#3") == "omniglot~2Enpz~23train~233")
    // `~` is escaped too, so an escape in a key_id cannot pass for an escaped byte.
    #expect(WebDatasetKey.of("a~2Eb") == "a~7E2Eb" && WebDatasetKey.of("a.b") == "a~2Eb")
    #expect(WebDatasetKey.of("é") == "~C3~A9")
}
