// File-system calls Swift's Glibc module does not expose, used by SketchIO only.
#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Exchanges the paths `a` and `b` atomically (renameat2 with RENAME_EXCHANGE); -1 with errno
/// EINVAL or ENOSYS where the kernel or file system cannot.
static inline int sketchprep_rename_exchange(const char *a, const char *b) {
#if defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Starts writing the dirty pages of bytes [offset, offset + count) of the open `fd` to disk and
/// returns without waiting for them (sync_file_range with SYNC_FILE_RANGE_WRITE).
static inline int sketchprep_start_writeback(int fd, long long offset, long long count) {
#if defined(SYS_sync_file_range)
    return (int)syscall(SYS_sync_file_range, fd, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
#elif defined(SYS_sync_file_range2)
    return (int)syscall(SYS_sync_file_range2, fd, 2 /* SYNC_FILE_RANGE_WRITE */, offset, count);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Writes every file of the file system holding the open `fd` to disk (syncfs).
static inline int sketchprep_syncfs(int fd) {
    return (int)syscall(SYS_syncfs, fd);
}
#endif
