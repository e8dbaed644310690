import Foundation
import SketchCore
import SketchIO

/// The three splits of a sketch-rnn `.npz`, in file order.
package enum Stroke3Split: String, CaseIterable, Sendable {
    /// `train.npy`.
    case train
    /// `valid.npy`.
    case valid
    /// `test.npy`.
    case test

    /// The split and index of a record read from stroke-3 input, whose key_id is
    /// `<file>#<split>#<index>`; nil for any other key.
    package static func place(ofKey key: String) -> (split: Stroke3Split, index: Int)? {
        let parts = key.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count >= 3, let split = Stroke3Split(rawValue: String(parts[parts.count - 2])),
            let index = Int(parts[parts.count - 1]), index >= 0
        else { return nil }
        return (split, index)
    }
}

/// sketch-rnn's stroke-3 form of a drawing: rows `[dx, dy, pen_lifted]`, the first row holding the
/// first point itself (an offset from 0, 0) and `pen_lifted = 1` on each stroke's last point
/// (Magenta's `lines_to_strokes`); the cumulative sums of `dx`, `dy` give the points back.
package enum Stroke3 {
    /// The stroke-3 rows of `drawing`: the `exactDeltas` its record was read with (a float64
    /// stroke-3 record's, ``exactDeltas(of:drawing:)``) when there are any and they still sum to
    /// the drawing's positions exactly (`Stroke3.drawing(of:)`'s sums), the differences of its
    /// positions otherwise.
    package static func array(of drawing: Drawing, exactDeltas: [Double]?) -> NumericArray {
        guard let deltas = exactDeltas, deltas.count == 2 * drawing.pointCount else { return array(of: drawing) }
        var values: [Double] = []
        values.reserveCapacity(drawing.pointCount * 3)
        var (x, y, pair) = (0.0, 0.0, 0)
        for stroke in drawing.strokes {
            for index in 0..<stroke.count {
                x += deltas[2 * pair]
                y += deltas[2 * pair + 1]
                guard x == stroke.x[index], y == stroke.y[index] else { return array(of: drawing) }
                values.append(deltas[2 * pair])
                values.append(deltas[2 * pair + 1])
                values.append(index == stroke.count - 1 ? 1 : 0)
                pair += 1
            }
        }
        return NumericArray(rows: values.count / 3, columns: 3, values: values, isFloat64: true)
    }

    /// The exact `[dx, dy]` pairs of `array` to carry beside the record of its `drawing`
    /// (`RecordLine.stroke3Deltas`), when the differences of the drawing's positions do not give them back; nil
    /// when they do (always for integer arrays).
    package static func exactDeltas(of array: NumericArray, drawing: Drawing) -> [Double]? {
        guard array.isFloat64 else { return nil }
        if differencesGiveBack(array, drawing: drawing) { return nil }
        var deltas: [Double] = []
        deltas.reserveCapacity(2 * array.rows)
        for row in 0..<array.rows {
            deltas.append(array.values[3 * row])
            deltas.append(array.values[3 * row + 1])
        }
        return deltas
    }

    /// Whether the differences of `drawing`'s positions (``array(of:)``'s first two columns) are
    /// `array`'s first two columns, value for value (compared without building those rows).
    private static func differencesGiveBack(_ array: NumericArray, drawing: Drawing) -> Bool {
        guard drawing.pointCount == array.rows else { return false }
        var (previousX, previousY, row) = (0.0, 0.0, 0)
        for stroke in drawing.strokes {
            for index in 0..<stroke.count {
                guard stroke.x[index] - previousX == array.values[3 * row], stroke.y[index] - previousY == array.values[3 * row + 1]
                else { return false }
                previousX = stroke.x[index]
                previousY = stroke.y[index]
                row += 1
            }
        }
        return true
    }

    /// The stroke-3 rows of `drawing` (`rows × 3` values).
    package static func array(of drawing: Drawing) -> NumericArray {
        var values: [Double] = []
        values.reserveCapacity(drawing.pointCount * 3)
        var previousX = 0.0
        var previousY = 0.0
        for stroke in drawing.strokes {
            for index in 0..<stroke.count {
                values.append(stroke.x[index] - previousX)
                values.append(stroke.y[index] - previousY)
                values.append(index == stroke.count - 1 ? 1 : 0)
                previousX = stroke.x[index]
                previousY = stroke.y[index]
            }
        }
        return NumericArray(rows: values.count / 3, columns: 3, values: values)
    }

    /// The int16 stroke-3 rows of `drawing`: each absolute position rounded half to even first,
    /// then the deltas taken between rounded positions, so rounding error never accumulates along
    /// a drawing. Throws `FormatError` naming the first value outside −32,768…32,767.
    package static func int16Array(of drawing: Drawing) throws(FormatError) -> NumericArray {
        var rounded = drawing
        for index in rounded.strokes.indices {
            rounded.strokes[index].x = rounded.strokes[index].x.map { $0.rounded(.toNearestOrEven) }
            rounded.strokes[index].y = rounded.strokes[index].y.map { $0.rounded(.toNearestOrEven) }
        }
        let array = Stroke3.array(of: rounded)
        if let value = array.values.first(where: { !Stroke3ElementType.int16.holds($0) }) {
            throw FormatError(.record, "stroke-3 value \(value) is outside int16 (−32,768…32,767)")
        }
        return array
    }

    /// The drawing of stroke-3 rows: cumulative sums, a stroke ending at each row whose third
    /// value is non-zero (rows after the last such row form a last stroke). Nil unless the array
    /// has 3 columns, at least one row and finite values whose sums stay within
    /// `DrawingLimits.maximumCoordinateMagnitude`.
    package static func drawing(of array: NumericArray) -> Drawing? {
        guard array.columns == 3, array.rows > 0, array.values.allSatisfy(\.isFinite) else { return nil }
        var strokes: [Stroke] = []
        var xs: [Double] = []
        var ys: [Double] = []
        var x = 0.0
        var y = 0.0
        for row in 0..<array.rows {
            x += array.values[3 * row]
            y += array.values[3 * row + 1]
            guard abs(x) <= DrawingLimits.maximumCoordinateMagnitude, abs(y) <= DrawingLimits.maximumCoordinateMagnitude else { return nil }
            xs.append(x)
            ys.append(y)
            if array.values[3 * row + 2] != 0 {
                strokes.append(Stroke(x: xs, y: ys))
                xs.removeAll(keepingCapacity: true)
                ys.removeAll(keepingCapacity: true)
            }
        }
        if !xs.isEmpty { strokes.append(Stroke(x: xs, y: ys)) }
        return Drawing(strokes: strokes)
    }
}

