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
    /// 110,703 page faults for 29,320 drawings, about 20 % of the simplify time). Keeping up to
    /// 32 MB of freed memory, and serving blocks below 32 MB from the heap rather than `mmap`,
    /// bounds the extra resident memory by that amount. No effect outside Linux.
    static func keepFreedMemoryForReuse() {
        #if os(Linux)
        mallopt(M_TRIM_THRESHOLD, 32 << 20)
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        #endif
    }
}
