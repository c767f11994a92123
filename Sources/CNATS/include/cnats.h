// libnats, the official NATS C client (Debian: libnats-dev to build, libnats3.4 to run), for the
// NATS cloud backend: its header, and the functions used, loaded with dlopen on first use.
//
// The functions keep libnats' names: each one defined in cnats.c calls libnats' function of
// that name, found when libnats is loaded (the first call of any of them loads it). Only a
// program that uses NATS needs libnats, and with it OpenSSL and protobuf-c: linked, they were
// loaded at every start of the editor (see Sources/COptionalLibrary).
#ifndef CNATS_H
#define CNATS_H

#include <nats/nats.h>

/// Loads libnats (libnats.so.3.4), once per process. Returns NULL when it is usable, else why
/// not, naming the Debian package to install; the functions of libnats may only be called after
/// NULL.
const char *cnats_load(void);

#endif