/// The element type of written stroke-3 arrays.
package enum Stroke3ElementType: String, Sendable, CaseIterable {
    /// `<i2`, sketch-rnn's published type.
    case int16
    /// `<f8`, as in sketch-rnn's kanji files.
    case float64

    /// Whether `value` can be stored exactly.
    package func holds(_ value: Double) -> Bool {
        switch self {
        case .int16: return value == value.rounded() && value >= -32_768 && value <= 32_767
        case .float64: return value.isFinite
        }
    }
}

/// The user's choice of stroke-3 element type (`convert --stroke3-dtype`, `encode.dtype`).
package enum Stroke3DTypeChoice: String, Sendable, CaseIterable {
    /// The input's: float64 stays float64, everything else is int16.
    case keep
    /// int16, positions rounded (`Stroke3.int16Array`).
    case int16

    /// The element type forced, or nil to keep the input's.
    package var forcedElementType: Stroke3ElementType? { self == .int16 ? .int16 : nil }
}

/// How a stroke-3 `.npz` lays out its arrays.
package enum Stroke3Layout: String, Sendable, CaseIterable {
    /// sketch-rnn's: `train.npy`, `valid.npy`, `test.npy`, pickled object arrays.
    case standard
    /// Pickle-free: per split a `(P, 3)` points array and an `(N + 1,)` int64 offsets array
    /// (`Stroke3FlatLayout`).
    case flat
}

