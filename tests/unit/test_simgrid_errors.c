/*
 * test_simgrid_errors.c — the SimGrid platform reader's refusals: every
 * input error of a document, a host, a link, a route (bypass routes
 * included) and a Vivaldi zone gets its exact one-line message, its line
 * and its error code.
 */
#include "sg_text.h"
#include "tests.h"

static void test_document_errors(void)
{
    static const parse_case_t cases[] = {
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n", STEADY_EPARSE,
         "test:5:1: malformed XML (Premature end of data in tag zone line 3)"},
        {"<?xml version='1.0'?>\n<platform>\n</platform>\n", STEADY_EPARSE,
         "test:2: missing attribute version in <platform>: expected version=\"4.1\""},
        {"<?xml version='1.0'?>\n<platform version=\"3\">\n</platform>\n", STEADY_EUNSUPPORTED,
         "test:2: SimGrid platform version too old (3): upgrade the file with "
         "simgrid_update_xml"},
        {"<?xml version='1.0'?>\n<platform version=\"5.0\">\n</platform>\n", STEADY_EUNSUPPORTED,
         "test:2: unsupported SimGrid platform version (5.0): steady reads version 4.x"},
        {"<?xml version='1.0'?>\n<platform version=\"four\">\n</platform>\n", STEADY_EPARSE,
         "test:2: bad platform version (four): expected 4.1"},
        {"<?xml version='1.0'?>\n<platform version=\"4.1\" id=\"x\">\n</platform>\n", STEADY_EPARSE,
         "test:2: unknown attribute in <platform> (id): expected version"},
        {HEAD TAIL, STEADY_EINVAL, "test:2: empty platform: no <zone> in <platform>"},
        {HEAD "<zone id=\"nothing\" routing=\"Full\">\n</zone>\n" TAIL, STEADY_EINVAL,
         "test:3: no <host> in the platform (nothing): steady's ranks run on hosts"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<router id=\"r\"/>\n</zone>\n" TAIL, STEADY_EINVAL,
         "test:3: no <host> in the platform (z): steady's ranks run on hosts"},
        {HEAD
         "<zone id=\"z\" routing=\"Full\">\n<host id=\"r\" speed=\"1f\"><prop id=\"steady_kind\" "
         "value=\"router\"/></host>\n</zone>\n" TAIL,
         STEADY_EINVAL, "test:1: platform has no processor (1 routers only)"},
        {HEAD "<zone id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>\n"
              "<zone id=\"z2\" routing=\"Full\"/>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: more than one top-level zone (z2): SimGrid wants one zone around all the "
         "others"},
        {HEAD "<zone id=\"z\" routing=\"ClusterFatTree\">\n</zone>\n" TAIL, STEADY_EUNSUPPORTED,
         "test:3: unsupported routing in <zone> (ClusterFatTree): SimGrid 3.32 refuses it too "
         "(\"Not a valid model\"); a <cluster> of topology TORUS, FAT_TREE or DRAGONFLY makes "
         "that zone"},
        {HEAD "<AS id=\"z\" routing=\"Wifi\">\n</AS>\n" TAIL, STEADY_EUNSUPPORTED,
         "test:3: unsupported routing in <AS> (Wifi): a WIFI link's rate depends on each "
         "station's signal and on how many share it, which steady does not model"},
        {HEAD "<zone id=\"z\" routing=\"full\">\n</zone>\n" TAIL, STEADY_EPARSE,
         "test:3: unknown routing in <zone> (full): SimGrid's routing names are case-sensitive: "
         "Full"},
        {HEAD "<zone id=\"z\" routing=\"Rand\">\n</zone>\n" TAIL, STEADY_EPARSE,
         "test:3: unknown routing in <zone> (Rand): steady reads Full, Floyd, Dijkstra, "
         "DijkstraCache, Cluster, Vivaldi and None zones"},
        {HEAD "<zone id=\"z\">\n</zone>\n" TAIL, STEADY_EPARSE,
         "test:3: missing attribute routing in <zone> (z)"},
        {HEAD "<zone id=\"world\" routing=\"Full\">\n<zone id=\"site\" routing=\"Full\"/>\n"
              "</zone>\n" TAIL,
         STEADY_EINVAL, "test:3: no <host> in the platform (world): steady's ranks run on hosts"},
        {HEAD "<cluster id=\"c\"/>\n" TAIL, STEADY_EPARSE,
         "test:3: missing attribute prefix in <cluster> (c)"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\"/>\n</zone>\n"
              "<actor host=\"a\" function=\"main\"/>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:6: unsupported element (<actor>): deployment belongs in a separate file, not in "
         "the platform"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\">"
              "<disk id=\"d\" read_bw=\"1\" write_bw=\"1\"/></host>\n</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: unsupported element (<disk>): steady does not model storage"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\"/>\n"
              "<hots id=\"b\" speed=\"1f\"/>\n</zone>\n" TAIL,
         STEADY_EPARSE,
         "test:5: unknown element (<hots>) in <zone>: not a SimGrid platform element"},
        {HEAD "<host id=\"a\" speed=\"1f\"/>\n" TAIL, STEADY_EPARSE,
         "test:3: unexpected element (<host>) in <platform>"},
        {"<?xml version='1.0'?>\n<graphml/>\n", STEADY_EPARSE,
         "test:2: not a SimGrid platform (<graphml>): expected a <platform> root element"},
    };
    /* the last case is forced to SimGrid; AUTO would pick GraphML */
    check_parse_cases(cases, sizeof cases / sizeof *cases - 1);
    const parse_case_t *last = &cases[sizeof cases / sizeof *cases - 1];
    CU_ASSERT_STRING_EQUAL(parse_err(last->text, STEADY_FORMAT_SIMGRID, last->code), last->msg);
}

