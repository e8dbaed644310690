import COpenSSL

/// SHA-256 (FIPS 180-4), streaming, computed by OpenSSL's libcrypto (SHA-NI/AVX code paths).
/// Used for shard and source checksums in manifests. (A hand-written Swift version was 32 % of
/// `preprocess`'s CPU time in a perf profile of 51,310 raw drawings; libcrypto is about 8× faster.)
///
/// ```
/// var h = SHA256Hasher(); h.update(bytes); let hex = h.finalize().hexString
/// ```
package struct SHA256Hasher: @unchecked Sendable {
    /// Owns the OpenSSL digest context (a hasher is used by one thread at a time).
    private final class Context {
        let pointer: OpaquePointer
        init() {
            pointer = EVP_MD_CTX_new()
            EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
        }
        deinit { EVP_MD_CTX_free(pointer) }
    }
    private let context = Context()

    /// A fresh hash of the empty message.
    package init() {}

    /// SHA-256 digest of `bytes` in one call.
    package static func hash(_ bytes: [UInt8]) -> Digest {
        var h = SHA256Hasher()
        h.update(bytes)
        return h.finalize()
    }

    /// Feeds more message bytes.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// Feeds more message bytes from a buffer.
    package mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        EVP_DigestUpdate(context.pointer, base, buffer.count)
    }

    /// Finishes and returns the digest. The hash is spent afterwards.
    package mutating func finalize() -> Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context.pointer, &bytes, &length)
        return Digest(bytes: bytes)
    }

    /// A finished SHA-256 digest.
    package struct Digest: Sendable, Equatable {
        /// The 32 digest bytes.
        package let bytes: [UInt8]
        /// Lower-case hexadecimal, 64 characters (the form `sha256sum` prints).
        package var hexString: String {
            var out: [UInt8] = []
            out.reserveCapacity(64)
            for b in bytes { HexDigits.append(b, to: &out) }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
