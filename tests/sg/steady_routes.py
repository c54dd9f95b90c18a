#!/usr/bin/env python3
"""The routes between every two ranks of a platform as steady reads it:
"SRC DST CHANNEL CHANNEL ...", the channels its hops cross in order, a
SPLITDUPLEX channel's halves named as SimGrid names them (CH_UP, CH_DOWN);
"SRC DST !" when two paths through switches lead from SRC to DST.  Reads
`steady info --json --list` on standard input.  tests/sg/routes.sh
compares it with SimGrid's own routes (sg_routes.c)."""
import json
import sys

d = json.load(sys.stdin)
kind = {n["name"]: n["kind"] for n in d["node_list"]}
sharing = {c["name"]: c["sharing"] for c in d.get("channel_list", [])}
out = {}
for e in d["edge_list"]:
    out.setdefault(e["from"], []).append(e)


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
    stack = [(e, []) for e in out.get(u, [])]
    while stack:
        e, links = stack.pop()
        links = links + list(names(e))
        v = e["to"]
        if kind[v] != "switch":
            found.setdefault(v, []).append(links)
            continue
        for f in out.get(v, []):
            stack.append((f, links))
    for v in ranks:
        if v == u or v not in found:
            continue
        if len(found[v]) > 1:
            print(u, v, "!")
        else:
            print(" ".join([u, v] + found[v][0]))