static void test_host_errors(void)
{
    static const parse_case_t cases[] = {
        {ABC("<host id=\"d\"/>\n"), STEADY_EPARSE, "test:7: missing attribute speed in <host> (d)"},
        {ABC("<host speed=\"1f\"/>\n"), STEADY_EPARSE, "test:7: missing attribute id in <host>"},
        {ABC("<host id=\"d\" speed=\"NaNf\"/>\n"), STEADY_EINVAL,
         "test:7: speed is not a finite number (NaNf)"},
        {ABC("<host id=\"d\" speed=\"0f\"/>\n"), STEADY_EINVAL, "test:7: non-positive speed (0f)"},
        {ABC("<host id=\"d\" speed=\"100Mf,0f\" pstate=\"1\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive speed (0f)"},
        {ABC("<host id=\"d\" speed=\"100Mf,-1f\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive speed (-1f)"},
        {ABC("<host id=\"d\" speed=\"-1Gf\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive speed (-1Gf)"},
        {ABC("<host id=\"d\" speed=\"1GHz\"/>\n"), STEADY_EPARSE,
         "test:7: unknown speed unit (1GHz): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,50Mx\"/>\n"), STEADY_EPARSE,
         "test:7: unknown speed unit (50Mx): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,\"/>\n"), STEADY_EPARSE,
         "test:7: not a number (): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,50Mf\" pstate=\"2\"/>\n"), STEADY_EINVAL,
         "test:7: pstate out of range in <host> (2): the speed list has 2 values"},
        {ABC("<host id=\"d\" speed=\"100Mf\" pstate=\"one\"/>\n"), STEADY_EPARSE,
         "test:7: bad pstate in <host> (one): expected an index into the speed list"},
        {ABC("<host id=\"d\" speed=\"1f\" speed_file=\"d.trace\"/>\n"), STEADY_EUNSUPPORTED,
         "test:7: unsupported attribute speed_file in <host> (d.trace): steady models constant "
         "bandwidths, latencies and speeds"},
        {ABC("<host id=\"d\" sped=\"1f\"/>\n"), STEADY_EPARSE,
         "test:7: unknown attribute in <host> (sped): expected id, speed, core, speed_file, "
         "availability_file, state_file, coordinates, pstate"},
        {ABC("<host id=\"a\" speed=\"1f\"/>\n"), STEADY_EINVAL,
         "test:7: duplicate host, router or zone (a)"},
        {ABC("<host id=\" a\" speed=\"1f\"/>\n"), STEADY_EINVAL,
         "test:7: invalid node name ( a): use 1 to 255 characters from A-Z a-z 0-9 _ . : @ + "
         "/ - and blanks within"},
        {ABC("<host id=\"d\" speed=\"1f\"><prop id=\"steady_kind\" value=\"switch\"/></host>\n"),
         STEADY_EINVAL, "test:7: unknown steady_kind (switch): expected router or processor"},
        {ABC("<host id=\"d\" speed=\"1f\"><prop id=\"steady_kind\"/></host>\n"), STEADY_EPARSE,
         "test:7: missing attribute value in <prop> (steady_kind)"},
        {ABC("<router id=\"r\"><prop id=\"x\" value=\"y\"/></router>\n"), STEADY_EPARSE,
         "test:7: unexpected element (<prop>) in <router>"},
    };
    check_parse_cases(cases, sizeof cases / sizeof *cases);
}