/// Reads and writes sketch-rnn `.npz` files: a zip of `train.npy`, `valid.npy`, `test.npy`, each
/// a 1-D numpy object array (pickled, see `NumpyObjectArrayPickle`) of `(n, 3)` stroke-3 arrays.
package enum Stroke3NPZ {
    /// Largest `.npz` read (the file is read whole, so this bounds its memory): 256 MiB, twice
    /// the most an archive may inflate to (`ZipArchive`'s caps), so no legal archive is refused by it.
    package static let maximumFileSize = 256 << 20

    /// Whether `bytes` start like a zip archive (`PK\x03\x04`).
    package static func hasZipMagic(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(4)) == [0x50, 0x4B, 0x03, 0x04]
    }

    /// The splits of the file at `path`, in file order. Throws `FormatError` naming the file and
    /// what is wrong (not a zip, an entry other than the three splits, a pickle outside the subset).
    package static func read(path: String) throws -> [(split: Stroke3Split, arrays: [NumericArray])] {
        try readSplits(path: path).map { ($0.split, $0.arrays.numericArrays) }
    }

    /// The splits of the file at `path` as ``read(path:)`` reads them, each left as
    /// ``decodeSplits(_:path:)`` finds it (``Stroke3SplitArrays``); the same errors.
    package static func readSplits(path: String) throws -> [(split: Stroke3Split, arrays: Stroke3SplitArrays)] {
        try decodeSplits(try readFile(path: path), path: path)
    }

    /// The bytes of the `.npz` at `path` as stored (at most ``maximumFileSize``); throws
    /// `FormatError` when it cannot be read or is larger.
    package static func readFile(path: String) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            guard data.count <= maximumFileSize else {
                throw FormatError(.input, "\(path): larger than \(maximumFileSize) bytes, the .npz size read")
            }
            bytes = [UInt8](data)
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError(.input, "cannot read \(path): \(error.localizedDescription)")
        }
        return bytes
    }

    /// The splits of the `.npz` bytes `bytes` (`path` names them in errors): the pickled layout
    /// (`train.npy`, `valid.npy`, `test.npy`) or the flat one (`Stroke3FlatLayout`).
    package static func decode(_ bytes: [UInt8], path: String) throws -> [(split: Stroke3Split, arrays: [NumericArray])] {
        try decodeSplits(bytes, path: path).map { ($0.split, $0.arrays.numericArrays) }
    }

    /// The splits of ``decode(_:path:)``, those whose pickle is in the writer's layout
    /// (`NumpyObjectArrayPickle.storedArrays`) with their values left in the inflated entry.
    package static func decodeSplits(_ bytes: [UInt8], path: String) throws -> [(split: Stroke3Split, arrays: Stroke3SplitArrays)] {
        let entries: [(name: String, contents: [UInt8])]
        do { entries = try ZipArchive.decode(bytes, path: path) } catch { throw FormatError(.input, error.description) }
        if Stroke3FlatLayout.isFlat(entryNames: entries.map(\.name)) {
            return try Stroke3FlatLayout.decode(entries, path: path).map { ($0.split, .decoded($0.arrays)) }
        }
        var splits: [(split: Stroke3Split, arrays: Stroke3SplitArrays)] = []
        for entry in entries {
            guard entry.name.hasSuffix(".npy"), let split = Stroke3Split(rawValue: String(entry.name.dropLast(4))) else {
                throw FormatError(
                    .input,
                    "\(path): entry \(entry.name) is not train.npy, valid.npy or test.npy (nor the flat layout's <split>_points.npy and <split>_offsets.npy)"
                )
            }
            let payload = try pickleOfObjectArray(entry.contents, path: "\(path)/\(entry.name)")
            if let (isFloat64, arrays) = payload.withUnsafeBufferPointer(NumpyObjectArrayPickle.storedArrays) {
                let offset = payload.startIndex
                let located = arrays.map {
                    NumpyObjectArrayPickle.StoredArray(
                        rows: $0.rows, columns: $0.columns, values: $0.values.lowerBound + offset..<$0.values.upperBound + offset)
                }
                splits.append((split, .stored(entry.contents, isFloat64: isFloat64, arrays: located)))
                continue
            }
            do {
                splits.append((split, .decoded(try NumpyObjectArrayPickle.decode(Array(payload)))))
            } catch {
                throw FormatError(.input, "\(path)/\(entry.name): \(error.description)")
            }
        }
        return splits
    }

    /// The pickle after the `.npy` header of an object array.
    private static func pickleOfObjectArray(_ npy: [UInt8], path: String) throws -> ArraySlice<UInt8> {
        guard npy.count >= 10, Array(npy.prefix(6)) == NPYFormat.magic else { throw FormatError(.input, "\(path): not an .npy file") }
        let major = npy[6]
        let headerLengthSize = major == 1 ? 2 : 4
        guard major >= 1 && major <= 3, npy.count >= 8 + headerLengthSize else {
            throw FormatError(.input, "\(path): .npy version \(major) is not read")
        }
        var headerLength = 0
        for index in 0..<headerLengthSize { headerLength |= Int(npy[8 + index]) << (8 * index) }
        let dataStart = 8 + headerLengthSize + headerLength
        guard dataStart <= npy.count else { throw FormatError(.input, "\(path): .npy header runs past the end") }
        let header = String(decoding: npy[(8 + headerLengthSize)..<dataStart], as: UTF8.self)
        guard header.contains("'descr': '|O'"), header.contains("'fortran_order': False") else {
            throw FormatError(.input, "\(path): not a C-order object array (a stroke-3 split holds one)")
        }
        return npy[dataStart...]
    }

    /// The `.npz` bytes of `splits` in `layout` with elements of `elementType`: the pickled layout
    /// as the published files are (numpy ≥ 1.24 headers, protocol-2 pickles), or the flat one
    /// (`Stroke3FlatLayout`); each array deflated on its own and joined by `Stroke3NPZAssembler`
    /// (the bytes the sketch-rnn pipeline writes for the same arrays), fixed zip timestamps. Throws `FormatError` when a value
    /// does not fit `elementType` (int16: an integer in −32,768…32,767; float64: finite).
    package static func encode(
        _ splits: [(split: Stroke3Split, arrays: [NumericArray])], elementType: Stroke3ElementType = .int16,
        layout: Stroke3Layout = .standard, path: String
    ) throws -> [UInt8] {
        for (split, arrays) in splits {
            for (index, array) in arrays.enumerated() {
                if let value = array.values.first(where: { !elementType.holds($0) }) {
                    throw FormatError(
                        .input, "\(path): \(split.rawValue)[\(index)] holds \(value), not a \(elementType.rawValue) stroke-3 value")
                }
            }
        }
        let encoder = try DeflateFragmentEncoder()
        let float64 = elementType == .float64
        var storage: [UInt8] = []
        var raw: [UInt8] = []
        var fragmentSplits: [(split: Stroke3Split, fragments: [Stroke3Fragment])] = []
        for (split, arrays) in splits {
            var fragments: [Stroke3Fragment] = []
            fragments.reserveCapacity(arrays.count)
            for array in arrays {
                raw.removeAll(keepingCapacity: true)
                NumpyObjectArrayPickle.appendRawValues(array.values, float64: float64, to: &raw)
                fragments.append(
                    try Stroke3Fragment.append(
                        rows: array.rows, isFloat64: float64, rawValues: raw, layout: layout, encoder: encoder,
                        to: &storage))
            }
            fragmentSplits.append((split, fragments))
        }
        do {
            return try Stroke3NPZAssembler.encode(
                fragmentSplits, storage: storage, elementType: elementType, layout: layout, encoder: encoder, path: path)
        } catch {
            throw FormatError(.input, error.description)
        }
    }

    /// Whether the file at `path` holds float64 arrays (false when it cannot be read: reading it
    /// reports why).
    package static func isFloat64(path: String) -> Bool {
        ((try? readSplits(path: path)) ?? []).contains { $0.arrays.holdsFloat64 }
    }

    /// Writes `splits` to `path` atomically (see `encode`).
    package static func write(
        _ splits: [(split: Stroke3Split, arrays: [NumericArray])], elementType: Stroke3ElementType = .int16,
        layout: Stroke3Layout = .standard, to path: String
    ) throws {
        try writeAtomically(try encode(splits, elementType: elementType, layout: layout, path: path), to: path)
    }
}
