import SketchFormats

/// What a record says about itself besides its word, key_id and drawing, carried to the shards
/// that list it (a WebDataset sample's `.json`).
public struct RecordFacts: Sendable, Equatable {
    /// The record's `countrycode`.
    public var countryCode: String
    /// The record's `recognized`.
    public var recognized: Bool
    /// The record's `timestamp` text.
    public var timestamp: String

    /// Creates facts (defaults: what an image or a stroke-3 record has: none, recognized).
    public init(countryCode: String = "", recognized: Bool = true, timestamp: String = "") {
        (self.countryCode, self.recognized, self.timestamp) = (countryCode, recognized, timestamp)
    }
}

/// One labelled example for a sharded dataset.
public struct DatasetExample: Sendable, Equatable {
    /// The drawing's id (decides the split; listed in `.keys.txt`).
    public var keyID: String
    /// Class index.
    public var label: Int32
    /// The features.
    public var payload: TensorPayload
    /// The class word (written where a shard names it: WebDataset's `.json`).
    public var word: String
    /// The record's other fields (WebDataset's `.json`).
    public var facts: RecordFacts

    /// Creates an example; the payload's value count must match its shape.
    public init(keyID: String, label: Int32, payload: TensorPayload, word: String = "", facts: RecordFacts = RecordFacts()) {
        precondition(payload.count == payload.shape.reduce(1, *), "payload value count does not match its shape")
        self.keyID = keyID
        self.label = label
        self.payload = payload
        self.word = word
        self.facts = facts
    }
}