static void test_link_errors(void)
{
    static const parse_case_t cases[] = {
        {ABC("<link id=\"l\" latency=\"1ms\"/>\n"), STEADY_EPARSE,
         "test:7: missing attribute bandwidth in <link> (l)"},
        {ABC("<link bandwidth=\"1GBps\"/>\n"), STEADY_EPARSE,
         "test:7: missing attribute id in <link>"},
        {ABC("<link id=\"l\" bandwidth=\"12Mxx\"/>\n"), STEADY_EPARSE,
         "test:7: unknown bandwidth unit (12Mxx): use Bps, kBps, MBps, GBps, KiBps, MiBps, "
         "GiBps, bps, kbps, Mbps, Gbps, or no unit for bytes/s"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latency=\"1 ms\"/>\n"), STEADY_EPARSE,
         "test:7: unknown time unit (1 ms): use s, ms, us, ns, ps, m, h, d, w, or no unit for "
         "seconds"},
        {ABC("<link id=\"l\" bandwidth=\"0Bps\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive bandwidth (0Bps)"},
        {ABC("<link id=\"l\" bandwidth=\"infBps\"/>\n"), STEADY_EINVAL,
         "test:7: bandwidth is not a finite number (infBps)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latency=\"-1ms\"/>\n"), STEADY_EINVAL,
         "test:7: negative latency (-1ms)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latncy=\"10ms\"/>\n"), STEADY_EPARSE,
         "test:7: unknown attribute in <link> (latncy): expected id, bandwidth, latency, "
         "sharing_policy, bandwidth_file, latency_file, state_file"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLIT\"/>\n"), STEADY_EPARSE,
         "test:7: unknown sharing_policy in <link> (SPLIT): expected SHARED, SPLITDUPLEX or "
         "FATPIPE"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"WIFI\"/>\n"), STEADY_EUNSUPPORTED,
         "test:7: unsupported sharing_policy in <link> (WIFI): wifi links need a Wifi zone, "
         "which steady does not read"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" bandwidth_file=\"bw.trace\"/>\n"),
         STEADY_EUNSUPPORTED,
         "test:7: unsupported attribute bandwidth_file in <link> (bw.trace): steady models "
         "constant bandwidths, latencies and speeds"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"/>\n<link id=\"l\" bandwidth=\"2GBps\"/>\n"),
         STEADY_EINVAL, "test:8: duplicate link (l)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"0\"/></link>\n"),
         STEADY_EINVAL, "test:7: non-positive cost (0)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"2s\"/>"
             "</link>\n"),
         STEADY_EPARSE, "test:7: not a number (2s): this field is a plain number"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_overhead\" value=\"-1us\"/>"
             "</link>\n"),
         STEADY_EINVAL, "test:7: negative overhead (-1us)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_recv_factor\" value=\"2\"/>"
             "</link>\n"),
         STEADY_EINVAL, "test:7: recv-factor out of range (2): from 0.01 to 1"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"1\"/>"
             "<prop id=\"steady_cost\" value=\"2\"/></link>\n"),
         STEADY_EINVAL, "test:7: duplicate <prop> (steady_cost)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><link_ctn id=\"l\"/></link>\n"), STEADY_EPARSE,
         "test:7: unexpected element (<link_ctn>) in <link>"},
    };
    check_parse_cases(cases, sizeof cases / sizeof *cases);
}

