/*
 * CQREncode: libqrencode (QR codes), via pkg-config `libqrencode` (the device authorization
 * grant shows its verification URI as a QR code). The library's API is plain C
 * that Swift imports as it is; `cqr_is_dark` only names the bit that marks a dark module.
 * Imported `internal` only.
 */
#ifndef CQRENCODE_H
#define CQRENCODE_H

#include <qrencode.h>

/** Whether module `index` (row * width + column) of `code` is dark: bit 0 of its byte. */
static inline int cqr_is_dark(const QRcode *code, int index) {
    return code->data[index] & 1;
}

#endif /* CQRENCODE_H */
