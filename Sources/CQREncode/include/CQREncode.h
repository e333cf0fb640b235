/// CQREncode: the one call linkhost makes into libqrencode (Debian's libqrencode4).
///
/// libqrencode answers with a struct that owns a malloc'd module array whose bytes mix the colour
/// with flags; Swift would have to walk it through a pointer and free it. This wrapper turns one
/// encode into rows of plain bits in a buffer the caller owns, and frees libqrencode's struct itself.
#ifndef CQRENCODE_H
#define CQRENCODE_H

#include <stddef.h>
#include <stdint.h>

/// Words per row in `cqr_encode`'s output: three 64-bit words hold the widest symbol (177 modules).
#define CQR_ROW_WORDS 3
/// Rows of the largest symbol (version 40).
#define CQR_MAX_WIDTH 177

/// Encodes `length` bytes in 8-bit byte mode at error-correction `level` (0 L, 1 M, 2 Q, 3 H, as
/// libqrencode numbers them) in the smallest version at least `minimum_version` (1…40) that holds
/// them, and writes the symbol into `rows`: row y is words rows[3y], rows[3y+1], rows[3y+2], module x
/// in bit x % 64 of word x / 64, set when dark. `rows` must hold CQR_ROW_WORDS × CQR_MAX_WIDTH words.
/// Returns the symbol's width (17 + 4 × version), writing the version to *version; 0 when the bytes
/// fit no version (errno ERANGE) or the arguments are wrong (EINVAL) or memory ran out (ENOMEM).
int cqr_encode(const uint8_t *bytes, size_t length, int level, int minimum_version, uint64_t *rows, int *version);

#endif
