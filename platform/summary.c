/* placeholder: being written */
#include "internal.h"
steady_err_t steady_platform_summarize(const steady_platform_t *p, steady_platform_summary_t *s, steady_error_t *err)
{ (void)p; (void)s; return steady_error_set(err, STEADY_EUNSUPPORTED, "not yet"); }
