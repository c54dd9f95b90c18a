/*
 * sg_routes.c — SimGrid's own routes between every two hosts of a
 * platform file, one line each: "SRC DST LINK LINK ... @LATENCY", links
 * in order (a SPLITDUPLEX link's halves as SimGrid names them, LINK_UP and
 * LINK_DOWN), then the route's latency in seconds, to 6 digits (a Vivaldi
 * zone's distances are in no link).  The reference tests/sg/routes.sh
 * compares steady's reading of the same file with: built against SimGrid
 * (libsimgrid-dev), it asks
 * SimGrid itself rather than anyone's idea of its rules.
 *   sg_routes PLATFORM.xml
 */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sg_routes PLATFORM.xml\n");
        return 2;
    }
    xbt_log_control_set("root.thres:critical");
    simgrid_init(&argc, argv);
    simgrid_load_platform(argv[1]);
    simgrid_run(); /* no actor: it only seals the platform, as a real run would */
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (i == j)
                continue;
            xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
            sg_host_get_route(hosts[i], hosts[j], links);
            /* no link: SimGrid has no route (a communication would fail) */
            if (xbt_dynar_is_empty(links)) {
                xbt_dynar_free(&links);
                continue;
            }
            printf("%s %s", sg_host_get_name(hosts[i]), sg_host_get_name(hosts[j]));
            unsigned k;
            sg_link_t l;
            xbt_dynar_foreach (links, k, l)
                printf(" %s", sg_link_get_name(l));
            printf(" @%.6g\n", sg_host_get_route_latency(hosts[i], hosts[j]));
            xbt_dynar_free(&links);
        }
    free(hosts);
    return 0;
}
