/// The inflated bytes, written into a buffer of fixed capacity.
struct InflateOutput {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Whether `bytes` more fit.
    @inline(__always)
    func hasRoom(_ bytes: Int) -> Bool { bytes <= capacity &- count }

    /// Appends `byte` where ``hasRoom(_:)`` said it fits.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) -> Bool {
        guard count < capacity else { return false }
        base[count] = byte
        count &+= 1
        return true
    }

    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) -> Bool {
        guard length <= capacity - count else { return false }
        (base + count).update(from: bytes, count: length)
        count += length
        return true
    }

    /// Appends `length` bytes copied from `distance` bytes back (overlapping when the distance is
    /// shorter); false when that reaches before the first byte or past the capacity.
    @inline(__always)
    mutating func copyMatch(distance: Int, length: Int) -> Bool {
        guard distance <= count, length <= capacity &- count else { return false }
        var from = base + (count &- distance)
        var to = base + count
        let end = to + length
        if distance >= 8 {
            // Eight bytes at a time: each word read lies before the one being written.
            while end - to >= 8 {
                UnsafeMutableRawPointer(to).storeBytes(
                    of: UnsafeRawPointer(from).loadUnaligned(as: UInt64.self), as: UInt64.self)
                to += 8
                from += 8
            }
        }
        while to < end {
            to.pointee = from.pointee
            to += 1
            from += 1
        }
        count &+= length
        return true
    }
}
