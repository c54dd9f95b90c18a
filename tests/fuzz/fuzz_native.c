/*
 * fuzz_native.c — the native text platform reader, and round trips through
 * every format (roundtrip.c).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_platform(data, size, STEADY_FORMAT_NATIVE);
}
