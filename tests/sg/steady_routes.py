#!/usr/bin/env python3
"""The routes between every two ranks of a platform as steady reads it:
"SRC DST CHANNEL CHANNEL ... @LATENCY", the channels its hops cross in
order, a SPLITDUPLEX channel's halves named as SimGrid names them (CH_UP,
CH_DOWN), then the path's latency (its edges' and their channels'), s, to
6 digits as sg_routes.c prints it;
"SRC DST !" when two paths through switches lead from SRC to DST.  Reads
`steady info --json --list` on standard input.  tests/sg/routes.sh
compares it with SimGrid's own routes (sg_routes.c)."""
import json
import sys

d = json.load(sys.stdin)
kind = {n["name"]: n["kind"] for n in d["node_list"]}
sharing = {c["name"]: c["sharing"] for c in d.get("channel_list", [])}
chlat = {c["name"]: c["latency"] for c in d.get("channel_list", [])}
out = {}
for e in d["edge_list"]:
    out.setdefault(e["from"], []).append(e)


def latency(e):
    return e["latency"] + sum(chlat[x["channel"]] for x in e["crosses"])


def names(e):
    for x in e["crosses"]:
        ch = x["channel"]
        if sharing[ch] == "splitduplex":
            yield ch + ("_DOWN" if x["down"] else "_UP")
        else:
            yield ch


ranks = [n for n, k in kind.items() if k != "switch"]
for u in ranks:
    # every path from u through switches (depth first, no node twice)
    found = {}
    stack = [(e, [], 0.0) for e in out.get(u, [])]
    while stack:
        e, links, lat = stack.pop()
        links = links + list(names(e))
        lat += latency(e)
        v = e["to"]
        if kind[v] != "switch":
            found.setdefault(v, []).append(links + ["@%.6g" % lat])
            continue
        for f in out.get(v, []):
            stack.append((f, links, lat))
    for v in ranks:
        if v == u or v not in found:
            continue
        if len(found[v]) > 1:
            print(u, v, "!")
        else:
            print(" ".join([u, v] + found[v][0]))
