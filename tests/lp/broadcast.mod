/* broadcast.mod -- Series of broadcasts (SSB), as a GNU MathProg model.

   Independent cross-check of steady's C implementation; solved by glpsol
   through tests/lp/glpsol-tp, which writes the data section.

   Implements docs/linear-programs.md, "Series of broadcasts -- SSB"
   (Beaumont, Legrand, Marchal, Robert's pipelined broadcast LP):
     - one-port constraints, paper (RR-4872) eqs. (2) and (3), with
       s(e) = n(e) * c(e): a message crosses e once, whatever the number of
       targets behind e;
     - x(e,k) <= n(e) for every target k: the per-target flows share n(e);
     - conservation of the flow x(.,k) at every node except s and k;
     - in_x(k,k) = TP for every target k;
     - x(e,k) = 0 for e in in(s) and for e in out(k).
   With every rank other than s as a target and no switch this is the
   exact optimum; otherwise it is an upper bound (see the docs). */

set V;                              # all nodes (processors, routers, switches)
set P within V;                     # processors
set H within V;                     # nodes with one-port ports (processors and routers)
set E within V cross V;             # directed edges (from, to)
param c{E} > 0;                     # port occupation of one message on e
set R;                              # shared resources (docs: "The network model")
param u{E, R} >= 0, default 0;      # time one message on e holds resource r
param port_scale > 0, default 1;    # power of two, see below
param w{P} > 0;                     # task duration (unused by broadcasts)

param source symbolic in V;         # s
set T within H;                     # targets (processors or routers)
check: source not in T;

/* port_scale (and, in reduce.mod, compute_scale) is a power of two that
   multiplies both sides of the one-port (compute) rows; glpsol-tp chooses it
   so that every coefficient c(e) * port_scale is an integer.  Reason:
   glpsol --exact (glp_exact) replaces every non-integral double of the
   problem by a nearby simple fraction (relative error up to 1e-9) before
   solving, but takes integral doubles exactly.  Multiplying by a power of two
   is exact in floating point and does not change the LP.  Default 1: the
   plain formulation. */

var TP >= 0;                        # broadcasts completed per time unit
var n{E} >= 0;                      # messages crossing e per time unit
var x{E, T} >= 0;                   # flow towards target k on e

maximize throughput: TP;

/* (2): one emission at a time */
s.t. one_port_out{i in H}:
    sum{(a,b) in E: a = i} n[a,b] * c[a,b] * port_scale <= port_scale;

/* (3): one reception at a time */
s.t. one_port_in{i in H}:
    sum{(a,b) in E: b = i} n[a,b] * c[a,b] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{(a,b) in E: u[a,b,q] > 0} n[a,b] * u[a,b,q] * port_scale <= port_scale;

/* a switch copies no message: as many leave it as enter it */
s.t. switch_conservation{i in V diff H}:
    sum{(a,b) in E: b = i} n[a,b] = sum{(a,b) in E: a = i} n[a,b];

/* a message sent on e serves every target behind e */
s.t. shared_edge{(a,b) in E, k in T}: x[a,b,k] <= n[a,b];

/* conservation of the flow towards k away from s and k */
s.t. conservation{k in T, i in V diff {source, k}}:
    sum{(a,b) in E: b = i} x[a,b,k] = sum{(a,b) in E: a = i} x[a,b,k];

/* every target receives TP messages per time unit */
s.t. throughput_at_target{k in T}:
    sum{(a,b) in E: b = k} x[a,b,k] = TP;

/* flows that return to the source or leave their target */
s.t. no_flow_into_source{(a,b) in E, k in T: b = source}: x[a,b,k] = 0;
s.t. no_flow_out_of_target{(a,b) in E, k in T: a = k}: x[a,b,k] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
