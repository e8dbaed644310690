import SketchCore
import SketchFormats

/// The drawings and rejected lines of one `sketchprep.read` batch as flat arrays, the layout
/// `sketchprep._native.read_batches` turns into numpy arrays and strings. A value the worker that
/// decodes an engine batch fills (``ReadStage``; no class, so appending pays no run-time
/// exclusivity checks); the reading thread hands consecutive ones over as one
/// (``ReadBatchGroup``).
package struct ReadBatch: Sendable {
    /// Array numbers of `sketchprep_reader_copy` (``ReadBatchGroup/copy(into:)``).
    package enum Field: Int, CaseIterable {
        /// x of every point (float64).
        case x
        /// y of every point (float64).
        case y
        /// t of every point (float64; 0 where the stroke has none), or no element at all when no
        /// stroke of the batch has times.
        case t
        /// Stroke offsets into the points, strokes + 1.
        case strokeOffsets
        /// Drawing offsets into the strokes, drawings + 1.
        case drawingOffsets
        /// 1 where the game recognized the drawing (uint8 per drawing).
        case recognized
        /// 1 where every stroke of the drawing has its times (uint8 per drawing).
        case timed
        /// word, key_id, countrycode and timestamp of each drawing, UTF-8.
        case text
        /// Byte offsets into the text, 4 × drawings + 1.
        case textOffsets
        /// file, line and reason of each rejected line, UTF-8.
        case rejected
        /// Byte offsets into the rejected text, 3 × rejected lines + 1.
        case rejectedOffsets
    }

    package private(set) var xs: [Double] = []
    package private(set) var ys: [Double] = []
    /// One time per point once a stroke of the batch has times (the points before it get 0), else empty.
    package private(set) var ts: [Double] = []
    package private(set) var hasTimes = false
    package private(set) var strokeOffsets: [Int64] = [0]
    package private(set) var drawingOffsets: [Int64] = [0]
    package private(set) var recognized: [UInt8] = []
    package private(set) var timed: [UInt8] = []
    package private(set) var text: [UInt8] = []
    package private(set) var textOffsets: [Int64] = [0]
    package private(set) var rejected: [UInt8] = []
    package private(set) var rejectedOffsets: [Int64] = [0]

    package init() {}

    /// Drawings and rejected lines.
    package var recordCount: Int64 { Int64(recognized.count + (rejectedOffsets.count - 1) / 3) }
    package var isEmpty: Bool { recognized.isEmpty && rejectedOffsets.count == 1 }

    /// Appends a drawing, its points handed in flat storage by the reader (`RecordStageInput.flatPoints`),
    /// plane by plane (x, y, t rows, so the caller's (3, n) stroke arrays are views without a
    /// transpose): t once a drawing of the batch has times (0 for the points before it and for
    /// strokes without).
    package mutating func append(_ record: SketchRecord, points strokes: FlatStrokes) {
        let start = Int64(xs.count)
        let hasOwnTimes = strokes.timedStrokeCount > 0
        if hasOwnTimes && !hasTimes {
            ts.append(contentsOf: repeatElement(0, count: xs.count))
            hasTimes = true
        }
        xs.append(contentsOf: strokes.x)
        ys.append(contentsOf: strokes.y)
        if hasOwnTimes {
            ts.append(contentsOf: strokes.t)
        } else if hasTimes {
            ts.append(contentsOf: repeatElement(0, count: strokes.x.count))
        }
        for end in strokes.strokeEnds { strokeOffsets.append(start + Int64(end)) }
        finishDrawing(record, timed: strokes.isTimed)
    }

    private mutating func finishDrawing(_ record: SketchRecord, timed allTimed: Bool) {
        drawingOffsets.append(Int64(strokeOffsets.count - 1))
        recognized.append(record.recognized ? 1 : 0)
        timed.append(allTimed ? 1 : 0)
        appendText(record.word)
        appendText(record.keyID)
        appendText(record.countryCode)
        appendText(record.timestamp)
    }

    private mutating func appendText(_ value: String) {
        text += value.utf8
        textOffsets.append(Int64(text.count))
    }

    /// The bytes its arrays' storage holds, used or not.
    package var capacityBytes: Int {
        let points = xs.capacity + ys.capacity + ts.capacity
        let offsets = strokeOffsets.capacity + drawingOffsets.capacity + textOffsets.capacity + rejectedOffsets.capacity
        return 8 * (points + offsets) + recognized.capacity + timed.capacity + text.capacity + rejected.capacity
    }

    /// Empties the batch, keeping every array's storage for the next (``ReadBatchPool``).
    package mutating func removeAll() {
        xs.removeAll(keepingCapacity: true)
        ys.removeAll(keepingCapacity: true)
        ts.removeAll(keepingCapacity: true)
        hasTimes = false
        strokeOffsets.removeSubrange(1...)
        drawingOffsets.removeSubrange(1...)
        recognized.removeAll(keepingCapacity: true)
        timed.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        textOffsets.removeSubrange(1...)
        rejected.removeAll(keepingCapacity: true)
        rejectedOffsets.removeSubrange(1...)
    }

    package mutating func reject(_ line: RejectedLine) {
        for value in [line.location.file, String(line.location.line), line.reason] {
            rejected += value.utf8
            rejectedOffsets.append(Int64(rejected.count))
        }
    }
}
