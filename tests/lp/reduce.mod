/* reduce.mod -- Series of reduces (SSR), as a GNU MathProg model.

   Independent cross-check of steady's C implementation; solved by glpsol
   through tests/lp/glpsol-tp, which writes the data section.

   Implements docs/linear-programs.md, "Series of reduces -- SSR"
   (Legrand, Marchal, Robert, RR-4872, section 4.2):
     - one-port constraints, paper eqs. (2), (3) and (8), with
       s(e) = sum_{[k,m]} send(e,[k,m]) * c(e) substituted (eq. 4);
     - computation, paper eqs. (7) and (9):
       alpha(i) = sum_{(k,l,m)} cons(i,(k,l,m)) * w(i) <= 1 on processors;
       routers compute nothing (no cons variables);
     - conservation of every partial result v[k,m], paper eq. (10), at every
       node except (i = r_k, k = m) -- participant r_k holds its own value --
       and (i = t, [k,m] = [0,N-1]) -- the target consumes the result;
       routers and non-participating processors obey it for every interval;
     - throughput at the target, paper eq. (11):
       TP = in_send(t,[0,N-1]) + sum_{0 <= l < N-1} cons(t,(0,l,N-1));
     - send(e,[0,N-1]) = 0 for e in out(t), send(e,[k,k]) = 0 for e in in(r_k).

   Participants are numbered 0..N-1 in the operator's order (associative,
   not commutative); v[k,m] = v_k (+) ... (+) v_m; task T(k,l,m), k <= l < m,
   computes v[k,m] = v[k,l] (+) v[l+1,m]. */

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
param w{P} > 0;                     # duration of one task on processor i
param compute_scale > 0, default 1; # power of two, see below

param N integer >= 1;               # number of participants
param r{0..N-1} symbolic in P;      # participant r_k holds v_k
param target symbolic in P;         # t

set I := setof{k in 0..N-1, m in k..N-1} (k, m);                   # v[k,m]
set TK := setof{k in 0..N-1, l in k..N-1, m in l+1..N-1} (k, l, m); # T(k,l,m)

/* port_scale (and, in reduce.mod, compute_scale) is a power of two that
   multiplies both sides of the one-port (compute) rows; glpsol-tp chooses it
   so that every coefficient c(e) * port_scale is an integer.  Reason:
   glpsol --exact (glp_exact) replaces every non-integral double of the
   problem by a nearby simple fraction (relative error up to 1e-9) before
   solving, but takes integral doubles exactly.  Multiplying by a power of two
   is exact in floating point and does not change the LP.  Default 1: the
   plain formulation. */

var TP >= 0;                        # reductions completed per time unit
var send{A, I} >= 0;                # messages v[k,m] on hop a per time unit
var cons{P, TK} >= 0;               # tasks T(k,l,m) computed on i per time unit

maximize throughput: TP;

/* (2), (8): one emission at a time */
s.t. one_port_out{i in H}:
    sum{a in A: tail[a] = i} sum{(k,m) in I} send[a,k,m] * c[a] * port_scale <= port_scale;

/* (3), (8): one reception at a time */
s.t. one_port_in{i in H}:
    sum{a in A: head[a] = i} sum{(k,m) in I} send[a,k,m] * c[a] * port_scale <= port_scale;

/* every shared resource (a channel, a channel's direction, the link
   between two switches) is busy at most all of the time; scaled like the
   one-port rows */
s.t. capacity{q in R}:
    sum{a in A: u[a,q] > 0} sum{(k,m) in I} send[a,k,m] * u[a,q] * port_scale <= port_scale;

/* (7), (9): alpha(i) <= 1 */
s.t. compute{i in P}:
    sum{(k,l,m) in TK} cons[i,k,l,m] * w[i] * compute_scale <= compute_scale;

/* (10): received + produced = sent + consumed (as either operand) */
s.t. conservation{i in V, (k,m) in I:
        not (i = r[k] and k = m) and not (i = target and k = 0 and m = N-1)}:
    sum{a in A: head[a] = i} send[a,k,m]
  + sum{l in k..m-1: i in P} cons[i,k,l,m]
  = sum{a in A: tail[a] = i} send[a,k,m]
  + sum{n in m+1..N-1: i in P} cons[i,k,m,n]
  + sum{n in 0..k-1: i in P} cons[i,n,k-1,m];

/* (11): the target obtains TP complete results per time unit */
s.t. throughput_at_target:
    TP = sum{a in A: head[a] = target} send[a,0,N-1]
       + sum{l in 0..N-2} cons[target,0,l,N-1];

/* flows that can only waste capacity */
s.t. no_result_out_of_target{a in A: tail[a] = target}: send[a,0,N-1] = 0;
s.t. no_value_into_owner{a in A, k in 0..N-1: head[a] = r[k]}: send[a,k,k] = 0;

solve;

printf "TP_VALUE %.17g\n", TP;

end;
