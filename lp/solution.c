/*
 * solution.c — the solution object: its problem (node sets, message types,
 * reduction tasks, hop and task times), set up before any LP; its sparse
 * rates; and the accessors of steady/lp.h.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"scatter", "gossip", "reduce", "broadcast"};

int steady_op_from_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, op_names[i]) == 0)
            return i;
    return -1;
}

const char *steady_op_name(steady_op_t op)
{
    return (unsigned)op < 4 ? op_names[op] : "?";
}

static const char *const formulation_names[] = {"auto",    "full",  "aggregated",   "cuts",
                                                "compact", "trees", "arborescences"};

int steady_formulation_from_name(const char *name)
{
    for (int i = 0; i < 7; i++)
        if (strcmp(name, formulation_names[i]) == 0 && i != STEADY_FORMULATION_AGGREGATED &&
            i != STEADY_FORMULATION_TREES)
            return i;
    return -1;
}

const char *steady_formulation_name(steady_formulation_t f)
{
    return (unsigned)f < 7 ? formulation_names[f] : "?";
}

static const char *const simplex_names[] = {"auto", "glpk", "clp"};

int steady_simplex_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, simplex_names[i]) == 0)
            return i;
    return -1;
}

const char *steady_simplex_name(steady_simplex_t s)
{
    return (unsigned)s < 3 ? simplex_names[s] : "?";
}

bool steady_simplex_clp_available(void)
{
    return lp_clp_available();
}

/* ---- setting up ----------------------------------------------------------- */

void lp_use_time(const steady_solution_t *s, int edge, const steady_use_t *u, mpq_t t)
{
    if (!u->cross) {
        mpq_set(t, u->channel >= 0 ? s->chan_time[u->channel] : s->edge_time[edge]);
        return;
    }
    const steady_edge_t *e = steady_platform_edge(s->p, edge);
    mpq_mul(t, s->cross,
            u->channel >= 0 ? s->chan_time[u->channel]
                            : s->edge_time[steady_platform_find_edge(s->p, e->dst, e->src)]);
}

/* steady_exact_hop_time from the per-edge and per-channel values: the
 * longest of its edges' and their channels' times. */
static void hop_time(const steady_solution_t *s, const steady_hop_t *h, mpq_t t)
{
    mpq_set_ui(t, 0, 1);
    for (int k = 0; k < h->nedges; k++) {
        const steady_edge_t *e = steady_platform_edge(s->p, h->edges[k]);
        if (mpq_cmp(s->edge_time[h->edges[k]], t) > 0)
            mpq_set(t, s->edge_time[h->edges[k]]);
        for (int c = 0; c < e->ncross; c++)
            if (mpq_cmp(s->chan_time[e->cross[c].channel], t) > 0)
                mpq_set(t, s->chan_time[e->cross[c].channel]);
    }
}

static steady_err_t set_costs(steady_solution_t *s, steady_error_t *err)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    s->nedges = steady_platform_edge_count(s->p);
    s->nchannels = steady_platform_channel_count(s->p);
    s->comm = malloc((size_t)(nh ? nh : 1) * sizeof *s->comm);
    s->work = malloc((size_t)nv * sizeof *s->work);
    s->edge_time = malloc((size_t)(s->nedges ? s->nedges : 1) * sizeof *s->edge_time);
    s->chan_time = malloc((size_t)(s->nchannels ? s->nchannels : 1) * sizeof *s->chan_time);
    if (!s->comm || !s->work || !s->edge_time || !s->chan_time) {
        free(s->comm);
        free(s->work);
        free(s->edge_time);
        free(s->chan_time);
        s->comm = s->work = s->edge_time = s->chan_time = NULL;
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    mpq_init(s->cross);
    steady_exact_decimal(s->cross, steady_platform_crosstraffic(s->p));
    for (int e = 0; e < s->nedges; e++) {
        mpq_init(s->edge_time[e]);
        steady_exact_comm_time(s->p, e, s->msg_size, s->edge_time[e]);
    }
    for (int c = 0; c < s->nchannels; c++) {
        mpq_init(s->chan_time[c]);
        steady_exact_use_time(s->p, -1, &(steady_use_t){.resource = -1, .channel = c},
                              s->msg_size, s->chan_time[c]);
    }
    for (int h = 0; h < nh; h++) {
        mpq_init(s->comm[h]);
        hop_time(s, steady_hop_graph_hop(s->hops, h), s->comm[h]);
    }
    for (int v = 0; v < nv; v++) {
        mpq_init(s->work[v]);
        steady_exact_task_time(s->p, v, s->task_cost, s->work[v]);
    }
    return STEADY_OK;
}

