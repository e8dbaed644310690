import CArchive

/// A POSIX tar archive written by libarchive (`pax_restricted`: plain ustar headers, and a pax
/// extended header only for a member name longer than ustar's 100 bytes), with every header
/// fixed so the bytes depend only on the members: mode 0644, mtime 0, uid and gid 0, owner and
/// group names empty, members in the order given, libarchive's default 10,240-byte blocks.
package enum TarArchive {
    /// Longest member name written.
    package static let maximumNameBytes = 4096

    /// The archive of `members` (name, contents). Throws `FormatError` (`.tar`) with libarchive's message.
    package static func encode(_ members: [(name: String, contents: [UInt8])]) throws -> [UInt8] {
        guard let archive = archive_write_new() else { throw FormatError(.tar, "libarchive: cannot create an archive writer") }
        defer { archive_write_free(archive) }
        let output = OutputBuffer()
        func check(_ status: Int32, _ what: String) throws {
            guard status == ARCHIVE_OK else {
                throw FormatError(
                    .tar, "libarchive: \(what): \(archive_error_string(archive).map { String(cString: $0) } ?? "error \(status)")")
            }
        }
        try check(archive_write_set_format_pax_restricted(archive), "pax_restricted format")
        try check(archive_write_add_filter_none(archive), "no compression")
        let context = Unmanaged.passUnretained(output).toOpaque()
        try check(
            archive_write_open2(
                archive, context, nil,
                { _, context, buffer, length in
                    guard let context, let buffer else { return -1 }
                    Unmanaged<OutputBuffer>.fromOpaque(context).takeUnretainedValue().bytes
                        .append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
                    return length
                }, nil, nil), "open")
        guard let entry = archive_entry_new() else { throw FormatError(.tar, "libarchive: cannot create an entry") }
        defer { archive_entry_free(entry) }
        for member in members {
            guard member.name.utf8.count <= maximumNameBytes else {
                throw FormatError(.tar, "tar member name longer than \(maximumNameBytes) bytes: \(member.name.prefix(40))…")
            }
            archive_entry_clear(entry)
            archive_entry_set_pathname(entry, member.name)
            archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a regular file
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, la_int64_t(member.contents.count))
            archive_entry_set_mtime(entry, 0, 0)
            archive_entry_set_uid(entry, 0)
            archive_entry_set_gid(entry, 0)
            archive_entry_set_uname(entry, "")
            archive_entry_set_gname(entry, "")
            try check(archive_write_header(archive, entry), "header of \(member.name)")
            let written = member.contents.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == member.contents.count else {
                try check(ARCHIVE_FATAL, "data of \(member.name)")
                return []
            }
        }
        try check(archive_write_close(archive), "close")
        return output.bytes
    }

    private final class OutputBuffer {
        var bytes: [UInt8] = []
    }
}
