import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline
import SketchRaster

/// Loads the first `limit` sketches of contact-sheet inputs, whatever their kind:
/// - `*.npy` rasters: (N, H, W) or (N, S·S) uint8, or float32 in [0, 1]; a shard's labels come from
///   its sibling `.y.npy` and the class words from `manifest.json` in the same directory;
/// - a directory holding `manifest.json`: its `*.x.npy` shards, in name order;
/// - `*.png` files, or directories of them: labelled with their parent directory (class) name;
/// - anything else: Quick, Draw! NDJSON (files, directories, `.gz`), labelled with the word.
struct ContactSheetInputs {
    let limit: Int
    private(set) var items: [ContactSheet.Item] = []

    init(_ inputs: [String], limit: Int) throws {
        self.limit = limit
        for input in inputs where items.count < limit {
            let isDirectory = Self.isDirectory(input)
            if isDirectory && FileManager.default.fileExists(atPath: "\(input)/\(PipelineRunner.manifestName)") {
                let shards = try DirectoryWalk.list(input, recursive: false) { $0.hasSuffix(".x.npy") }.files
                for shard in shards where items.count < limit { try addNPY(shard) }
            } else if input.hasSuffix(".npy") {
                try addNPY(input)
            } else if input.lowercased().hasSuffix(".png") || (isDirectory && Self.containsPNG(input)) {
                try addPNGs(input)
            } else {
                try addDrawings(input)
            }
        }
    }

    private mutating func addNPY(_ path: String) throws {
        let array = try NPYReader.read(path: path)
        guard let count = array.shape.first, count > 0 else { return }
        let itemCount = array.shape.dropFirst().reduce(1, *)
        let (height, width): (Int, Int)
        if array.shape.count == 3 {
            (height, width) = (array.shape[1], array.shape[2])
        } else {
            let side = Int(Double(itemCount).squareRoot().rounded())
            guard side * side == itemCount else {
                throw CommandError("\(path): shape \(array.shape) is not a stack of images (N, H, W) or (N, S*S)")
            }
            (height, width) = (side, side)
        }
        let bytes: [UInt8]
        switch array.dtype {
        case .uint8: bytes = array.data
        case .float32: bytes = array.floats().map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
        default: throw CommandError("\(path): \(array.dtype) arrays are not images (need uint8 or float32)")
        }
        let labels = Self.shardLabels(forFeatures: path)
        for index in 0..<min(count, limit - items.count) {
            let pixels = Array(bytes[(index * itemCount)..<((index + 1) * itemCount)])
            let label = labels.map { index < $0.count ? $0[index] : "#\(index)" } ?? "#\(index)"
            items.append(.init(content: .image(GrayImage(width: width, height: height, pixels: pixels)), label: label))
        }
    }

    private mutating func addPNGs(_ input: String) throws {
        let listing = try ImageInputs.expand([input])
        listing.printWarnings(tool: "contact-sheet")
        for rejected in listing.rejected { printToStandardError("contact-sheet: skipping \(rejected)") }
        for path in listing.files where items.count < limit {
            let label = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
            do {
                items.append(.init(content: .image(try PNGImage.readGray(path: path)), label: label))
            } catch {
                printToStandardError("contact-sheet: skipping \(path): \(error.reason)")
            }
        }
    }

    private mutating func addDrawings(_ input: String) throws {
        let reader = try DrawingSource(inputs: [input])
        reader.printSkippedSources(tool: "contact-sheet")
        let records = try reader.readFirst(limit - items.count) { printToStandardError("contact-sheet: skipping \($0)") }
        items += records.map { .init(content: .drawing($0.drawing), label: $0.word) }
    }

    /// Class words of a shard's examples (`X.x.npy` → `X.y.npy` + `manifest.json`), or nil.
    private static func shardLabels(forFeatures path: String) -> [String]? {
        guard path.hasSuffix(".x.npy"),
              let labels = try? NPYReader.read(path: String(path.dropLast(".x.npy".count)) + ".y.npy"),
              labels.dtype == .int32 else { return nil }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let words = (try? Manifest.read(path: "\(directory)/\(PipelineRunner.manifestName)"))
            .map { Dictionary($0.classes.map { ($0.index, $0.word) }, uniquingKeysWith: { first, _ in first }) } ?? [:]
        return labels.int32s().map { words[Int($0)] ?? "class \($0)" }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func containsPNG(_ directory: String) -> Bool {
        guard let listing = try? ImageInputs.expand([directory]) else { return false }
        return !(listing.files.isEmpty && listing.rejected.isEmpty && listing.skipped.isEmpty)
    }
}
