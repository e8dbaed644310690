import SketchDataset
import SketchFormats

/// The examples a map-side worker made of one batch, as a run fragment (``RunFragment``: the
/// examples serialized as run-file records, sorted by ``sorted()`` on the worker), with their words
/// and their counts per class, sort-key bucket and split already added up on the worker, so that
/// the consumer (``MapSink``) adds a batch's counts at once and merges its sorted records into the
/// runs instead of sorting and serializing one example at a time.
struct MappedExamples: Sendable {
    private(set) var fragment = RunFragment()
    private(set) var words = ClassWords()
    private(set) var bucketCounts = BucketCounts()

    /// Appends `example` and counts it.
    mutating func append(_ example: SortedExample) {
        words.insert(example.word)
        bucketCounts.add(word: example.word, sortKey: example.sortKey, split: example.split)
        fragment.append(example)
    }

    /// The same examples with the fragment in dataset order: a stage's batch output, taken on the
    /// worker that made it.
    func sorted() -> MappedExamples {
        var copy = self
        copy.fragment.sort()
        return copy
    }
}
