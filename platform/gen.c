/* placeholder: being written */
#include "internal.h"
int steady_gen_kind_from_name(const char *name) { (void)name; return -1; }
const char *steady_gen_kind_name(steady_gen_kind_t kind) { (void)kind; return "?"; }
steady_err_t steady_platform_generate(steady_gen_kind_t kind, int processors, uint64_t seed,
                                      steady_platform_t **out, steady_error_t *err)
{ (void)kind; (void)processors; (void)seed; *out = NULL; return steady_error_set(err, STEADY_EUNSUPPORTED, "not yet"); }