static long choose3(long n)
{
    return n * (n - 1) * (n - 2) / 6;
}

int lp_task(int n, int k, int l, int m)
{
    /* the tasks of k' < k: sum over k' of (n - k')(n - k' - 1) / 2; then
     * the l' in [k, l) of this k, with n - 1 - l' values of m each */
    long before = choose3(n + 1) - choose3(n - k + 1);
    return (int)(before + (long)(l - k) * (n - 1) - ((long)l * (l - 1) - (long)k * (k - 1)) / 2 +
                 (m - l - 1));
}

/* The message types (lp.h) and the reduce's tasks. */
static steady_err_t list_types(steady_solution_t *s, steady_error_t *err)
{
    int cap = 1;
    switch (s->op) {
    case STEADY_OP_SCATTER: cap = s->ntargets; break;
    case STEADY_OP_GOSSIP: cap = s->nsources * s->ntargets; break;
    case STEADY_OP_REDUCE: cap = s->nsources * (s->nsources + 1) / 2; break;
    case STEADY_OP_BROADCAST: cap = 1; break;
    }
    s->type_a = malloc((size_t)(cap ? cap : 1) * sizeof(int));
    s->type_b = malloc((size_t)(cap ? cap : 1) * sizeof(int));
    if (!s->type_a || !s->type_b)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    switch (s->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_GOSSIP: {
        bool gossip = s->op == STEADY_OP_GOSSIP;
        for (int i = 0; i < (gossip ? s->nsources : 1); i++)
            for (int j = 0; j < s->ntargets; j++) {
                int a = s->sources[gossip ? i : 0], b = s->targets[j];
                if (a == b)
                    continue;
                s->type_a[s->ntypes] = gossip ? a : -1;
                s->type_b[s->ntypes++] = b;
            }
        break;
    }
    case STEADY_OP_BROADCAST:
        s->ntypes = 1;
        s->type_a[0] = s->type_b[0] = -1;
        break;
    case STEADY_OP_REDUCE: {
        int N = s->nsources;
        s->ntypes = cap;
        for (int k = 0; k < N; k++)
            for (int mm = k; mm < N; mm++) {
                int t = lp_interval(N, k, mm);
                s->type_a[t] = k;
                s->type_b[t] = mm;
            }
        long ntasks = (long)N * ((long)N * N - 1) / 6;
        if (ntasks > 200000000)
            return steady_error_set(err, STEADY_EUNSUPPORTED,
                                    "a reduce of %d participants has %ld task kinds: too many", N,
                                    ntasks);
        s->ntasks = (int)ntasks;
        s->task_k = malloc((size_t)(s->ntasks ? s->ntasks : 1) * sizeof(int));
        s->task_l = malloc((size_t)(s->ntasks ? s->ntasks : 1) * sizeof(int));
        s->task_m = malloc((size_t)(s->ntasks ? s->ntasks : 1) * sizeof(int));
        if (!s->task_k || !s->task_l || !s->task_m)
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        int nt = 0;
        for (int k = 0; k < N; k++)
            for (int l = k; l < N; l++)
                for (int mm = l + 1; mm < N; mm++) {
                    s->task_k[nt] = k;
                    s->task_l[nt] = l;
                    s->task_m[nt++] = mm;
                }
        break;
    }
    }
    return STEADY_OK;
}

steady_err_t lp_solution_prepare(const steady_platform_t *p, const steady_problem_t *prob,
                                 steady_solution_t **out, steady_error_t *err)
{
    *out = NULL;
    steady_solution_t *s = calloc(1, sizeof *s);
    if (!s)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    mpq_init(s->tp);
    s->p = p;
    s->op = prob->op;
    s->note = "";
    s->formulation = STEADY_FORMULATION_FULL;
    s->msg_size = prob->msg_size > 0 ? prob->msg_size : 1048576.0;
    s->task_cost = prob->task_cost > 0              ? prob->task_cost
                   : steady_platform_is_abstract(p) ? 1.0
                                                    : s->msg_size;
    steady_err_t rc;
    if (!isfinite(prob->msg_size) || prob->msg_size < 0 || !isfinite(prob->task_cost) ||
        prob->task_cost < 0) {
        rc = steady_error_set(err, STEADY_EINVAL, "message size and task cost must be positive");
        goto fail;
    }
    if ((rc = lp_check_ranges(p, s->msg_size, s->task_cost, err)) ||
        (rc = lp_check_problem(s, prob, err)) || (rc = steady_hop_graph_build(p, &s->hops, err)))
        goto fail;
    s->nhops = steady_hop_graph_count(s->hops);
    if ((rc = set_costs(s, err)) || (rc = list_types(s, err)))
        goto fail;
    *out = s;
    return STEADY_OK;
fail:
    steady_solution_destroy(s);
    return rc;
}

