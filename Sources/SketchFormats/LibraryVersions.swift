import CDeflate
import CPNG
import CZlib

/// Versions of the C libraries this module's bytes depend on (zlib's deflate output; libdeflate's,
/// RGB PNG files; libpng's decoder, whose pixels TU-Berlin datasets hold), recorded in manifests so that "same inputs, same bytes" can name what it assumes.
package enum FormatLibraryVersions {
    package static var zlib: String { String(cString: zlibVersion()) }
    /// libdeflate's version (its header's: the library has no run-time version call).
    package static var libdeflate: String { LIBDEFLATE_VERSION_STRING }
    package static var libpng: String { png_get_libpng_ver(nil).map { String(cString: $0) } ?? "unknown" }
}
