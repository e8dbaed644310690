import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster
import SketchReports

/// `parity --overlays DIR`: PNG overlays (official in blue, ours in orange; `OverlayRenderer`) of the
/// worst drawings, and the Markdown section that links them from the report.
///
/// Only mismatching pairs are kept, and the kept set is cut back to the comparison's current worst
/// list whenever it grows past four times its length, so memory stays bounded on large runs.
package struct ParityOverlays {
    /// Where the PNGs go (created when missing).
    package let directory: String
    private var pairs: [String: (ours: Drawing, official: Drawing)] = [:]

    package init(directory: String) {
        self.directory = directory
    }

    /// Remembers a compared pair if it differs.
    package mutating func add(keyID: String, ours: Drawing, official: Drawing, comparison: ParityComparison) {
        guard ours != official else { return }
        pairs[keyID] = (ours, official)
        if pairs.count > 4 * max(comparison.worstLimit, 1) {
            let keep = Set(comparison.worst.map(\.keyID))
            pairs = pairs.filter { keep.contains($0.key) }
        }
    }

    /// Writes `<key_id>.png` for every miss in `worst`; returns the Markdown section linking them,
    /// with paths relative to the directory of `reportPath` when given.
    package func write(_ worst: [ParityComparison.Miss], reportPath: String?) throws -> String {
        try createDirectories(directory)
        let renderer = OverlayRenderer(side: 256)
        let linkBase = Self.relativePath(
            of: directory,
            from: reportPath.map {
                URL(fileURLWithPath: $0).deletingLastPathComponent().path
            })
        var section = "\n## Overlays of the worst drawings\n\nBlue: Google's simplified drawing; orange: ours.\n\n"
        for miss in worst {
            guard let pair = pairs[miss.keyID] else { continue }
            let caption = "\(miss.word) \(miss.keyID): \(miss.kind)"
            let image = renderer.render(ours: pair.ours, reference: pair.official, caption: caption)
            let name = "\(miss.keyID).png"
            try writeAtomically(
                try PNGEncoder.encodeRGB(image.pixels, width: image.width, height: image.height),
                to: "\(directory)/\(name)")
            section += "![\(MarkdownText.escaped("\(miss.word) \(miss.keyID)"))](\(linkBase)/\(name))\n"
        }
        return section
    }

    /// `target` relative to `base` when it lies below it, else `target` as an absolute path.
    static func relativePath(of target: String, from base: String?) -> String {
        let absolute = URL(fileURLWithPath: target).standardizedFileURL.path
        guard let base else { return absolute }
        let basePath = URL(fileURLWithPath: base).standardizedFileURL.path
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