steady_problem_t lp_problem_of(const steady_solution_t *s)
{
    steady_problem_t prob = {.op = s->op, .msg_size = s->msg_size, .task_cost = s->task_cost};
    switch (s->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
        prob.source = s->sources[0];
        prob.targets = s->targets;
        prob.ntargets = s->ntargets;
        break;
    case STEADY_OP_GOSSIP:
        prob.sources = s->sources;
        prob.nsources = s->nsources;
        prob.targets = s->targets;
        prob.ntargets = s->ntargets;
        break;
    case STEADY_OP_REDUCE:
        prob.participants = s->sources;
        prob.nparticipants = s->nsources;
        prob.target = s->targets[0];
        break;
    }
    return prob;
}

void steady_solution_destroy(steady_solution_t *s)
{
    if (!s)
        return;
    mpq_clear(s->tp);
    lp_rates_free(&s->send);
    lp_rates_free(&s->cons);
    lp_rates_free(&s->flow);
    if (s->comm)
        for (int h = 0; h < s->nhops; h++)
            mpq_clear(s->comm[h]);
    if (s->work)
        for (int v = 0; v < steady_platform_node_count(s->p); v++)
            mpq_clear(s->work[v]);
    if (s->edge_time) {
        mpq_clear(s->cross);
        for (int e = 0; e < s->nedges; e++)
            mpq_clear(s->edge_time[e]);
    }
    if (s->chan_time)
        for (int c = 0; c < s->nchannels; c++)
            mpq_clear(s->chan_time[c]);
    free(s->comm);
    free(s->work);
    free(s->edge_time);
    free(s->chan_time);
    free(s->sources);
    free(s->targets);
    free(s->type_a);
    free(s->type_b);
    free(s->task_k);
    free(s->task_l);
    free(s->task_m);
    steady_hop_graph_destroy(s->hops);
    free(s);
}

/* ---- accessors ------------------------------------------------------------- */

const steady_platform_t *steady_solution_platform(const steady_solution_t *s)
{
    return s->p;
}

const steady_hop_graph_t *steady_solution_hops(const steady_solution_t *s)
{
    return s->hops;
}

steady_op_t steady_solution_op(const steady_solution_t *s)
{
    return s->op;
}

double steady_solution_msg_size(const steady_solution_t *s)
{
    return s->msg_size;
}

double steady_solution_task_cost(const steady_solution_t *s)
{
    return s->task_cost;
}

const int *steady_solution_sources(const steady_solution_t *s, int *count)
{
    *count = s->nsources;
    return s->sources;
}

const int *steady_solution_targets(const steady_solution_t *s, int *count)
{
    *count = s->ntargets;
    return s->targets;
}

bool steady_solution_is_bound(const steady_solution_t *s)
{
    return s->bound;
}

bool steady_solution_is_exact(const steady_solution_t *s)
{
    return s->exact;
}

long steady_solution_scale(const steady_solution_t *s)
{
    return s->scale;
}

const char *steady_solution_note(const steady_solution_t *s)
{
    return s->note;
}

steady_formulation_t steady_solution_formulation(const steady_solution_t *s)
{
    return s->formulation;
}

void steady_solution_throughput(const steady_solution_t *s, mpq_t tp)
{
    mpq_set(tp, s->tp);
}

double steady_solution_throughput_d(const steady_solution_t *s)
{
    return mpq_get_d(s->tp);
}

int steady_solution_type_count(const steady_solution_t *s)
{
    return s->ntypes;
}

void steady_solution_type_name(const steady_solution_t *s, int t, char *buf, size_t n)
{
    switch (s->op) {
    case STEADY_OP_SCATTER: snprintf(buf, n, "%s", lp_node_name(s, s->type_b[t])); break;
    case STEADY_OP_GOSSIP:
        snprintf(buf, n, "%s>%s", lp_node_name(s, s->type_a[t]), lp_node_name(s, s->type_b[t]));
        break;
    case STEADY_OP_REDUCE: snprintf(buf, n, "[%d,%d]", s->type_a[t], s->type_b[t]); break;
    case STEADY_OP_BROADCAST: snprintf(buf, n, "msg"); break;
    }
}

void steady_solution_type_ends(const steady_solution_t *s, int type, int *a, int *b)
{
    *a = s->type_a[type];
    *b = s->type_b[type];
}

