extension Array where Element == Double {
    /// Replaces the contents with `count` values that `fill` writes into every slot, reusing the
    /// array's storage: it only grows or shrinks by the difference, so a scratch array reused
    /// for values of similar counts needs no per-element `append` and no fresh zero fill.
    @inline(__always)
    mutating func replaceContents(count: Int, _ fill: (UnsafeMutableBufferPointer<Double>) -> Void) {
        if self.count < count {
            append(contentsOf: repeatElement(0, count: count - self.count))
        } else if self.count > count {
            removeLast(self.count - count)
        }
        withUnsafeMutableBufferPointer { fill($0) }
    }
}
