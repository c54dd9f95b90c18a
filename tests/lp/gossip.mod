/* gossip.mod -- Series of gossips (personalized all-to-all, SSPA2A), as a
   GNU MathProg model.

   Independent cross-check of steady's C implementation; solved by glpsol
   through tests/lp/glpsol-tp, which writes the data section.

   Implements docs/linear-programs.md, "Series of gossips -- SSPA2A"
   (Legrand, Marchal, Robert, RR-4872, section 3.5, the scatter LP of
   section 3.1 with one message type m_{k,l} per source k and target l != k):
     - one-port constraints, paper eqs. (2) and (3), with
       s(e) = sum_{(k,l)} send(e,(k,l)) * c(e) substituted (eq. 4);
     - conservation of m_{k,l} at every node except k and l (eq. 5);
     - throughput counted at the target l: in_send(l,(k,l)) = TP (eq. 6, read
       at the destination as the docs specify);
     - send(e,(k,l)) = 0 for e in out(l) and for e in in(k). */

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
param w{P} > 0;                     # task duration (unused by gossips)

set S within P;                     # sources
set T within P;                     # targets
set K := setof{k in S, l in T: k != l} (k, l);   # message types m_{k,l}
check: card(K) > 0;

/* port_scale (and, in reduce.mod, compute_scale) is a power of two that
   multiplies both sides of the one-port (compute) rows; glpsol-tp chooses it
   so that every coefficient c(e) * port_scale is an integer.  Reason:
   glpsol --exact (glp_exact) replaces every non-integral double of the
   problem by a nearby simple fraction (relative error up to 1e-9) before
   solving, but takes integral doubles exactly.  Multiplying by a power of two
   is exact in floating point and does not change the LP.  Default 1: the
   plain formulation. */

var TP >= 0;                        # gossips completed per time unit
var send{A, K} >= 0;                # messages m_{k,l} on hop a per time unit

maximize throughput: TP;

/* (2): one emission at a time */
s.t. one_port_out{i in H}:
    sum{a in A: tail[a] = i} sum{(k,l) in K} send[a,k,l] * c[a] * port_scale <= port_scale;

/* (3): one reception at a time */
s.t. one_port_in{i in H}:
    sum{a in A: head[a] = i} sum{(k,l) in K} send[a,k,l] * c[a] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{a in A: u[a,q] > 0} sum{(k,l) in K} send[a,k,l] * u[a,q] * port_scale <= port_scale;

/* (5): conservation of m_{k,l} away from its source and its target */
s.t. conservation{(k,l) in K, i in V diff {k, l}}:
    sum{a in A: head[a] = i} send[a,k,l] = sum{a in A: tail[a] = i} send[a,k,l];

/* (6): every target l receives TP messages m_{k,l} per time unit */
s.t. throughput_at_target{(k,l) in K}:
    sum{a in A: head[a] = l} send[a,k,l] = TP;

/* flows that leave their destination or return to their source */
s.t. no_flow_out_of_target{a in A, (k,l) in K: tail[a] = l}: send[a,k,l] = 0;
s.t. no_flow_into_source{a in A, (k,l) in K: head[a] = k}: send[a,k,l] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