void steady_solution_send(const steady_solution_t *s, int hop, int type, mpq_t rate)
{
    lp_rates_get(&s->send, hop, type, rate);
}

int steady_solution_hop_rates(const steady_solution_t *s, int hop, const int **types,
                              const mpq_t **rates)
{
    if (!s->send.start || hop < 0 || hop >= s->send.nrows) {
        *types = NULL;
        *rates = NULL;
        return 0;
    }
    int a = s->send.start[hop];
    *types = s->send.key + a;
    *rates = (const mpq_t *)(s->send.val + a);
    return s->send.start[hop + 1] - a;
}

int steady_solution_node_tasks(const steady_solution_t *s, int node, const int **tasks,
                               const mpq_t **rates)
{
    if (!s->cons.start || node < 0 || node >= s->cons.nrows) {
        *tasks = NULL;
        *rates = NULL;
        return 0;
    }
    int a = s->cons.start[node];
    *tasks = s->cons.key + a;
    *rates = (const mpq_t *)(s->cons.val + a);
    return s->cons.start[node + 1] - a;
}

int steady_solution_task_count(const steady_solution_t *s)
{
    return s->ntasks;
}

void steady_solution_task(const steady_solution_t *s, int task, int *k, int *l, int *m)
{
    *k = s->task_k[task];
    *l = s->task_l[task];
    *m = s->task_m[task];
}

void steady_solution_cons(const steady_solution_t *s, int node, int task, mpq_t rate)
{
    lp_rates_get(&s->cons, node, task, rate);
}

bool steady_solution_has_flows(const steady_solution_t *s)
{
    return s->has_flows;
}

void steady_solution_flow(const steady_solution_t *s, int hop, int target, mpq_t rate)
{
    lp_rates_get(&s->flow, hop, target, rate);
}

void steady_solution_hop_time(const steady_solution_t *s, int hop, mpq_t c)
{
    mpq_set(c, s->comm[hop]);
}

/* The messages of every type on hop h per time unit. */
static void hop_total(const steady_solution_t *s, int hop, mpq_t total)
{
    const int *types;
    const mpq_t *rates;
    int n = steady_solution_hop_rates(s, hop, &types, &rates);
    mpq_set_ui(total, 0, 1);
    for (int k = 0; k < n; k++)
        mpq_add(total, total, rates[k]);
}

void steady_solution_hop_busy(const steady_solution_t *s, int hop, mpq_t busy)
{
    hop_total(s, hop, busy);
    mpq_mul(busy, busy, s->comm[hop]);
}

void steady_solution_node_busy(const steady_solution_t *s, int node, mpq_t send, mpq_t recv,
                               mpq_t cpu)
{
    mpq_t b;
    mpq_init(b);
    mpq_set_ui(send, 0, 1);
    mpq_set_ui(recv, 0, 1);
    mpq_set_ui(cpu, 0, 1);
    int n;
    const int *hs = steady_hop_graph_out(s->hops, node, &n);
    for (int k = 0; k < n; k++) {
        steady_solution_hop_busy(s, hs[k], b);
        mpq_add(send, send, b);
    }
    hs = steady_hop_graph_in(s->hops, node, &n);
    for (int k = 0; k < n; k++) {
        steady_solution_hop_busy(s, hs[k], b);
        mpq_add(recv, recv, b);
    }
    const int *tasks;
    const mpq_t *rates;
    n = steady_solution_node_tasks(s, node, &tasks, &rates);
    for (int q = 0; q < n; q++) {
        mpq_mul(b, rates[q], s->work[node]);
        mpq_add(cpu, cpu, b);
    }
    mpq_clear(b);
}

void steady_solution_resource_busy(const steady_solution_t *s, mpq_t *busy)
{
    int nr = steady_platform_resource_count(s->p);
    mpq_t rate, q;
    mpq_inits(rate, q, NULL);
    for (int r = 0; r < nr; r++)
        mpq_set_ui(busy[r], 0, 1);
    for (int h = 0; h < s->nhops && nr > 0; h++) {
        hop_total(s, h, rate);
        if (mpq_sgn(rate) == 0)
            continue;
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        int edge;
        const steady_use_t *u;
        steady_loads_t it;
        steady_loads_start(&it, s->p, hop->edges, hop->nedges);
        while (steady_loads_next(&it, &edge, &u)) {
            lp_use_time(s, edge, u, q);
            mpq_mul(q, q, rate);
            mpq_add(busy[u->resource], busy[u->resource], q);
        }
    }
    mpq_clears(rate, q, NULL);
}

void steady_solution_stats(const steady_solution_t *s, steady_lp_stats_t *stats)
{
    *stats = s->stats;
}
