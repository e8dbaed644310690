import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// Loads the first `limit` sketches of `sketchprep contact-sheet` inputs, whatever their kind:
/// - a dataset directory (`manifest.json`): its NPY shards (`*.x.npy`, labels from `.y.npy` and
///   the class map) or its sketch-rnn `<word>.npz` files, in the manifest's order; a TFRecord or
///   WebDataset dataset is refused (``PipelineError`` naming what can be drawn instead);
/// - `*.npy` arrays: float32 `(N, L, 3)` stroke tensors, decoded back into strokes
///   (`StrokeTensorDecoder`), or rasters `(N, H, W)` / `(N, S·S)`, uint8 or float32 in [0, 1];
/// - `*.png` files, or directories of them: labelled with their parent directory (class) name;
/// - anything else: drawings (Quick, Draw! NDJSON, `.bin`, stroke-3 `.npz`; files, directories,
///   `.gz`), labelled with the word.
///
/// Unusable records and files are skipped and described in ``warnings``, for the caller to print.
package struct ContactSheetInputs {
    /// Most sketches to load.
    package let limit: Int
    /// The sketches, in input order.
    package private(set) var items: [ContactSheet.Item] = []
    /// One line per skipped record, file or directory entry.
    package private(set) var warnings: [String] = []

    /// What `contact-sheet` draws, for messages that refuse an input.
    package static let drawableKinds =
        "NPY shard directories (stroke tensors or rasters), sketch-rnn .npz directories, "
        + "drawing files (NDJSON, .bin, stroke-3 .npz), .npy arrays and PNG images"

    /// Loads sketches from `inputs` until `limit`; throws `PipelineError` for an input it cannot draw.
    package init(_ inputs: [String], limit: Int) throws {
        self.limit = limit
        for input in inputs where items.count < limit {
            let isDirectory = Self.isDirectory(input)
            if Self.isTFRecord(input) {
                throw PipelineError(.input, "\(input): contact-sheet cannot draw TFRecord files; it draws \(Self.drawableKinds)")
            } else if isDirectory && FileSystem.exists(Self.manifestPath(in: input)) {
                try addDataset(input)
            } else if input.hasSuffix(".npy") {
                try addNPY(input)
            } else if input.lowercased().hasSuffix(".png") || (isDirectory && Self.containsPNG(input)) {
                try addPNGs(input)
            } else {
                try addDrawings(input)
            }
        }
    }

    /// The shards (or `.npz` files) of a dataset directory, in the manifest's order.
    private mutating func addDataset(_ directory: String) throws {
        let manifest = try Manifest.read(path: Self.manifestPath(in: directory))
        let files = manifest.shards.map(\.file)
        if let format = OutputFormat.of(files: files), format != .npy, format != .npz {
            throw PipelineError(
                .input,
                "\(directory) is a \(format.entry.title) dataset, which contact-sheet cannot draw; it draws "
                    + "\(Self.drawableKinds) (run the pipeline with output.format: npy for a dataset it can draw)")
        }
        for file in files where items.count < limit {
            let path = "\(directory)/\(file)"
            if file.hasSuffix(DatasetLayout.featuresSuffix) {
                try addNPY(path)
            } else if file.hasSuffix(".npz") {
                try addDrawings(path)
            }
        }
    }

    private mutating func addNPY(_ path: String) throws {
        let array = try NPYReader.read(path: path)
        guard let count = array.shape.first, count > 0 else { return }
        let labels = Self.shardLabels(forFeatures: path)
        let label = { (index: Int) in labels.map { index < $0.count ? $0[index] : "#\(index)" } ?? "#\(index)" }
        let wanted = min(count, limit - items.count)
        if array.dtype == .float32, array.shape.count == 3, array.shape[2] == StrokeTensorEncoder.columns {
            let values = array.floats()
            let itemCount = array.shape[1] * array.shape[2]
            for index in 0..<wanted {
                guard let drawing = StrokeTensorDecoder.drawing(from: values[(index * itemCount)..<((index + 1) * itemCount)]) else {
                    warnings.append("\(path): skipping tensor \(index): a value is not finite")
                    continue
                }
                items.append(.init(content: .drawing(Self.scaledToQuickDrawBox(drawing)), label: label(index)))
            }
            return
        }
        let itemCount = array.shape.dropFirst().reduce(1, *)
        let (height, width): (Int, Int)
        if array.shape.count == 3 {
            (height, width) = (array.shape[1], array.shape[2])
        } else {
            let side = Int(Double(itemCount).squareRoot().rounded())
            guard side * side == itemCount else {
                throw PipelineError(
                    .input,
                    "\(path): shape \(array.shape) is not a stack of images (N, H, W) or (N, S*S) or stroke tensors (N, L, 3)")
            }
            (height, width) = (side, side)
        }
        let bytes: [UInt8]
        switch array.dtype {
        case .uint8: bytes = array.data
        case .float32: bytes = array.floats().map { $0.isNaN ? 0 : UInt8(max(0, min(255, ($0 * 255).rounded()))) }
        default: throw PipelineError(.input, "\(path): \(array.dtype) arrays are not images (need uint8 or float32)")
        }
        for index in 0..<wanted {
            let pixels = Array(bytes[(index * itemCount)..<((index + 1) * itemCount)])
            items.append(.init(content: .image(GrayImage(width: width, height: height, pixels: pixels)), label: label(index)))
        }
    }

    private mutating func addPNGs(_ input: String) throws {
        let listing = try ImageInputs.expand([input])
        warnings += listing.skipped.map { "warning: \($0)" } + listing.rejected.map { "skipping \($0)" }
        for path in listing.files where items.count < limit {
            let label = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
            do {
                items.append(.init(content: .image(try PNGImage.readGray(path: path)), label: label))
            } catch {
                warnings.append("skipping \(path): \(error.reason)")
            }
        }
    }

    private mutating func addDrawings(_ input: String) throws {
        let reader = try DrawingSource(inputs: [input])
        warnings += reader.skippedSources.map { "warning: \($0)" }
        var skipped: [String] = []
        let records = try reader.readFirst(limit - items.count) { skipped.append("skipping \($0)") }
        warnings += skipped
        items += records.map { .init(content: .drawing($0.drawing), label: $0.word) }
    }

    /// A decoded stroke tensor (normalised units) scaled to Quick, Draw!'s 0–255 box, so that
    /// `SketchFrame.fitting` frames it like any other drawing.
    private static func scaledToQuickDrawBox(_ drawing: Drawing) -> Drawing {
        Drawing(strokes: drawing.strokes.map { Stroke(x: $0.x.map { $0 * 255 }, y: $0.y.map { $0 * 255 }) })
    }

    /// Class words of a dataset shard's examples (`X.x.npy` of a dataset directory, read by the one
    /// shard reader, `ShardSplitReader`), or nil for a file outside such a directory.
    private static func shardLabels(forFeatures path: String) -> [String]? {
        guard path.hasSuffix(DatasetLayout.featuresSuffix) else { return nil }
        let url = URL(fileURLWithPath: path)
        let stem = String(url.lastPathComponent.dropLast(DatasetLayout.featuresSuffix.count))
        guard let reader = try? ShardSplitReader(directory: url.deletingLastPathComponent().path, split: ShardSplitReader.allSplits),
            reader.stems.contains(stem)
        else { return nil }
        return try? reader.labelWords(stem)
    }

    private static func manifestPath(in directory: String) -> String { "\(directory)/\(DatasetLayout.manifest)" }

    /// Whether `path` names a TFRecord file (`*.tfrecord`, or the tutorial layout's `*.tfrecord-NNNNN-of-NNNNN`).
    private static func isTFRecord(_ path: String) -> Bool {
        OutputFormat.tfrecord.entry.holds(URL(fileURLWithPath: path).lastPathComponent)
    }

    private static func isDirectory(_ path: String) -> Bool {
        (try? FileSystem.status(path))?.isDirectory == true
    }

    private static func containsPNG(_ directory: String) -> Bool {
        guard let listing = try? ImageInputs.expand([directory]) else { return false }
        return !(listing.files.isEmpty && listing.rejected.isEmpty && listing.skipped.isEmpty)
    }
}
