# Sourced by the end-to-end tests of the MPI executor (run_mpi.sh,
# compare_run.sh): the common start, with NAME the test's name and BUILD
# the build directory.
#   source tests/e2e/lib/executor.bash NAME BUILD
# Sets steady, run, run_smpi (the binaries), tmp (removed at exit), mpi
# (Open MPI's launcher under `timeout 60`), cfg (SMPI's network as steady's
# model: tests/e2e/smpi_export.sh explains each flag; steady-run-smpi sets
# smpi/test and smpi/send-is-detached-thresh itself), failures; defines
# fail and field.  Exits 1 when a tool or binary is missing.
name=$1
build=$2
steady="$build/steady"
run="$build/steady-run"
run_smpi="$build/steady-run-smpi"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
# fail WHAT: one FAIL line, counted
fail() {
    echo "FAIL $name: $*"
    failures=$((failures + 1))
}
for tool in mpirun smpirun python3; do
    command -v "$tool" >/dev/null || {
        echo "FAIL $name: $tool not found (scripts/bootstrap installs it)"
        exit 1
    }
done
for bin in "$steady" "$run" "$run_smpi"; do
    [ -x "$bin" ] || {
        echo "FAIL $name: $bin is not built (run make)"
        exit 1
    }
done
mpi=(timeout 60 mpirun --allow-run-as-root --oversubscribe)
cfg=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=smpi/wtime:0
    --log=root.thres:warning)
# field NAME: a field of the JSON report in $tmp/out
field() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$tmp/out" "$1" 2>/dev/null
}
