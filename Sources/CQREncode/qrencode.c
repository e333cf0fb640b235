// The C half of LinkHostQR: libqrencode's symbol as rows of bits.
#include "CQREncode.h"

#include <errno.h>
#include <qrencode.h>
#include <string.h>

int cqr_encode(const uint8_t *bytes, size_t length, int level, int minimum_version, uint64_t *rows, int *version) {
    if (level < QR_ECLEVEL_L || level > QR_ECLEVEL_H || minimum_version < 1 || minimum_version > 40 || length > 7089) {
        errno = EINVAL;
        return 0;
    }
    // QRcode_encodeData, not QRcode_encodeString: byte mode for the whole payload (UTF-8 URLs need
    // nothing else, and phone scanners read byte mode as UTF-8), NUL bytes included.
    QRcode *code = QRcode_encodeData((int)length, bytes, minimum_version, (QRecLevel)level);
    if (code == NULL) return 0;
    int width = code->width;
    if (width > CQR_MAX_WIDTH) {
        QRcode_free(code);
        errno = ERANGE;
        return 0;
    }
    memset(rows, 0, sizeof(uint64_t) * CQR_ROW_WORDS * (size_t)width);
    for (int y = 0; y < width; y++) {
        for (int x = 0; x < width; x++) {
            // Bit 0 of each module byte is its colour; the other bits say which pattern it belongs to.
            if (code->data[y * width + x] & 1) rows[y * CQR_ROW_WORDS + x / 64] |= (uint64_t)1 << (x % 64);
        }
    }
    *version = code->version;
    QRcode_free(code);
    return width;
}
