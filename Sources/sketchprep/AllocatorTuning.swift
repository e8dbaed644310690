#if os(Linux)
import CMalloc
#endif

/// Process-wide allocator settings for streaming work.
enum AllocatorTuning {
    /// Stops glibc from handing freed heap memory back to the kernel after every record.
    ///
    /// Streaming one drawing at a time frees and re-allocates a few tens of KB per record; with
    /// glibc's default 128 KB trim threshold that costs about one `brk` call and four page
    /// faults per drawing (measured with `strace -c` / `perf stat`: 28,118 `brk` calls and
    /// 110,703 page faults for 29,320 drawings, about 20 % of the simplify time). A 4 MB trim
    /// threshold keeps that memory for reuse (19 `brk` calls for 7,330 drawings) without holding
    /// tens of MB of freed batch buffers in every thread's arena (peak RSS of the bitmap28
    /// pipeline with `--jobs 2`: 195 MB with a 32 MB threshold, docs/scale.md). Blocks below
    /// 32 MB come from the heap rather than `mmap`. No effect outside Linux.
    static func keepFreedMemoryForReuse() {
        #if os(Linux)
        mallopt(M_TRIM_THRESHOLD, 4 << 20)
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        #endif
    }
}
