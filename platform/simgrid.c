/* placeholder: being written */
#include "internal.h"
steady_err_t parse_simgrid(xmlDocPtr doc, const char *origin, steady_platform_t *p, steady_error_t *err)
{ (void)doc; (void)p; return steady_error_set(err, STEADY_EUNSUPPORTED, "%s: SimGrid not yet", origin); }
steady_err_t write_simgrid(const steady_platform_t *p, FILE *out, const steady_write_options_t *opts, steady_error_t *err)
{ (void)p; (void)out; (void)opts; return steady_error_set(err, STEADY_EUNSUPPORTED, "SimGrid not yet"); }
