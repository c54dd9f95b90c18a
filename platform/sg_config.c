/*
 * sg_config.c — the settings of a SimGrid file's <config> that steady's
 * model follows: how the flows crossing a link at once share it.
 *
 * SimGrid's CM02 family of network models (CM02, LV08, SMPI — the one
 * smpirun uses — and raw) share a link max-min fairly among the flows
 * crossing it, each weighted by 1 / its sharing penalty: the route's
 * latency plus network/weight-S / bandwidth over every link of the route
 * (NetworkCm02Model::communicate; a route without latency gets 1).  Each
 * model has its own default weight-S.  A file's <config> may name the
 * model and set weight-S; without either, steady takes SMPI's defaults,
 * since it runs under smpirun.  Other models (ns-3, IB, Constant) do not
 * share that way: steady's replay shares their links fairly.
 */
#include "sg.h"

#include <string.h>

/* SimGrid 3.32's network models and their default weight-S
 * (src/kernel/resource/models/network_cm02.cpp); the first is smpirun's. */
static const struct {
    const char *model;
    double weight_s;
} models[] = {{"SMPI", 8775}, {"LV08", 20537}, {"CM02", 0}, {"raw", 0}};
#define MODELS (sizeof models / sizeof *models)

bool steady_simgrid_model_penalty(const char *name, double *weight_s)
{
    for (size_t k = 0; k < MODELS; k++)
        if (strcmp(name, models[k].model) == 0) {
            if (weight_s)
                *weight_s = models[k].weight_s;
            return true;
        }
    return false;
}

static steady_err_t config_prop(sg_t *g, void *ctx, const char *id, const char *value,
                                xmlNodePtr prop)
{
    (void)ctx;
    if (strcmp(id, "network/model") == 0) {
        g->has_model = true;
        g->model_other = !steady_simgrid_model_penalty(value, &g->model_weight_s);
        return STEADY_OK;
    }
    if (strcmp(id, "network/weight-S") != 0)
        return STEADY_OK; /* the other settings tune what steady does not model */
    steady_err_t rc = sg_quantity(g, prop, value, UNIT_NONE, "weight-S", &g->weight_s);
    g->has_weight_s = !rc;
    return rc;
}

steady_err_t sg_read_config(sg_t *g, xmlNodePtr node)
{
    steady_err_t rc = sg_check_attrs(g, node, "id");
    return rc ? rc : sg_read_props(g, node, config_prop, NULL);
}

steady_err_t sg_flow_sharing(sg_t *g)
{
    if (g->flows_fair || g->model_other)
        return steady_platform_set_flow_sharing(g->p, STEADY_FLOWS_FAIR, 0, g->err);
    double w = g->has_weight_s ? g->weight_s
               : g->has_model  ? g->model_weight_s
                               : models[0].weight_s;
    return steady_platform_set_flow_sharing(g->p, STEADY_FLOWS_PENALTY, w, g->err);
}
