extension Array where Element == Double {
    /// Replaces the contents with `count` values that `fill` writes into every slot, reusing the
    /// array's storage when it is large enough (no per-element `append` and uniqueness checks).
    @inline(__always)
    mutating func replaceContents(count: Int, _ fill: (UnsafeMutableBufferPointer<Double>) -> Void) {
        if self.count != count {
            removeAll(keepingCapacity: true)
            append(contentsOf: repeatElement(0, count: count))
        }
        withUnsafeMutableBufferPointer { fill($0) }
    }
}
