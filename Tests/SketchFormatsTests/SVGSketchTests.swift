import SketchCore
import Testing

@testable import SketchFormats

@Suite struct SVGSketchTests {
    private func drawing(_ body: String) throws -> Drawing {
        try SVGSketch.drawing(of: Array("<svg xmlns=\"http://www.w3.org/2000/svg\">\(body)</svg>".utf8))
    }

    @Test func numbersNeedNoSeparatorWhereTheGrammarAllowsNone() throws {
        let segments = try SVGPathData.segments(of: "M10-20.5.5e1-1E-1L2,3", maximumSegments: 10)
        #expect(segments == [.move(SVGPoint(x: 10, y: -20.5)), .line(SVGPoint(x: 5, y: -0.1)), .line(SVGPoint(x: 2, y: 3))])
        #expect(throws: FormatError.self) {
            try SVGPathData.segments(of: "M0 0" + String(repeating: "L1 1", count: 11), maximumSegments: 10)
        }
    }

    @Test func arcsEndExactlyAtTheirEndPointAndBulgeOnTheSweepSide() throws {
        let drawing = try drawing(#"<path d="M0 0A10 10 0 0 1 20 0"/>"#)
        let stroke = try #require(drawing.strokes.first)
        #expect(stroke.x.first == 0 && stroke.y.first == 0 && stroke.x.last == 20 && stroke.y.last == 0)
        #expect(stroke.count > 10)
        #expect(abs((stroke.y.min() ?? 0) + 10) < 0.2)  // sweep 1 in SVG's y-down space: the half circle goes through y = -10
    }

    @Test func transformsComposeLeftToRightOverNestedGroups() throws {
        let drawing = try drawing(
            #"<g transform="translate(100 0)"><g transform="scale(2) rotate(90)"><line x1="1" y1="0" x2="0" y2="0"/></g></g>"#)
        let stroke = try #require(drawing.strokes.first)
        #expect(abs(stroke.x[0] - 100) < 1e-12 && abs(stroke.y[0] - 2) < 1e-12)
        #expect(stroke.t == [0, 1])
    }

    @Test func entitiesAreNeverExpanded() throws {
        let laughs = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "x">]><svg><path d="M0 0L1 1" id="&a;"/></svg>"#
        #expect(throws: FormatError.self) { try SVGSketch.drawing(of: Array(laughs.utf8)) }
        #expect(throws: FormatError.self) { try drawing(#"<path d="M0 0L1 1" id="&a;"/>"#) }
        #expect(try drawing(#"<path d="M0 0L1 1" id="&lt;&#65;&#x42;"/>"#).strokes.count == 1)
    }

    @Test("arc radii that underflow when squared are refused with a reason, never a trap")
    func arcRadiiThatUnderflowAreRefused() throws {
        for radii in ["1e-300 1e-300", "1e-200 5"] {
            let error = #expect(throws: FormatError.self) { try drawing("<path d=\"M0 0 A\(radii) 0 0 1 10 10\"/>") }
            #expect(error?.description.contains("arc radii") == true, "\(radii): \(String(describing: error))")
        }
    }

    @Test("a curve whose control point leaves the renderer's range after the transforms is refused, not drawn wrapped")
    func controlPointsBeyondTheRangeAreRefused() throws {
        let error = #expect(throws: FormatError.self) {
            try drawing("<path transform=\"scale(1000)\" d=\"M0 0 C 5000 0 0 5000 10 10\"/>")
        }
        #expect(error?.description.contains(RenderRange.outOfRange) == true)
    }
}
