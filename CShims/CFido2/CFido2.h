/*
 * CFido2: libfido2 1.12 (Debian's libfido2-dev), for real FIDO2 security keys over USB HID
 * and, through its custom I/O (fido_dev_set_io_functions), a software key: the SecurityKeys
 * module's only C. libfido2's API is plain functions and types, which Swift imports as they
 * are: this header needs no inline shims. Imported `internal` only.
 */
#ifndef CFIDO2_H
#define CFIDO2_H

#include <fido.h>
#include <fido/es256.h>
#include <fido/eddsa.h>

#endif
