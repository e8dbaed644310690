import SketchDataset
import SketchFormats
import SketchRaster

/// `encode: kind: raster` — examples become `size`×`size` gray rasters, stored as (H, W) arrays.
///
/// Quick, Draw! drawings are rendered with cairo (`StrokeRenderer`: Google's recipe, with this
/// line width, padding and polarity; raw drawings are simplified first); PNG images are decoded to
/// gray and resampled with Pillow's BOX filter (`BoxResampler`). Values are stored as uint8
/// (0–255, `unit_scale` = 1/255 in the manifest: multiply to get [0, 1], white = 1.0) or float32
/// already in [0, 1]. TFRecord output of uint8 rasters holds PNG images (`TFExample.pngImage`).
package struct RasterEncodeOptions: Equatable, Sendable {
    /// Element type of the stored pixels.
    package enum ElementType: String, CaseIterable, Sendable {
        /// Bytes 0–255.
        case uint8
        /// pixel / 255 in [0, 1].
        case float32
    }

    /// Side, and for drawings the pen, margin and polarity.
    package var stroke: StrokeRenderOptions
    /// Stored element type.
    package var dtype: ElementType
    /// `channels`: 1 or 3 time-encoding channels (`TimeChannelRenderer`, drawings only): payloads
    /// `(size, size, C)`, drawn from the raw strokes aligned and scaled; empty: Google's gray raster.
    package var timeChannels: [TimeChannel] = []

    /// Keys of `encode:` that this kind reads.
    package static let yamlKeys = ["size", "line_width", "padding", "polarity", "dtype", "channels"]
    /// Keys that only make sense for drawings.
    package static let drawingOnlyKeys = ["line_width", "padding", "polarity", "channels"]

    /// Reads `encode:`; defaults are Google's 28×28 numpy_bitmap recipe, uint8.
    package init(_ section: YAMLSection) throws {
        let checked = try YAMLSection(section.node, file: section.file, path: section.path, allowed: ["kind"] + Self.yamlKeys)
        stroke = StrokeRenderOptions(
            side: try checked.int("size", in: 1...8192) ?? 28,
            lineWidth: try checked.double("line_width", in: 0.01...1024) ?? 16,
            padding: try checked.double("padding", in: 0...1024) ?? 16,
            polarity: try checked.choice("polarity", of: RasterPolarity.self) ?? .whiteOnBlack)
        dtype = try checked.choice("dtype", of: ElementType.self) ?? .uint8
        // `channels: time` is the one-channel list `[time]`.
        if let names = try checked.value("channels").map({ node in
            if case .scalar = node, let name = node.string { return [name] }
            return try checked.stringList("channels")!
        }) {
            timeChannels = names.compactMap(TimeChannel.init(rawValue:))
            guard timeChannels.count == names.count, names.count == 1 || names.count == 3 else {
                throw checked.error(
                    "channels", checked.value("channels"),
                    "1 or 3 of: \(TimeChannel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
    }

    /// Multiply stored values by this to get [0, 1].
    package var unitScale: Double { dtype == .uint8 ? 1.0 / 255 : 1 }

    /// One example's payload from `side * side` gray bytes (`side * side * C` with time channels).
    package func payload(_ pixels: [UInt8]) -> TensorPayload {
        let shape = [stroke.side, stroke.side] + (timeChannels.isEmpty ? [] : [timeChannels.count])
        switch dtype {
        case .uint8: return .uint8(pixels, shape: shape)
        case .float32: return .float32(pixels.map { Float($0) / 255 }, shape: shape)
        }
    }

    /// The resolved options for drawings, as recorded in the manifest: what the renderer drew.
    package var drawingJSON: JSONValue {
        .object(
            commonJSON.merging(
                [
                    "line_width": .number(stroke.lineWidth),
                    "padding": .number(stroke.padding),
                    "polarity": .string(stroke.polarity.rawValue),
                ].merging(timeChannels.isEmpty ? [:] : ["channels": .array(timeChannels.map { .string($0.rawValue) })]) { a, _ in a }
            ) { common, _ in common })
    }

    /// The resolved options for PNG images, as recorded in the manifest: what was done to the
    /// pixels (decoded to gray with alpha over white, Pillow's BOX filter onto a white square,
    /// aspect kept, never inverted, so the images keep their own polarity) and nothing of the
    /// renderer's pen settings, which do not apply.
    package var imageJSON: JSONValue {
        .object(
            commonJSON.merging([
                "gray": .string("alpha over white, BT.601 luma"),
                "resample": .string("box, aspect kept, white padding"),
                "invert": .bool(false),
            ]) { common, _ in common })
    }

    private var commonJSON: [String: JSONValue] {
        [
            "kind": .string(EncodeKind.raster.rawValue),
            "size": .number(Double(stroke.side)),
            "dtype": .string(dtype.rawValue),
            "unit_scale": .number(unitScale),
        ]
    }
}

extension PipelineConfig {
    /// Rejects source/encode combinations that cannot work: image directories need `encode.kind:
    /// raster` without pen settings, and take no Quick, Draw!-only filters.
    package func validateRasterCombination(_ top: YAMLSection) throws {
        guard source.kind == .imageDirectory else { return }
        guard case .raster = encode else {
            throw top.error("encode.kind", top.value("encode"), "an image-directory source needs kind: raster")
        }
        if let encodeSection = try top.section("encode", allowed: ["kind"] + RasterEncodeOptions.yamlKeys),
            let key = RasterEncodeOptions.drawingOnlyKeys.first(where: encodeSection.has)
        {
            throw encodeSection.error(key, encodeSection.value(key), "only applies to drawings, not to an image-directory source")
        }
        if filters.recognizedOnly || !filters.countries.isEmpty {
            throw top.error("filters", top.value("filters"), "recognized_only and countries only apply to Quick, Draw! sources")
        }
    }
}
