import SketchCore
import SketchFormats
import SketchRaster
import SketchReports

/// One rendered thumbnail: the drawing's key_id and its PNG as a `data:` URI.
package struct StatsThumbnail: Sendable {
    /// The key_id.
    package var keyID: String
    /// `data:image/png;base64,…`.
    package var dataURI: String
}

/// Renders each category's thumbnail drawings (chosen by hash rank of key_id in
/// `CategoryProfile.offer`) with the stroke rasteriser: 64×64, black on white, Google's line width.
package enum StatsThumbnails {
    /// Side of a thumbnail in pixels.
    package static let side = 64

    /// Thumbnails by category, in rank order.
    package static func render(_ profile: DatasetProfile) throws -> [String: [StatsThumbnail]] {
        let renderer = StrokeRenderer(options: StrokeRenderOptions(side: side, polarity: .blackOnWhite))
        var thumbnails: [String: [StatsThumbnail]] = [:]
        for (word, category) in profile.categories {
            thumbnails[word] = try category.samples.map { sample in
                let png: [UInt8]
                do { png = try PNGEncoder.encode(renderer.renderImage(sample.drawing)) } catch {
                    throw PipelineError(.invariant, "cannot encode the thumbnail of key_id \(sample.keyID) (\(word)): \(error)")
                }
                return StatsThumbnail(keyID: sample.keyID, dataURI: SketchThumbnail.pngDataURI(png))
            }
        }
        return thumbnails
    }
}
