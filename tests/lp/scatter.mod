/* scatter.mod -- Series of scatters (SSSP), as a GNU MathProg model.

   Independent cross-check of steady's C implementation; solved by glpsol
   through tests/lp/glpsol-tp, which writes the data section.

   Implements docs/linear-programs.md, "Series of scatters -- SSSP"
   (Legrand, Marchal, Robert, RR-4872, section 3.1):
     - one-port constraints, paper eqs. (2) and (3), with the busy fraction
       s(e) = sum_k send(e,k) * c(e) substituted (eq. 4); eq. (1) is implied
       and not written;
     - conservation, paper eq. (5), at every node except the source s and
       the message's own target k (docs: "Conservation therefore excludes the
       source");
     - throughput at each target, paper eq. (6): in_send(k,k) = TP;
     - send(e,k) = 0 for e in out(k) and for e in in(s) (docs' last line). */

set V;                              # all nodes (processors, routers, switches)
set P within V;                     # processors
set H within V;                     # nodes with one-port ports (processors and routers)
set E within V cross V;             # directed edges (from, to)
param c{E} > 0;                     # port occupation of one message on e
set R;                              # shared resources (docs: "The network model")
param u{E, R} >= 0, default 0;      # time one message on e holds resource r
param port_scale > 0, default 1;    # power of two, see below
param w{P} > 0;                     # task duration (unused by scatters)

param source symbolic in P;         # s
set T within P;                     # targets, one message type m_k each
check: source not in T;

/* port_scale (and, in reduce.mod, compute_scale) is a power of two that
   multiplies both sides of the one-port (compute) rows; glpsol-tp chooses it
   so that every coefficient c(e) * port_scale is an integer.  Reason:
   glpsol --exact (glp_exact) replaces every non-integral double of the
   problem by a nearby simple fraction (relative error up to 1e-9) before
   solving, but takes integral doubles exactly.  Multiplying by a power of two
   is exact in floating point and does not change the LP.  Default 1: the
   plain formulation. */

var TP >= 0;                        # scatters completed per time unit
var send{E, T} >= 0;                # messages m_k crossing e per time unit

maximize throughput: TP;

/* (2): one emission at a time */
s.t. one_port_out{i in H}:
    sum{(a,b) in E: a = i} sum{k in T} send[a,b,k] * c[a,b] * port_scale <= port_scale;

/* (3): one reception at a time */
s.t. one_port_in{i in H}:
    sum{(a,b) in E: b = i} sum{k in T} send[a,b,k] * c[a,b] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{(a,b) in E: u[a,b,q] > 0} sum{k in T} send[a,b,k] * u[a,b,q] * port_scale <= port_scale;

/* (5): what enters a node that neither creates nor consumes m_k leaves it */
s.t. conservation{k in T, i in V diff {source, k}}:
    sum{(a,b) in E: b = i} send[a,b,k] = sum{(a,b) in E: a = i} send[a,b,k];

/* (6): every target receives TP messages of its type per time unit */
s.t. throughput_at_target{k in T}:
    sum{(a,b) in E: b = k} send[a,b,k] = TP;

/* flows that leave their destination or return to the source */
s.t. no_flow_out_of_target{(a,b) in E, k in T: a = k}: send[a,b,k] = 0;
s.t. no_flow_into_source{(a,b) in E, k in T: b = source}: send[a,b,k] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
