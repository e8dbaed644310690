import CZlib

/// Raw deflate pieces that concatenate into one valid deflate stream (pigz's technique): each
/// piece is deflated from a reset stream (no back-reference reaches before it) and ended with a
/// sync flush (byte-aligned, no final-block bit), so pieces deflated apart, in any process, join
/// by plain concatenation; stored blocks (``appendStoredBlock(_:final:to:)``) carry small
/// uncompressed bytes between them and the stream ends with a final block. The CRC-32 of the
/// whole comes from the pieces' CRCs (``CRC32Combiner``) without reading them again.
///
/// An encoder holds one zlib stream (level 6, 32 KiB window), reset per piece, so a worker
/// initialises zlib once, not once per piece, and one ``HuffmanOnlyDeflate`` (made on first use). Not thread-safe:
/// one per thread.
package final class DeflateFragmentEncoder {
    /// How a piece is compressed.
    package enum Strategy: Sendable {
        /// zlib's default: string matches, then Huffman codes.
        case standard
        /// Huffman codes alone (``HuffmanOnlyDeflate``): for int16 stroke-3 deltas both smaller
        /// and faster than string matching (docs/scale.md, "Reduce side").
        case huffmanOnly
    }

    // zlib's state points back at its z_stream, so the stream lives at a fixed address.
    private let standard: UnsafeMutablePointer<z_stream>
    private lazy var huffmanOnly = HuffmanOnlyDeflate()

    /// Throws `FormatError` when zlib cannot be initialised (out of memory).
    package init() throws(FormatError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(
            stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw FormatError(.zip, "zlib deflate initialisation failed (\(status))")
        }
        standard = stream
    }

    deinit {
        deflateEnd(standard)
        standard.deallocate()
    }

    /// Appends to `out` the raw deflate of `input` (by `strategy`) from a reset stream, ended
    /// with a sync flush.
    package func append(_ input: [UInt8], strategy: Strategy = .standard, to out: inout [UInt8]) throws(FormatError) {
        if strategy == .huffmanOnly {
            huffmanOnly.append(input, to: &out)
            return
        }
        let stream = standard
        guard deflateReset(stream) == Z_OK else { throw FormatError(.zip, "zlib deflate reset failed") }
        let start = out.count
        var reserved = Int(deflateBound(stream, uLong(input.count))) + 16
        out.append(contentsOf: repeatElement(0, count: reserved))
        var written = 0
        var status = Z_OK
        input.withUnsafeBytes { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = uInt(source.count)
            while true {
                status = out.withUnsafeMutableBufferPointer { target in
                    stream.pointee.next_out = target.baseAddress! + start + written
                    stream.pointee.avail_out = uInt(reserved - written)
                    return deflate(stream, Z_SYNC_FLUSH)
                }
                guard status == Z_OK || status == Z_BUF_ERROR else { return }
                written = reserved - Int(stream.pointee.avail_out)
                if stream.pointee.avail_out > 0 { return }
                out.append(contentsOf: repeatElement(0, count: reserved))
                reserved = out.count - start
            }
        }
        guard status == Z_OK || status == Z_BUF_ERROR, stream.pointee.avail_in == 0 else {
            throw FormatError(.zip, "zlib deflate failed (\(status))")
        }
        out.removeSubrange((start + written)...)
    }

    /// Appends a stored block holding `bytes` (at most 65,535; the stream must be byte-aligned,
    /// as it is after a sync-flushed piece or another stored block); `final` marks the stream's
    /// last block.
    package static func appendStoredBlock(_ bytes: ArraySlice<UInt8>, final: Bool, to out: inout [UInt8]) {
        precondition(bytes.count <= 0xFFFF, "a stored block holds at most 65,535 bytes")
        let length = UInt16(bytes.count)
        out.append(final ? 1 : 0)
        out.append(UInt8(length & 0xFF))
        out.append(UInt8(length >> 8))
        out.append(UInt8(~length & 0xFF))
        out.append(UInt8(~length >> 8))
        out += bytes
    }
}

extension DeflateFragmentEncoder {
    /// The `size` bytes a sync-flushed piece (``append(_:strategy:to:)``) inflates to; throws
    /// `FormatError` when `deflated` is not such a piece of exactly that size.
    package static func inflate(_ deflated: ArraySlice<UInt8>, size: Int) throws(FormatError) -> [UInt8] {
        // One spare byte: a piece that inflates to more than `size` is caught, not cut.
        let inflated = try RawInflate.inflate(deflated, capacity: size + 1)
        guard inflated.isValid, inflated.leftover == 0, !inflated.ended, inflated.bytes.count == size else {
            throw FormatError(.zip, "a deflated stroke-3 piece does not inflate to its \(size) bytes")
        }
        return inflated.bytes
    }
}
