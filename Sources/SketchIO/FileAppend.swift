import SystemPackage

/// Appends `bytes` to the file at `path` (created with mode 0600 when missing), through
/// swift-system's `writeAll`, which retries interrupted and partial writes. Throws
/// `IOError` naming the path and the system's reason. For spill files that grow across
/// flushes; outputs go through `AtomicFileWriter`.
package func appendToFile(_ bytes: [UInt8], path: String) throws {
    do {
        let descriptor = try FileDescriptor.open(
            path, .writeOnly, options: [.create, .append, .closeOnExec],
            permissions: [.ownerReadWrite])
        defer { try? descriptor.close() }
        _ = try descriptor.writeAll(bytes)
    } catch {
        throw IOError.write(path: path, error: error)
    }
}
