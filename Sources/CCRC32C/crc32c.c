#include "crc32c.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#include <pthread.h>
#include <string.h>

int sketchprep_crc32c_hardware(void) { return __builtin_cpu_supports("sse4.2"); }

/// Bytes per stream of the three-way interleaved loop: the CRC32 instruction has a latency of three
/// cycles and a throughput of one, so three independent streams keep it busy.
enum { STREAM_BYTES = 4096 };

/// `shift[k][b]`: the raw CRC register `b << 8k` advanced over STREAM_BYTES zero bytes (the register
/// is linear in its bits, so any register is advanced by four lookups).
static uint32_t shift[4][256];
static pthread_once_t shift_once = PTHREAD_ONCE_INIT;

__attribute__((target("sse4.2")))
static uint32_t advance_over_zeros(uint32_t value) {
    uint64_t register_ = value;
    for (int i = 0; i < STREAM_BYTES / 8; i++) register_ = _mm_crc32_u64(register_, 0);
    return (uint32_t)register_;
}

static void build_shift(void) {
    uint32_t bit[32];
    for (int i = 0; i < 32; i++) bit[i] = advance_over_zeros(1u << i);
    for (int k = 0; k < 4; k++) {
        for (int b = 0; b < 256; b++) {
            uint32_t value = 0;
            for (int i = 0; i < 8; i++)
                if (b & (1 << i)) value ^= bit[8 * k + i];
            shift[k][b] = value;
        }
    }
}

static inline uint32_t shifted(uint32_t value) {
    return shift[0][value & 0xFF] ^ shift[1][(value >> 8) & 0xFF] ^ shift[2][(value >> 16) & 0xFF]
        ^ shift[3][value >> 24];
}

__attribute__((target("sse4.2")))
uint32_t sketchprep_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    uint64_t value = ~crc;
    for (; count > 0 && ((uintptr_t)bytes & 7) != 0; count--) value = _mm_crc32_u8((uint32_t)value, *bytes++);
    if (count >= 3 * STREAM_BYTES) {
        pthread_once(&shift_once, build_shift);
        for (; count >= 3 * STREAM_BYTES; count -= 3 * STREAM_BYTES, bytes += 3 * STREAM_BYTES) {
            uint64_t second = 0, third = 0;
            for (size_t i = 0; i < STREAM_BYTES; i += 8) {
                uint64_t a, b, c;
                memcpy(&a, bytes + i, 8);
                memcpy(&b, bytes + STREAM_BYTES + i, 8);
                memcpy(&c, bytes + 2 * STREAM_BYTES + i, 8);
                value = _mm_crc32_u64(value, a);
                second = _mm_crc32_u64(second, b);
                third = _mm_crc32_u64(third, c);
            }
            value = shifted((uint32_t)value) ^ (uint32_t)second;
            value = shifted((uint32_t)value) ^ (uint32_t)third;
        }
    }
    for (; count >= 8; count -= 8, bytes += 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        value = _mm_crc32_u64(value, word);
    }
    for (; count > 0; count--) value = _mm_crc32_u8((uint32_t)value, *bytes++);
    return ~(uint32_t)value;
}
#endif
