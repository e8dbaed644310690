#ifndef SKETCHPREP_CRC32C_H
#define SKETCHPREP_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
/// Nonzero when this CPU has SSE 4.2's CRC32 instruction.
int sketchprep_crc32c_hardware(void);

/// CRC-32C of the `count` bytes at `bytes`, continuing from `crc` (0 to start), computed with
/// SSE 4.2's CRC32 instruction (three interleaved streams for 12 KiB and more); call only where
/// `sketchprep_crc32c_hardware()` is nonzero.
uint32_t sketchprep_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count);
#endif

#endif
