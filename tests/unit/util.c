/*
 * util.c — helpers shared by the unit tests.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

const char *const paper_reduce_text = "processor P0 speed=2\nprocessor P1 speed=1\n"
                                      "processor P2 speed=1\nlink P0 P1 cost=1\n"
                                      "link P0 P2 cost=1\nlink P1 P2 cost=1\n";

const steady_problem_t paper_reduce_to_p0 = {.op = STEADY_OP_REDUCE,
                                             .participants = (const int[]){0, 1, 2},
                                             .nparticipants = 3,
                                             .target = 0,
                                             .task_cost = 1};

void check_parse_cases(const parse_case_t *cases, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const char *got = parse_err(cases[k].text, STEADY_FORMAT_AUTO, cases[k].code);
        if (strcmp(got, cases[k].msg) != 0)
            fprintf(stderr, "\n    case %zu:\n      want: %s\n      got:  %s\n", k, cases[k].msg,
                    got);
        CU_ASSERT_STRING_EQUAL(got, cases[k].msg);
    }
}

steady_platform_t *parse_ok(const char *text, steady_format_t format)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_parse(text, strlen(text), "test", format, &p, NULL, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected parse error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return p;
}

steady_platform_t *read_ok(const char *path)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_read(path, STEADY_FORMAT_AUTO, &p, NULL, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected read error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return p;
}

const char *parse_err(const char *text, steady_format_t format, steady_err_t code)
{
    static steady_error_t err;
    steady_platform_t *p = NULL;
    steady_error_clear(&err);
    steady_err_t rc = steady_platform_parse(text, strlen(text), "test", format, &p, NULL, &err);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(p);
    steady_platform_destroy(p);
    return err.msg;
}

steady_solution_t *solve_ok(const steady_platform_t *p, steady_problem_t prob)
{
    steady_solution_t *s = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_lp_solve(p, &prob, NULL, &s, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected solve error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return s;
}

steady_solution_t *solve_full_ok(const steady_platform_t *p, steady_problem_t prob)
{
    return solve_formulation_ok(p, prob, STEADY_FORMULATION_FULL);
}

steady_solution_t *solve_formulation_ok(const steady_platform_t *p, steady_problem_t prob,
                                        steady_formulation_t f)
{
    steady_solution_t *s = NULL;
    steady_error_t err = {0};
    steady_solve_options_t opts = {.exact = true, .formulation = f};
    steady_err_t rc = steady_lp_solve(p, &prob, &opts, &s, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected solve error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return s;
}

steady_trees_t *trees_ok(const steady_solution_t *s)
{
    steady_trees_t *t = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_trees_decompose(s, &t, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected decomposition error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return t;
}

char *write_string(const steady_platform_t *p, steady_format_t format,
                   const steady_write_options_t *opts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_write(p, f, format, opts, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected write error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    fclose(f);
    return buf;
}

static int same_double(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

int platforms_equal(const steady_platform_t *a, const steady_platform_t *b, char why[256])
{
    if (strcmp(steady_platform_name(a), steady_platform_name(b)) != 0) {
        snprintf(why, 256, "name %s vs %s", steady_platform_name(a), steady_platform_name(b));
        return 0;
    }
    double wa, wb;
    if (steady_platform_flow_sharing(a, &wa) != steady_platform_flow_sharing(b, &wb) ||
        !same_double(wa, wb)) {
        snprintf(why, 256, "flows %d weight-S %.17g vs %d weight-S %.17g",
                 (int)steady_platform_flow_sharing(a, NULL), wa,
                 (int)steady_platform_flow_sharing(b, NULL), wb);
        return 0;
    }
    if (!same_double(steady_platform_crosstraffic(a), steady_platform_crosstraffic(b))) {
        snprintf(why, 256, "crosstraffic %.17g vs %.17g", steady_platform_crosstraffic(a),
                 steady_platform_crosstraffic(b));
        return 0;
    }
    double ca[2], cb[2];
    bool cal_a = steady_platform_calibrated(a, &ca[0], &ca[1]),
         cal_b = steady_platform_calibrated(b, &cb[0], &cb[1]);
    if (cal_a != cal_b || !same_double(ca[0], cb[0]) || !same_double(ca[1], cb[1])) {
        snprintf(why, 256, "calibrated over %.17g-%.17g vs %.17g-%.17g bytes", ca[0], ca[1], cb[0],
                 cb[1]);
        return 0;
    }
    if (steady_platform_node_count(a) != steady_platform_node_count(b) ||
        steady_platform_edge_count(a) != steady_platform_edge_count(b)) {
        snprintf(why, 256, "%d nodes %d edges vs %d nodes %d edges", steady_platform_node_count(a),
                 steady_platform_edge_count(a), steady_platform_node_count(b),
                 steady_platform_edge_count(b));
        return 0;
    }
    for (int v = 0; v < steady_platform_node_count(a); v++) {
        const steady_node_t *x = steady_platform_node(a, v), *y = steady_platform_node(b, v);
        if (strcmp(x->name, y->name) != 0 || x->kind != y->kind ||
            !same_double(x->speed, y->speed)) {
            snprintf(why, 256, "node %d: %s kind %d speed %.17g vs %s kind %d speed %.17g", v,
                     x->name, x->kind, x->speed, y->name, y->kind, y->speed);
            return 0;
        }
    }
    if (steady_platform_channel_count(a) != steady_platform_channel_count(b)) {
        snprintf(why, 256, "%d channels vs %d", steady_platform_channel_count(a),
                 steady_platform_channel_count(b));
        return 0;
    }
    for (int c = 0; c < steady_platform_channel_count(a); c++) {
        const steady_channel_t *x = steady_platform_channel(a, c),
                               *y = steady_platform_channel(b, c);
        if (strcmp(x->name, y->name) != 0 || x->sharing != y->sharing ||
            !same_double(x->bandwidth, y->bandwidth) || !same_double(x->latency, y->latency) ||
            !same_double(x->cost, y->cost)) {
            snprintf(why, 256,
                     "channel %d: %s bw %.17g lat %.17g cost %.17g vs %s bw %.17g "
                     "lat %.17g cost %.17g",
                     c, x->name, x->bandwidth, x->latency, x->cost, y->name, y->bandwidth,
                     y->latency, y->cost);
            return 0;
        }
    }
    for (int k = 0; k < steady_platform_edge_count(a); k++) {
        const steady_edge_t *x = steady_platform_edge(a, k), *y = steady_platform_edge(b, k);
        bool same_cross = x->ncross == y->ncross;
        for (int j = 0; j < x->ncross && same_cross; j++)
            same_cross =
                x->cross[j].channel == y->cross[j].channel && x->cross[j].down == y->cross[j].down;
        if (!same_cross) {
            snprintf(why, 256, "edge %d: crosses %d channels vs %d, or others", k, x->ncross,
                     y->ncross);
            return 0;
        }
        if (x->src != y->src || x->dst != y->dst || !same_double(x->bandwidth, y->bandwidth) ||
            !same_double(x->latency, y->latency) || !same_double(x->overhead, y->overhead) ||
            !same_double(x->cost, y->cost)) {
            snprintf(why, 256,
                     "edge %d: %d->%d bw %.17g lat %.17g ovh %.17g cost %.17g vs "
                     "%d->%d bw %.17g lat %.17g ovh %.17g cost %.17g",
                     k, x->src, x->dst, x->bandwidth, x->latency, x->overhead, x->cost, y->src,
                     y->dst, y->bandwidth, y->latency, y->overhead, y->cost);
            return 0;
        }
        if (!same_double(x->recv_factor, y->recv_factor) || !same_double(x->penalty, y->penalty)) {
            snprintf(why, 256, "edge %d: recv-factor %.17g penalty %.17g vs %.17g %.17g", k,
                     x->recv_factor, x->penalty, y->recv_factor, y->penalty);
            return 0;
        }
    }
    return 1;
}

steady_replay_t replay_ok(const steady_schedule_t *sc, const steady_platform_t *p, long ops)
{
    steady_replay_t r;
    steady_error_t err = {0};
    steady_err_t rc = steady_schedule_replay(sc, p, ops, &r, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected replay error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return r;
}
