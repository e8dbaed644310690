import Foundation
import SketchIO
import Testing

@Test func aBackgroundHashOfPiecesOfEverySizeEqualsTheOneShotHash() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    // Pieces smaller than, equal to and larger than a buffer, empty ones, with few buffers to wait on.
    for (bufferBytes, buffers) in [(1, 1), (64, 2), (4096, 4), (1 << 18, 4)] {
        let hash = BackgroundSHA256(bufferBytes: bufferBytes, buffers: buffers)
        var offset = 0
        var size = 0
        while offset < bytes.count {
            let piece = min(size, bytes.count - offset)
            bytes[offset..<(offset + piece)].withUnsafeBytes { hash.update($0) }
            offset += piece
            size = size > 70_000 ? 0 : size * 3 + 1
        }
        #expect(hash.finalize() == SHA256Hasher.hash(bytes), "buffers of \(bufferBytes) bytes")
    }
    #expect(BackgroundSHA256(bufferBytes: 16).finalize() == SHA256Hasher.hash([]))
}

@Test func anAbandonedBackgroundHashEndsItsThread() async throws {
    weak var gone: BackgroundSHA256?
    do {
        let hash = BackgroundSHA256(bufferBytes: 8, buffers: 1)
        gone = hash
        [UInt8](repeating: 7, count: 100).withUnsafeBytes { hash.update($0) }
        hash.abandon()
    }
    // The thread lets go of the hasher once it has hashed what it was given.
    for _ in 0..<500 where gone != nil { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(gone == nil)
}
