#include "crc32c.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#include <string.h>

int sketchprep_crc32c_hardware(void) { return __builtin_cpu_supports("sse4.2"); }

__attribute__((target("sse4.2")))
uint32_t sketchprep_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    uint64_t value = ~crc;
    for (; count > 0 && ((uintptr_t)bytes & 7) != 0; count--) value = _mm_crc32_u8((uint32_t)value, *bytes++);
    for (; count >= 8; count -= 8, bytes += 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        value = _mm_crc32_u64(value, word);
    }
    for (; count > 0; count--) value = _mm_crc32_u8((uint32_t)value, *bytes++);
    return ~(uint32_t)value;
}
#endif
