/// SHA-256 (FIPS 180-4), streaming. Used for shard and source checksums in manifests.
///
/// ```
/// var h = SHA256Hasher(); h.update(bytes); let hex = h.finalize().hexString
/// ```
package struct SHA256Hasher: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    /// A fresh hash of the empty message.
    package init() { pending.reserveCapacity(64) }

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
        totalBytes &+= UInt64(buffer.count)
        var i = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            i = take
            if pending.count == 64 {
                pending.withUnsafeBufferPointer { compress($0.baseAddress!, count: 1) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let wholeBlocks = (buffer.count - i) / 64
        if wholeBlocks > 0 {
            compress(buffer.baseAddress! + i, count: wholeBlocks)
            i += 64 * wholeBlocks
        }
        if i < buffer.count { pending.append(contentsOf: buffer[i...]) }
    }

    /// Pads, finishes and returns the digest. The hash is spent afterwards.
    package mutating func finalize() -> Digest {
        let bitLength = totalBytes &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { compress($0.baseAddress!, count: $0.count / 64) }
        pending.removeAll()
        let s = state
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7] {
            bytes.append(contentsOf: [UInt8(word >> 24), UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF)])
        }
        return Digest(bytes: bytes)
    }

    /// A 32-byte SHA-256 digest.
    package struct Digest: Sendable, Equatable {
        /// The 32 digest bytes.
        package let bytes: [UInt8]
        /// Lower-case hexadecimal, 64 characters (the form `sha256sum` prints).
        package var hexString: String {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            out.reserveCapacity(64)
            for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Processes `count` consecutive 64-byte blocks starting at `blocks`.
    private mutating func compress(_ blocks: UnsafePointer<UInt8>, count: Int) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        SHA256Hasher.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for blockIndex in 0..<count {
                    let block = blocks + 64 * blockIndex
                    for i in 0..<16 {
                        w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                            | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
                    }
                    for i in 16..<64 {
                        let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                        let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for i in 0..<64 {
                        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ s0 &+ maj
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}
