#ifndef SKETCHPREP_LIBFUZZER_DRIVER_H
#define SKETCHPREP_LIBFUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): parses the libFuzzer flags in
/// argv and fuzzes `callback` exactly as libFuzzer's own `main` would.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
