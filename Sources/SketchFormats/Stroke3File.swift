import Foundation
import SketchCore

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
              let index = Int(parts[parts.count - 1]), index >= 0 else { return nil }
        return (split, index)
    }
}

/// sketch-rnn's stroke-3 form of a drawing: rows `[dx, dy, pen_lifted]`, the first row holding the
/// first point itself (an offset from 0, 0) and `pen_lifted = 1` on each stroke's last point
/// (Magenta's `lines_to_strokes`); the cumulative sums of `dx`, `dy` give the points back.
package enum Stroke3 {
    /// The stroke-3 rows of `drawing` (`rows × 3` values).
    package static func array(of drawing: Drawing) -> NumericArray {
        var values: [Double] = []
        values.reserveCapacity(drawing.pointCount * 3)
        var previousX = 0.0
        var previousY = 0.0
        for stroke in drawing.strokes {
            for index in 0..<stroke.count {
                values += [stroke.x[index] - previousX, stroke.y[index] - previousY, index == stroke.count - 1 ? 1 : 0]
                previousX = stroke.x[index]
                previousY = stroke.y[index]
            }
        }
        return NumericArray(rows: values.count / 3, columns: 3, values: values)
    }

    /// The drawing of stroke-3 rows: cumulative sums, a stroke ending at each row whose third
    /// value is non-zero (rows after the last such row form a last stroke). Nil unless the array
    /// has 3 columns, at least one row and finite values.
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

/// Reads and writes sketch-rnn `.npz` files: a zip of `train.npy`, `valid.npy`, `test.npy`, each
/// a 1-D numpy object array (pickled, see `NumpyObjectArrayPickle`) of `(n, 3)` stroke-3 arrays.
package enum Stroke3NPZ {
    /// Largest `.npz` read (the file is read whole).
    package static let maximumFileSize = 2 << 30

    /// Whether `bytes` start like a zip archive (`PK\x03\x04`).
    package static func hasZipMagic(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(4)) == [0x50, 0x4B, 0x03, 0x04]
    }

    /// The splits of the file at `path`, in file order. Throws `FormatError` naming the file and
    /// what is wrong (not a zip, an entry other than the three splits, a pickle outside the subset).
    package static func read(path: String) throws -> [(split: Stroke3Split, arrays: [NumericArray])] {
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            guard data.count <= maximumFileSize else { throw FormatError(.input, "\(path): larger than \(maximumFileSize) bytes, the .npz size read") }
            bytes = [UInt8](data)
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError(.input, "cannot read \(path): \(error.localizedDescription)")
        }
        return try decode(bytes, path: path)
    }

    /// The splits of the `.npz` bytes `bytes` (`path` names them in errors).
    package static func decode(_ bytes: [UInt8], path: String) throws -> [(split: Stroke3Split, arrays: [NumericArray])] {
        let entries: [(name: String, contents: [UInt8])]
        do { entries = try ZipArchive.decode(bytes, path: path) } catch { throw FormatError(.input, error.description) }
        var splits: [(split: Stroke3Split, arrays: [NumericArray])] = []
        for entry in entries {
            guard entry.name.hasSuffix(".npy"), let split = Stroke3Split(rawValue: String(entry.name.dropLast(4))) else {
                throw FormatError(.input, "\(path): entry \(entry.name) is not train.npy, valid.npy or test.npy")
            }
            let payload = try pickleOfObjectArray(entry.contents, path: "\(path)/\(entry.name)")
            do {
                splits.append((split, try NumpyObjectArrayPickle.decode(Array(payload))))
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
        guard major >= 1 && major <= 3, npy.count >= 8 + headerLengthSize else { throw FormatError(.input, "\(path): .npy version \(major) is not read") }
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

    /// The `.npz` bytes of `splits` (each split's arrays written as int16 with a numpy ≥ 1.24
    /// header and the published files' protocol-2 pickle, deflated, fixed zip timestamps).
    /// Throws `FormatError` when a value is not an integer in the int16 range.
    package static func encode(_ splits: [(split: Stroke3Split, arrays: [NumericArray])], path: String) throws -> [UInt8] {
        var entries: [(name: String, contents: [UInt8])] = []
        for (split, arrays) in splits {
            for (index, array) in arrays.enumerated() {
                for value in array.values where !(value == value.rounded() && value >= -32_768 && value <= 32_767) {
                    throw FormatError(.input, "\(path): \(split.rawValue)[\(index)] holds \(value), not an int16 stroke-3 value")
                }
            }
            let npy = NPYFormat.header(descr: "|O", shape: [arrays.count]) + NumpyObjectArrayPickle.encodeInt16(arrays)
            entries.append(("\(split.rawValue).npy", npy))
        }
        do { return try ZipArchive.encode(entries, path: path) } catch { throw FormatError(.input, error.description) }
    }

    /// Writes `splits` to `path` atomically.
    package static func write(_ splits: [(split: Stroke3Split, arrays: [NumericArray])], to path: String) throws {
        try writeAtomically(try encode(splits, path: path), to: path)
    }
}
