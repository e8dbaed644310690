import CPNG
import CZlib

/// Versions of the C libraries this module's bytes depend on (zlib's deflate output, PNG files
/// included; libpng's decoder, whose pixels TU-Berlin datasets hold), recorded in manifests so that "same inputs, same bytes" can name what it assumes.
package enum FormatLibraryVersions {
    package static var zlib: String { String(cString: zlibVersion()) }
    package static var libpng: String { png_get_libpng_ver(nil).map { String(cString: $0) } ?? "unknown" }
}
