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
var send{A, T} >= 0;                # messages m_k on hop a per time unit

maximize throughput: TP;

/* (2): one emission at a time */
s.t. one_port_out{i in H}:
    sum{a in A: tail[a] = i} sum{k in T} send[a,k] * c[a] * port_scale <= port_scale;

/* (3): one reception at a time */
s.t. one_port_in{i in H}:
    sum{a in A: head[a] = i} sum{k in T} send[a,k] * c[a] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{a in A: u[a,q] > 0} sum{k in T} send[a,k] * u[a,q] * port_scale <= port_scale;

/* (5): what enters a node that neither creates nor consumes m_k leaves it */
s.t. conservation{k in T, i in V diff {source, k}}:
    sum{a in A: head[a] = i} send[a,k] = sum{a in A: tail[a] = i} send[a,k];

/* (6): every target receives TP messages of its type per time unit */
s.t. throughput_at_target{k in T}:
    sum{a in A: head[a] = k} send[a,k] = TP;

/* flows that leave their destination or return to the source */
s.t. no_flow_out_of_target{a in A, k in T: tail[a] = k}: send[a,k] = 0;
s.t. no_flow_into_source{a in A, k in T: head[a] = source}: send[a,k] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
