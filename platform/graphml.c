/* placeholder: being written */
#include "internal.h"
steady_err_t parse_graphml(xmlDocPtr doc, const char *origin, steady_platform_t *p, steady_error_t *err)
{ (void)doc; (void)p; return steady_error_set(err, STEADY_EUNSUPPORTED, "%s: GraphML not yet", origin); }
steady_err_t write_graphml(const steady_platform_t *p, FILE *out, steady_error_t *err)
{ (void)p; (void)out; return steady_error_set(err, STEADY_EUNSUPPORTED, "GraphML not yet"); }
