import CCairo

/// The cairo version rasters are drawn with (its antialiasing decides bitmap bytes).
package enum CairoVersion {
    package static var current: String { String(cString: cairo_version_string()) }
}
