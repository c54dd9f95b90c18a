# steady — throughput-optimal periodic schedules for series of collectives.
#
#   make            build libsteady, the steady CLI, the MPI executor steady-run
#                   (Open MPI), its builds steady-run-mpich (MPICH) and
#                   steady-run-smpi (SimGrid SMPI), into build/
#   make check      install missing Debian packages, build, run every test
#   make demo       install missing Debian packages, run the main job on an example
#   make asan       run the test suite built with ASan + UBSan (build-asan/),
#                   except the executor-only end-to-end tests (tests/e2e/run)
#   make fuzz       run each libFuzzer harness of tests/fuzz/ for FUZZ_TIME
#                   seconds (default 60; clang: scripts/bootstrap --fuzz),
#                   in build-fuzz/ (docs/fuzzing.md)
#   make bench      benchmarks (ratios measured side by side, see bench/)
#   make format     clang-format every C source and header
#   make STEADY_CLP=1   the same, with COIN-OR Clp as a second simplex, in
#                   build-clp/ (docs/performance.md)
#   make clean

# STEADY_CLP=1: with COIN-OR Clp as a second floating-point simplex
# (coinor-libclp-dev; scripts/bootstrap --clp), built apart in build-clp/
STEADY_CLP ?=
ifneq ($(STEADY_CLP),)
BUILD    ?= build-clp
endif
BUILD    ?= build
CC       ?= cc
MPICC    ?= mpicc
MPICHCC  ?= mpicc.mpich
SMPICC   ?= smpicc
SANITIZE ?=
FUZZ     ?=
FUZZ_TIME ?= 60
FUZZ_CC  ?= clang

# Evaluated lazily (=): on a fresh machine pkg-config only works once the
# bootstrap has installed the packages, which `check` and `demo` do first.
PKGS      = igraph libxml-2.0 jansson
WARN      = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
OPT       = -O2 -g
ifneq ($(SANITIZE),)
OPT       = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
ifneq ($(FUZZ),)
# clang's -Wbitwise-instead-of-logical flags check.c's deliberate `&` of two
# checks that must both run
OPT       = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all -Wno-bitwise-instead-of-logical
endif
CPPFLAGS  = -Iinclude $(shell pkg-config --cflags $(PKGS))
CFLAGS   += $(WARN) $(OPT) -pthread -MMD -MP
LDFLAGS  += $(if $(SANITIZE),-fsanitize=address$(comma)undefined)
LDLIBS    = $(shell pkg-config --libs $(PKGS)) -lglpk -lgmp -lm -pthread
ifneq ($(STEADY_CLP),)
CPPFLAGS += -DSTEADY_CLP $(shell pkg-config --cflags clp)
LDLIBS   += $(shell pkg-config --libs clp)
endif
TEST_LIBS = $(shell pkg-config --libs cunit)
comma     = ,