#define LINKS                                                                                      \
    "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"                                       \
    "<link id=\"d\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n"

/* A Vivaldi zone of peer a (line 4) and the given line 5. */
#define VIV(body)                                                                                  \
    HEAD "<zone id=\"v\" routing=\"Vivaldi\">\n"                                                   \
         "<peer id=\"a\" coordinates=\"0 0 0\" speed=\"1Gf\" bw_in=\"1MBps\" "                     \
         "bw_out=\"1MBps\"/>\n" body "</zone>\n" TAIL

static void test_vivaldi_errors(void)
{
    static const parse_case_t cases[] = {
        {VIV("<peer id=\"b\" speed=\"1Gf\" bw_in=\"1MBps\" bw_out=\"1MBps\"/>\n"), STEADY_EINVAL,
         "test:5: missing attribute coordinates in <peer>: a vertex of Vivaldi zone v needs its "
         "coordinates (\"x y height\", ms)"},
        {VIV("<peer id=\"b\" coordinates=\"1 2\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EPARSE,
         "test:5: bad coordinates in <peer> (1 2): expected three numbers separated by single "
         "spaces (x y height, ms)"},
        {VIV("<peer id=\"b\" coordinates=\"1  2 3\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EPARSE,
         "test:5: bad coordinates in <peer> (1  2 3): expected three numbers separated by single "
         "spaces (x y height, ms)"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 3ms\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EPARSE,
         "test:5: bad coordinates in <peer> (1 2 3ms): expected three numbers separated by "
         "single spaces (x y height, ms)"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 1e9\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EINVAL, "test:5: coordinate out of range in <peer> (1 2 1e9): from -1e8 to 1e8 ms"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_out=\"1MBps\"/>\n"),
         STEADY_EPARSE, "test:5: missing attribute bw_in in <peer> (b)"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"0Bps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EINVAL, "test:5: non-positive bandwidth (0Bps)"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\" lat=\"soon\"/>\n"),
         STEADY_EPARSE,
         "test:5: not a number (soon): use s, ms, us, ns, ps, m, h, d, w, or no unit for "
         "seconds"},
        {VIV("<peer id=\"b\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\" state_file=\"b.trace\"/>\n"),
         STEADY_EUNSUPPORTED,
         "test:5: unsupported attribute state_file in <peer> (b.trace): steady models constant "
         "bandwidths, latencies and speeds"},
        {VIV("<peer id=\"a\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EINVAL, "test:5: duplicate host, router or zone (a)"},
        {VIV("<host id=\"h\" coordinates=\"1 2 3\" speed=\"1Gf\"/>\n"), STEADY_EUNSUPPORTED,
         "test:5: host h of zone v has no link (in a Vivaldi zone only a <peer> has links; "
         "SimGrid's messages from and to a <host> cross none, at an unbounded bandwidth): "
         "declare it as a <peer> with bw_in and bw_out"},
        {VIV("<host id=\"h\" speed=\"1Gf\"/>\n"), STEADY_EINVAL,
         "test:5: missing attribute coordinates in <host>: a vertex of Vivaldi zone v needs its "
         "coordinates (\"x y height\", ms)"},
        {VIV("<router id=\"r\"/>\n"), STEADY_EINVAL,
         "test:5: missing attribute coordinates in <router>: a vertex of Vivaldi zone v needs "
         "its coordinates (\"x y height\", ms)"},
        {VIV("<route src=\"a\" dst=\"a\"><link_ctn id=\"link_a_UP\"/></route>\n"), STEADY_EINVAL,
         "test:5: unexpected element (<route>) in Vivaldi zone v: its routes are its peers' "
         "links and the distances between its vertices' coordinates"},
        {VIV("<zone id=\"w\" routing=\"Full\"><host id=\"h\" speed=\"1f\"/></zone>\n"),
         STEADY_EPARSE,
         "test:5: unexpected element (<zone>) in <zone> v: a zone holds either zones (and zone "
         "routes) or hosts and routers (and routes)"},

        {ABC("<peer id=\"p\" coordinates=\"1 2 3\" speed=\"1Gf\" bw_in=\"1MBps\" "
             "bw_out=\"1MBps\"/>\n"),
         STEADY_EINVAL,
         "test:7: <peer> in zone z, whose routing is not Vivaldi (SimGrid takes peers only in "
         "Vivaldi zones)"},
    };
    check_parse_cases(cases, sizeof cases / sizeof *cases);
}

static void test_route_errors(void)
{
    static const parse_case_t cases[] = {
        {ABC(LINKS "<bypassRoute src=\"a\" dst=\"b\"/>\n"), STEADY_EINVAL,
         "test:9: bypass route with no <link_ctn> (a -> b)"},
        {ABC(LINKS "<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></bypassRoute>\n"
                   "<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></bypassRoute>\n"),
         STEADY_EINVAL, "test:10: a second bypass route from a to b"},
        {ABC(LINKS "<bypassRoute src=\"a\" dst=\"b\" gw_src=\"a\"><link_ctn id=\"l\"/>"
                   "</bypassRoute>\n"),
         STEADY_EPARSE, "test:9: unknown attribute in <bypassRoute> (gw_src): expected src, dst"},
        {HEAD "<zone id=\"w\" routing=\"Full\">\n"
              "<zone id=\"A\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>\n"
              "<zone id=\"B\" routing=\"Full\"><host id=\"b\" speed=\"1f\"/></zone>\n"
              "<link id=\"l\" bandwidth=\"1MBps\"/>\n"
              "<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></bypassRoute>\n"
              "</zone>\n" TAIL,
         STEADY_EPARSE,
         "test:7: unexpected element (<bypassRoute>) in <zone> w: a zone holds either zones (and "
         "zone routes) or hosts and routers (and routes)"},
        {HEAD "<zone id=\"w\" routing=\"Full\">\n"
              "<zone id=\"A\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>\n"
              "<zone id=\"B\" routing=\"Full\"><host id=\"b\" speed=\"1f\"/></zone>\n"
              "<link id=\"l\" bandwidth=\"1MBps\"/>\n"
              "<bypassZoneRoute src=\"A\" dst=\"B\" gw_src=\"a\" gw_dst=\"b\">"
              "<link_ctn id=\"l\"/></bypassZoneRoute>\n"
              "</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:7: host a as a gateway of <bypassZoneRoute>: SimGrid routes a message from that "
         "host to itself first (its loopback), which steady does not model; name a router"},
        {ABC(LINKS "<route src=\"a\" dst=\"x\"><link_ctn id=\"l\"/></route>\n"), STEADY_EINVAL,
         "test:9: unknown host or router in <route> dst (x): declare it with <host> or <router> "
         "before the route"},
        {ABC(LINKS "<route dst=\"a\"><link_ctn id=\"l\"/></route>\n"), STEADY_EPARSE,
         "test:9: missing attribute src in <route>"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/><link_ctn id=\"m\"/>"
                   "</route>\n"),
         STEADY_EINVAL, "test:9: unknown link in <route> (m)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn/></route>\n"), STEADY_EPARSE,
         "test:9: missing attribute id in <link_ctn>"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\">\n</route>\n"), STEADY_EINVAL,
         "test:9: route with no <link_ctn> (a -> b)"},
        {ABC(LINKS "<route src=\"a\" dst=\"a\"/>\n"), STEADY_EINVAL,
         "test:9: route with no <link_ctn> (a -> a)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\" symmetrical=\"MAYBE\"><link_ctn id=\"l\"/>"
                   "</route>\n"),
         STEADY_EPARSE, "test:9: bad symmetrical in <route> (MAYBE): expected YES or NO"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate route from a to b: already declared at line 9 (routes are "
         "symmetrical unless they say symmetrical=\"NO\")"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate route from b to a: already declared at line 9 (routes are "
         "symmetrical unless they say symmetrical=\"NO\")"},
        {ABC(LINKS "<route src=\"b\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate route from b to a: already declared at line 9 (routes are "
         "symmetrical unless they say symmetrical=\"NO\")"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"d\"/></route>\n"), STEADY_EINVAL,
         "test:9: missing direction in <link_ctn> to the SPLITDUPLEX link (d): use "
         "direction=\"UP\" or \"DOWN\""},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n"),
         STEADY_EINVAL, "test:9: direction UP in <link_ctn> to a link that is not SPLITDUPLEX (l)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"d\" direction=\"up\"/></route>\n"),
         STEADY_EPARSE, "test:9: unknown direction in <link_ctn> (up): expected UP, DOWN or NONE"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><prop id=\"x\" value=\"y\"/></route>\n"),
         STEADY_EPARSE, "test:9: unexpected element (<prop>) in <route>"},
        {ABC("<link id=\"c\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" "
             "value=\"1\"/></link>\n" LINKS
             "<route src=\"a\" dst=\"b\"><link_ctn id=\"c\"/></route>\n"
             "<route src=\"a\" dst=\"c\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:8: channel l uses a bandwidth but the platform's first edge uses a cost: a "
         "platform uses abstract costs or bandwidths, not both"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/><link_ctn id=\"l\"/>"
                   "</route>\n"),
         STEADY_EUNSUPPORTED,
         "test:9: SimGrid's route from a to b crosses link l twice, and steady's edges cross a "
         "link once"},
        {ABC("<link id=\"o\" bandwidth=\"1GBps\"><prop id=\"steady_overhead\" value=\"1us\"/>"
             "</link>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"o\"/></route>\n"),
         STEADY_EINVAL,
         "test:7: steady_overhead on link o, which steady reads as a channel: an overhead is a "
         "message's, given on the edges of steady's own exports (steady_routes=edges)"},
        {ABC("<link id=\"o\" bandwidth=\"1GBps\"><prop id=\"steady_recv_factor\" "
             "value=\"0.5\"/></link>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"o\"/></route>\n"),
         STEADY_EINVAL,
         "test:7: steady_recv_factor on link o, which steady reads as a channel: a recv-factor is "
         "an edge's, given on the edges of steady's own exports (steady_routes=edges)"},
        {ABC("<link id=\"b1\" bandwidth=\"1GBps\"/>\n<link id=\"c1\" bandwidth=\"1GBps\">"
             "<prop id=\"steady_cost\" value=\"3\"/></link>\n"
             "<route src=\"a\" dst=\"b\"><link_ctn id=\"b1\"/><link_ctn id=\"c1\"/></route>\n"),
         STEADY_EINVAL,
         "test:8: channel c1 uses a cost but the platform's first channel uses a bandwidth: a "
         "platform uses abstract costs or bandwidths, not both"},
    };
    check_parse_cases(cases, sizeof cases / sizeof *cases);
}

void suite_simgrid_errors(void)
{
    static const CU_TestInfo tests[] = {
        {"document errors", test_document_errors},
        {"host errors", test_host_errors},
        {"link errors", test_link_errors},
        {"route errors", test_route_errors},
        {"Vivaldi errors", test_vivaldi_errors},
        CU_TEST_INFO_NULL,
    };
    add_suite("simgrid errors", tests);
}
