import SketchFormats
import SketchIO
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One unit of input work: a whole file (gzip, small, or a stream) or a newline-aligned byte
/// range of a large plain file. The unit of partitioning and of the manifest's source list.
package struct InputChunk: Sendable, Equatable, Codable {
    /// The input path as given (or as expanded from a directory); `-` for standard input.
    package var path: String
    /// First stored byte of the chunk.
    package var offset: Int
    /// Stored bytes of the chunk; nil for a stream, whose size is known only after reading.
    package var bytes: Int?
    /// Whether the chunk is read as a range (false: the whole input, gzip detected by content).
    package var isRange: Bool
    /// The input's format; a `.bin` or stroke-3 input is always one chunk.
    package var format: DrawingFileFormat = .ndjson
    /// The word of a `.bin` or stroke-3 input's records (see `DrawingSource.EngineInput`).
    package var word = ""

    /// The byte range to read, or nil for the whole input.
    package var range: Range<Int>? { isRange ? offset..<(offset + (bytes ?? 0)) : nil }

    /// Lines of the input before the chunk (0 for a chunk at the start; counted when asked, for
    /// the location of a rejected record).
    package func linesBefore() -> Int {
        isRange && offset > 0 ? (try? InputChunkReader.lineCount(of: path, before: offset)) ?? 0 : 0
    }
}

/// Cuts the inputs into chunks and deals chunks to partitions: the rule that makes
/// `preprocess --partition i/n` read a deterministic 1/n of the input without any node reading it all.
///
/// - A gzip file (by its magic bytes), a file whose format cannot be cut into byte ranges
///   (`InputFormatPlugin.cutsByteRanges`: all but NDJSON and CSV), a file of at most `chunkBytes`,
///   and anything that is not a regular file (stdin, a pipe) is one chunk.
/// - A larger plain file is cut after the first newline at or after every multiple of
///   `chunkBytes` (64 MiB): finding a boundary reads a few KB near it, not the file.
/// - Chunks, in input order, go one by one to the partition with the fewest bytes so far (the
///   lowest index on a tie), so partitions get about the same amount of input.
package enum InputChunking {
    package static let defaultChunkBytes = 64 << 20

    /// The chunks of `inputs`, each input's format and word carried by its chunks.
    package static func plan(inputs: [DrawingSource.EngineInput], chunkBytes: Int = defaultChunkBytes) throws -> [InputChunk] {
        var chunks: [InputChunk] = []
        for input in inputs {
            let file = input.path
            let whole = InputChunk(path: file, offset: 0, bytes: nil, isRange: false, format: input.format, word: input.word)
            guard file != "-", let status = try? FileSystem.status(file), status.isRegular else {
                chunks.append(whole)
                continue
            }
            let size = Int(status.size)
            guard input.format.plugin.cutsByteRanges else {
                chunks.append(InputChunk(path: file, offset: 0, bytes: size, isRange: false, format: input.format, word: input.word))
                continue
            }
            guard size > chunkBytes, let descriptor = try? FileDescriptor.open(file, .readOnly, options: .closeOnExec) else {
                chunks.append(InputChunk(path: file, offset: 0, bytes: size, isRange: false, format: input.format, word: input.word))
                continue
            }
            defer { try? descriptor.close() }
            var magic: [UInt8] = [0, 0]
            let magicCount = try? magic.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: 0, into: $0) }
            if magicCount == 2 && magic == [0x1f, 0x8b] {
                chunks.append(InputChunk(path: file, offset: 0, bytes: size, isRange: false, format: input.format, word: input.word))
                continue
            }
            var start = 0
            var candidate = chunkBytes
            while candidate < size {
                guard let boundary = try nextLineStart(descriptor, from: candidate - 1, size: size, path: file), boundary < size else {
                    break
                }
                chunks.append(
                    InputChunk(path: file, offset: start, bytes: boundary - start, isRange: true, format: input.format, word: input.word))
                start = boundary
                candidate = max(candidate + chunkBytes, boundary + 1)
            }
            chunks.append(InputChunk(path: file, offset: start, bytes: size - start, isRange: true, format: input.format, word: input.word))
        }
        return chunks
    }

    /// Indices of the chunks partition `index` of `count` reads, in chunk order.
    package static func deal(_ chunks: [InputChunk], partition index: Int, of count: Int) -> [Int] {
        var load = [Int](repeating: 0, count: count)
        var mine: [Int] = []
        for (position, chunk) in chunks.enumerated() {
            let target = load.indices.min { load[$0] < load[$1] || (load[$0] == load[$1] && $0 < $1) }!
            load[target] += max(1, chunk.bytes ?? 1)
            if target == index { mine.append(position) }
        }
        return mine
    }

    /// Offset just after the first newline at or after `from`, or nil when there is none.
    private static func nextLineStart(_ descriptor: FileDescriptor, from: Int, size: Int, path: String) throws -> Int? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var position = from
        while position < size {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: Int64(position), into: $0) }
            } catch {
                throw PipelineError(.input, "cannot read \(path) at byte \(position): \(systemErrorText(error))")
            }
            guard count > 0 else { throw PipelineError(.input, "cannot read \(path) at byte \(position): the file ended early") }
            if let newline = buffer[0..<count].firstIndex(of: 0x0A) { return position + newline + 1 }
            position += count
        }
        return nil
    }
}
