/* The wheel's `sketchprep` program: the CLI of the Python package's native library
 * (libSketchPrepNative.so, beside this program's bin/ directory, found by the run path
 * `$ORIGIN/..`), so that the wheel carries one Swift runtime instead of two (docs/python.md). */
#include "sketchprep_native.h"

int main(void) {
    return sketchprep_cli_main();
}
