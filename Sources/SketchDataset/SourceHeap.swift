/// A binary min-heap of source indices for the k-way merges of sorted data (``RunMerge`` over run
/// files, ``FragmentMerge`` over a run's fragments): `O(log k)` comparisons per record. Each
/// operation is given the order (`less`), since the sources' heads move between operations.
struct SourceHeap {
    private var sources: [Int] = []

    /// The source whose head comes first, or nil when the heap is empty.
    var first: Int? { sources.first }

    /// Adds `source`.
    mutating func push(_ source: Int, by less: (Int, Int) -> Bool) {
        sources.append(source)
        var child = sources.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(sources[child], sources[parent]) else { break }
            sources.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the first source.
    mutating func removeFirst(by less: (Int, Int) -> Bool) {
        sources.swapAt(0, sources.count - 1)
        sources.removeLast()
        firstMoved(by: less)
    }

    /// Restores the order after the first source's head moved on.
    mutating func firstMoved(by less: (Int, Int) -> Bool) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < sources.count && less(sources[left], sources[smallest]) { smallest = left }
            if right < sources.count && less(sources[right], sources[smallest]) { smallest = right }
            if smallest == parent { break }
            sources.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
