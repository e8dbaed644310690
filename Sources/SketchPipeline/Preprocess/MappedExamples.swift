import SketchDataset
import SketchFormats

/// The examples a map-side worker made of one batch, in input order, with their words and their
/// counts per class, sort-key bucket and split already added up on the worker, so that the
/// consumer adds a batch's counts at once instead of one example at a time (``MapSink``).
struct MappedExamples: Sendable {
    private(set) var examples: [SortedExample] = []
    private(set) var words = ClassWords()
    private(set) var bucketCounts = BucketCounts()

    /// Appends `example` and counts it.
    mutating func append(_ example: SortedExample) {
        words.insert(example.word)
        bucketCounts.add(word: example.word, sortKey: example.sortKey, split: example.split)
        examples.append(example)
    }
}
