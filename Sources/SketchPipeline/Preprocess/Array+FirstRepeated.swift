import SketchDataset
import SketchFormats

extension Array where Element: Hashable {
    /// The first element that occurs a second time, or nil when all are distinct.
    package var firstRepeated: Element? {
        var seen = Set<Element>()
        return first { !seen.insert($0).inserted }
    }
}
