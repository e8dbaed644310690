import SketchCore
import SketchFormats

/// The batch of an encode stage: the one set of encoders every command and pipeline shares
/// (stroke tensors `StrokeTensorStage`, bitmaps `BitmapRenderStage`, time channels
/// `TimeChannelStage`, stroke-3 rows `Stroke3Stage`). A record is encoded in two steps:
/// `prepare` (the drawing the stage encodes: simplified where the input format says so,
/// `InputFormat.prepare(_:readAs:with:)`) and `encode`. The commands append the encodings into
/// one array (`process`); the preprocess map side wraps each into an example (`ExampleStage`).
package protocol EncodingBatch: RecordStageBatch {
    /// One record's encoding.
    associatedtype Encoded
    /// The drawing of `record` this stage encodes; throws for a record over a processing bound.
    mutating func prepare(_ record: SketchRecord) throws(StageRejection) -> Drawing
    /// The encoding of `drawing` (the prepared drawing of `record`, read as `line`: what its
    /// format keeps beside it, such as a float64 stroke-3 record's exact deltas); throws for a
    /// drawing the encoding cannot hold or one over a processing bound.
    mutating func encode(_ drawing: Drawing, of record: SketchRecord, line: RecordLine) throws(StageRejection) -> Encoded
}