LIB_SRC  := $(wildcard common/*.c platform/*.c lp/*.c decompose/*.c schedule/*.c compare/*.c draw/*.c)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/unit/*.c)
# the fuzz harnesses: fuzz_TARGET.c each, sharing roundtrip.c; driver.c is
# the plain main() of make check
FUZZ_TARGETS := native graphml simgrid schedule
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
# the MPI executor: the same sources built three times, with mpicc (Open MPI),
# mpicc.mpich and smpicc
RUN_SRC  := $(wildcard runner/*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
PAYLOAD_OBJ := $(BUILD)/tests/unit/runner_payload.o
RUN_OBJ  := $(RUN_SRC:%.c=$(BUILD)/%.o)
SMPI_OBJ := $(RUN_SRC:runner/%.c=$(BUILD)/runner-smpi/%.o)
MPICH_OBJ := $(RUN_SRC:runner/%.c=$(BUILD)/runner-mpich/%.o)

FUZZ_OBJ := $(FUZZ_SRC:%.c=$(BUILD)/%.o)
# reached through the fuzz-% and fuzzer-% pattern rules only: not
# intermediate files to delete after the link
.SECONDARY: $(FUZZ_OBJ)

LIB      := $(BUILD)/libsteady.a
STEADY   := $(BUILD)/steady
UNIT     := $(BUILD)/unit-tests
RUN      := $(BUILD)/steady-run
RUN_SMPI := $(BUILD)/steady-run-smpi
RUN_MPICH := $(BUILD)/steady-run-mpich
REPLAY   := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-%)
FUZZERS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzzer-%)

# The MPI binaries link their own copy of libsteady (mpi-lib/), compiled
# with -fPIC, as smpicc links steady-run-smpi as a shared object that
# smpirun loads, and never with sanitizers, even under SANITIZE: Open MPI's
# and SimGrid's own allocations would be reported as leaks at exit, and
# smpirun's process does not start with the sanitizer runtime.
MPI_CFLAGS = $(WARN) -O2 -g -fPIC -pthread -MMD -MP
MPI_LIB   := $(BUILD)/mpi-lib/libsteady.a
MPI_OBJ   := $(LIB_SRC:%.c=$(BUILD)/mpi-lib/%.o)

.PHONY: all deps-ok bootstrap check test demo asan fuzz fuzzers bench format clean

all: deps-ok $(LIB) $(STEADY) $(RUN) $(RUN_MPICH) $(RUN_SMPI)

# A plain `make` does not install anything; it says what is missing.
deps-ok:
	@scripts/bootstrap --check

bootstrap:
	@scripts/bootstrap

# `make V=1` shows the full commands
Q = $(if $(V),,@)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# runner/ is the only MPI code: compiled with mpicc for steady-run, with
# mpicc.mpich for steady-run-mpich, and with smpicc (SimGrid's mpi.h, SMPI_H
# defined) for steady-run-smpi; all link the copy of libsteady in mpi-lib/,
# built with the plain compiler (it uses no MPI).
$(BUILD)/runner/%.o: runner/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  MPICC   $<")
	$(Q)$(MPICC) $(CPPFLAGS) $(MPI_CFLAGS) -c $< -o $@

# smpicc links a shared object, which smpirun loads: run directly, it had
# no entry point and crashed.  It gets the system's dynamic loader and an
# entry (runner/main.c, run_standalone) that prints --help or says to run
# it under smpirun.
SMPI_INTERP = $(shell readelf -l /bin/sh 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]/\1/p')

$(BUILD)/runner-smpi/%.o: runner/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  SMPICC  $<")
	$(Q)$(SMPICC) $(CPPFLAGS) $(MPI_CFLAGS) $(if $(SMPI_INTERP),-DRUN_INTERP='"$(SMPI_INTERP)"') \
	    -c $< -o $@

$(BUILD)/runner-mpich/%.o: runner/%.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  MPICHCC $<")
	$(Q)$(MPICHCC) $(CPPFLAGS) $(MPI_CFLAGS) -c $< -o $@

$(BUILD)/mpi-lib/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $< (for MPI)")
	$(Q)$(CC) $(CPPFLAGS) $(MPI_CFLAGS) -c $< -o $@

$(MPI_LIB): $(MPI_OBJ)
	@rm -f $@
	@$(if $(V),,echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(LIB): $(LIB_OBJ)
	@rm -f $@
	@$(if $(V),,echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(STEADY): $(CLI_OBJ) $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(RUN): $(RUN_OBJ) $(MPI_LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(MPICC) $(RUN_OBJ) $(MPI_LIB) $(LDLIBS) -o $@

$(RUN_MPICH): $(MPICH_OBJ) $(MPI_LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(MPICHCC) $(MPICH_OBJ) $(MPI_LIB) $(LDLIBS) -o $@

$(RUN_SMPI): $(SMPI_OBJ) $(MPI_LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(SMPICC) $(SMPI_OBJ) $(MPI_LIB) $(LDLIBS) $(if $(SMPI_INTERP),-Wl$(comma)-e$(comma)run_standalone) \
	    -o $@

# the unit tests also check the executor's payloads, runner/payload.c
# built without MPI (and with the sanitizers under SANITIZE)
$(PAYLOAD_OBJ): runner/payload.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(UNIT): $(TEST_OBJ) $(PAYLOAD_OBJ) $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) $(TEST_OBJ) $(PAYLOAD_OBJ) $(LIB) $(LDLIBS) $(TEST_LIBS) -o $@

# make check: each harness over its corpus, with driver.c's main()
$(BUILD)/fuzz-%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/roundtrip.o \
                 $(BUILD)/tests/fuzz/driver.o $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# make fuzz: each harness with libFuzzer's main()
$(BUILD)/fuzzer-%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/roundtrip.o $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) -fsanitize=fuzzer,address,undefined $^ $(LDLIBS) -o $@

# `check` is the README's test command: set-up first, then every test.
check: bootstrap
	@$(MAKE) --no-print-directory test

test: all $(UNIT) $(REPLAY)
	$(UNIT)
	tests/bad/run $(STEADY)
	tests/fuzz/replay $(BUILD) $(FUZZ_TARGETS)
	tests/e2e/run $(BUILD) $(if $(SANITIZE),--sanitized)

demo: bootstrap
	@$(MAKE) --no-print-directory all
	@scripts/demo $(BUILD)

asan: bootstrap
	@$(MAKE) --no-print-directory BUILD=build-asan SANITIZE=1 test

# clang is needed by nothing else: only scripts/bootstrap --fuzz installs it
fuzz:
	@scripts/bootstrap --fuzz
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) FUZZ=1 fuzzers
	tests/fuzz/run build-fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzzers: $(FUZZERS)

bench: bootstrap
	@$(MAKE) --no-print-directory all
	bench/run $(BUILD)

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) $(FUZZ_SRC) $(RUN_SRC) $(wildcard include/steady/*.h */*.h tests/*/*.h)

clean:
	rm -rf build build-asan build-fuzz build-clp

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(PAYLOAD_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(RUN_OBJ:.o=.d) $(MPICH_OBJ:.o=.d) $(SMPI_OBJ:.o=.d) $(MPI_OBJ:.o=.d)
