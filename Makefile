# steady — throughput-optimal periodic schedules for series of collectives.
#
#   make            build libsteady, the steady CLI (into build/)
#   make check      install missing Debian packages, build, run every test
#   make demo       install missing Debian packages, run the main job on an example
#   make asan       run the whole test suite built with ASan + UBSan (build-asan/)
#   make bench      benchmarks (ratios measured side by side, see bench/)
#   make format     clang-format every C source and header
#   make clean

BUILD    ?= build
CC       ?= cc
SANITIZE ?=

# Evaluated lazily (=): on a fresh machine pkg-config only works once the
# bootstrap has installed the packages, which `check` and `demo` do first.
PKGS      = igraph libxml-2.0 jansson
WARN      = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
OPT       = -O2 -g
ifneq ($(SANITIZE),)
OPT       = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
CPPFLAGS  = -Iinclude $(shell pkg-config --cflags $(PKGS))
CFLAGS   += $(WARN) $(OPT) -MMD -MP
LDFLAGS  += $(if $(SANITIZE),-fsanitize=address$(comma)undefined)
LDLIBS    = $(shell pkg-config --libs $(PKGS)) -lglpk -lgmp -lm
TEST_LIBS = $(shell pkg-config --libs cunit)
comma     = ,

LIB_SRC  := $(wildcard common/*.c platform/*.c lp/*.c decompose/*.c schedule/*.c)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/unit/*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

LIB      := $(BUILD)/libsteady.a
STEADY   := $(BUILD)/steady
UNIT     := $(BUILD)/unit-tests

.PHONY: all deps-ok bootstrap check test demo asan bench format clean

all: deps-ok $(LIB) $(STEADY)

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

$(LIB): $(LIB_OBJ)
	@rm -f $@
	@$(if $(V),,echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(STEADY): $(CLI_OBJ) $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(UNIT): $(TEST_OBJ) $(LIB)
	@$(if $(V),,echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS) $(TEST_OBJ) $(LIB) $(LDLIBS) $(TEST_LIBS) -o $@

# `check` is the README's test command: set-up first, then every test.
check: bootstrap
	@$(MAKE) --no-print-directory test

test: all $(UNIT)
	$(UNIT)
	tests/bad/run $(STEADY)
	tests/e2e/run $(BUILD)

demo: bootstrap
	@$(MAKE) --no-print-directory all
	@scripts/demo $(BUILD)

asan: bootstrap
	@$(MAKE) --no-print-directory BUILD=build-asan SANITIZE=1 test

bench: bootstrap
	@$(MAKE) --no-print-directory all
	bench/run $(BUILD)

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) $(wildcard include/steady/*.h */*.h tests/*/*.h)

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
