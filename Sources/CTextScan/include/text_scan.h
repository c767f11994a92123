// Vector scans of property-list text for ObservableDefaultsCore's XML reader, as static inline
// functions that Swift inlines at the call. GCC/Clang vector extensions: SSE2 on x86-64, NEON
// on arm64, plain integer code elsewhere. Swift's own SIMD types are not used: their lane
// compares and `any(_:)` compiled to a generic call per lane here (about 2,000 instructions
// an entry, against about 110 for the eight-byte loop they were meant to replace).
#ifndef TEXT_SCAN_H
#define TEXT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t observable_defaults_bytes16 __attribute__((vector_size(16)));

/// Where ``observable_defaults_plain_text_stop`` stopped, and what it passed over.
typedef struct {
  /// The index of the stop byte found, or where the sixteen-byte reads stopped.
  size_t index;
  /// The bytes passed over (before the one found) ORed together: their high bits tell whether
  /// they are all ASCII.
  uint64_t high;
  /// Whether a stop byte was found.
  bool found;
} observable_defaults_text_stop;

/// The first byte of `bytes` from `index` that is '<', '&' or a carriage return, reading
/// sixteen bytes at a time while sixteen remain before `count` (a result, not pointers out:
/// the caller's locals then need no stack protector).
static inline observable_defaults_text_stop
observable_defaults_plain_text_stop(const uint8_t *bytes, size_t index, size_t count) {
  observable_defaults_bytes16 passed = {0};
  bool found = false;
  while (index + 16 <= count) {
    observable_defaults_bytes16 chunk;
    memcpy(&chunk, bytes + index, 16);
    observable_defaults_bytes16 stops =
        (observable_defaults_bytes16)((chunk == 0x3C) | (chunk == 0x26) | (chunk == 0x0D));
    uint64_t marks[2];
    memcpy(marks, &stops, 16);
    if ((marks[0] | marks[1]) != 0) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      size_t before = marks[0] != 0 ? (size_t)__builtin_ctzll(marks[0]) / 8
                                    : 8 + (size_t)__builtin_ctzll(marks[1]) / 8;
#else
      size_t before = marks[0] != 0 ? (size_t)__builtin_clzll(marks[0]) / 8
                                    : 8 + (size_t)__builtin_clzll(marks[1]) / 8;
#endif
      const observable_defaults_bytes16 lanes = {0, 1, 2,  3,  4,  5,  6,  7,
                                                 8, 9, 10, 11, 12, 13, 14, 15};
      passed |= chunk & (observable_defaults_bytes16)(lanes < (uint8_t)before);
      index += before;
      found = true;
      break;
    }
    passed |= chunk;
    index += 16;
  }
  uint64_t halves[2];
  memcpy(halves, &passed, 16);
  observable_defaults_text_stop stop = {index, halves[0] | halves[1], found};
  return stop;
}

#endif
