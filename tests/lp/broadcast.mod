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
   With every rank other than s as a target this is the
   exact optimum; otherwise it is an upper bound (see the docs). */

set V;                              # the ranks (processors and routers)
set P within V;                     # processors
set H within V;                     # nodes with one-port ports: every rank
set A;                              # hops: each edge between two ranks, each path
                                    # from a rank through switches to another
param tail{A} symbolic in V;        # where hop a leaves from
param head{A} symbolic in V;        # where it arrives
param c{A} > 0;                     # the hop's time: both ports are held that long
set R;                              # shared resources (docs: "The network model")
param u{A, R} >= 0, default 0;      # time one message on a holds resource r
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
var n{A} >= 0;                      # messages on hop a per time unit
var x{A, T} >= 0;                   # flow towards target k on a

maximize throughput: TP;

/* (2): one emission at a time */
s.t. one_port_out{i in H}:
    sum{a in A: tail[a] = i} n[a] * c[a] * port_scale <= port_scale;

/* (3): one reception at a time */
s.t. one_port_in{i in H}:
    sum{a in A: head[a] = i} n[a] * c[a] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{a in A: u[a,q] > 0} n[a] * u[a,q] * port_scale <= port_scale;

/* a message sent on a serves every target behind a */
s.t. shared_edge{a in A, k in T}: x[a,k] <= n[a];

/* conservation of the flow towards k away from s and k */
s.t. conservation{k in T, i in V diff {source, k}}:
    sum{a in A: head[a] = i} x[a,k] = sum{a in A: tail[a] = i} x[a,k];

/* every target receives TP messages per time unit */
s.t. throughput_at_target{k in T}:
    sum{a in A: head[a] = k} x[a,k] = TP;

/* flows that return to the source or leave their target */
s.t. no_flow_into_source{a in A, k in T: head[a] = source}: x[a,k] = 0;
s.t. no_flow_out_of_target{a in A, k in T: tail[a] = k}: x[a,k] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
