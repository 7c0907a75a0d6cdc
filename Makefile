# Two entry points (README): `make demo` and `make test`. Both install missing Debian
# packages, configure and build in build/ (Release), then run.
BUILD ?= build
JOBS ?= $(shell nproc)
# Extra CMake options of `make build`: the default build is the CLI and the libraries;
# `make test` adds the tests (-DTLMCRAFT_BUILD_TESTS=ON), `make bench` the benchmark programs.
CMAKE_OPTIONS ?=
# `make install` destination (docs/install.md).
PREFIX ?= /usr/local

# Seconds each fuzzer runs in `make fuzz`; `make test` (CI) gives each CI_FUZZ_SECONDS
# with libFuzzer's seed fixed to CI_FUZZ_SEED, so a CI finding reproduces.
FUZZ_SECONDS ?= 10
CI_FUZZ_SECONDS ?= 10
CI_FUZZ_SEED ?= 1
SANITIZE_BUILD ?= build-sanitize
# SystemC switches coroutine stacks, which ASan cannot follow for fake stacks.
SANITIZE_ASAN_OPTIONS ?= detect_stack_use_after_return=0
# Instrumented runs are about 10x slower: every run's wall-clock limit is scaled to match.
SANITIZE_WALL_CLOCK_SCALE ?= 10

.PHONY: deps build demo test test-under-load fuzz test-sanitize bench fidelity-coral fidelity-plena install package clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_OPTIONS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)

# Test-only dependencies: Chromium (HTML report browser test), qemu-user (the RISC-V
# differential tests), slurm-wlm and munge (the single-node Slurm of the Slurm executor
# tests), Node.js and npm (the MCP client test), strace (the relocated-install test).
test: deps
	@bash scripts/install-deps.sh chromium qemu-user slurm-wlm munge strace
	@command -v npm >/dev/null || bash scripts/install-deps.sh nodejs npm
	@$(MAKE) --no-print-directory build CMAKE_OPTIONS=-DTLMCRAFT_BUILD_TESTS=ON
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@FUZZ_SEED=$(CI_FUZZ_SEED) FUZZ_JOBS=$(JOBS) $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CI_FUZZ_SECONDS)

# The whole ctest suite UNDER_LOAD_RUNS times in a row while 2 niced busy loops per core
# load the machine; stops at the first failure with the failing tests' logs
# (scripts/ctest_under_load.sh, docs/reliability.md "Tests under load").
UNDER_LOAD_RUNS ?= 5
test-under-load: deps
	@bash scripts/install-deps.sh chromium qemu-user slurm-wlm munge strace
	@command -v npm >/dev/null || bash scripts/install-deps.sh nodejs npm
	@$(MAKE) --no-print-directory build CMAKE_OPTIONS=-DTLMCRAFT_BUILD_TESTS=ON
	@JOBS=$(JOBS) bash scripts/ctest_under_load.sh $(BUILD) $(UNDER_LOAD_RUNS)

# libFuzzer harnesses (fuzz/, docs/reliability.md): clang-16 with its runtime
# (libclang-rt-16-dev), built in build-fuzz; replays fuzz/regressions and fuzz/corpus,
# then runs each fuzzer FUZZ_SECONDS seconds.
fuzz: deps
	@bash scripts/install-deps.sh libclang-rt-16-dev
	@FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) bash scripts/fuzz.sh

# The whole test suite built with g++ -fsanitize=address,undefined in its own build
# directory (docs/reliability.md lists what it found and the suppressions, with reasons).
# Not part of `make test` (CI): the instrumented build of every source is too slow for it.
# The install tests (label install) are left out: they check the installed product, which
# an instrumented build is not (its binaries name their sources; consumers would need the
# sanitizer runtime).
SANITIZE_LAUNCHER = $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
test-sanitize: deps
	@bash scripts/install-deps.sh chromium qemu-user slurm-wlm munge strace
	@command -v npm >/dev/null || bash scripts/install-deps.sh nodejs npm
	@cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Release -DTLMCRAFT_SANITIZE=ON -DTLMCRAFT_BUILD_TESTS=ON $(SANITIZE_LAUNCHER) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	@cd $(SANITIZE_BUILD) && ASAN_OPTIONS=$(SANITIZE_ASAN_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1 \
	  TLMCRAFT_WALL_CLOCK_SCALE=$(SANITIZE_WALL_CLOCK_SCALE) \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
	  ctest --output-on-failure -j $(JOBS) --timeout 600 -LE install

bench: deps
	@$(MAKE) --no-print-directory build CMAKE_OPTIONS=-DTLMCRAFT_BUILD_BENCH=ON
	@$(BUILD)/bench/bench_plena 5
	@$(BUILD)/bench/bench_coral
	@$(BUILD)/bench/bench_riscv_iss
	@$(BUILD)/bench/bench_aie_ml

# Coral NPU model against its RTL (docs/FIDELITY.md): the baselines, the probes and the search
# agent's kernel versions (bench/coral_fidelity/agent_kernels.tar.xz). RTL results come from
# bench/coral_fidelity/rtl_results.jsonl; a program it lacks needs the coral-rtl oracle, found
# through CORAL_RTL or ../shared/oracles/coral-rtl/coral-rtl.
fidelity-coral:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTLMCRAFT_BUILD_BENCH=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target coral_fidelity
	@rm -rf $(BUILD)/agent_kernels && tar -C $(BUILD) -xJf bench/coral_fidelity/agent_kernels.tar.xz
	@$(BUILD)/bench/coral_fidelity --task-kernels $(BUILD)/agent_kernels --json $(BUILD)/coral_fidelity.json

# PLENA serial mode against the reference-timing oracle (PLENA_REF=path or the shared
# default; skipped with a message when absent). Results: docs/FIDELITY.md.
fidelity-plena:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTLMCRAFT_BUILD_BENCH=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target plena_fidelity
	@$(BUILD)/bench/plena_fidelity --quiet $(if $(PLENA_REF),--oracle $(PLENA_REF))

# The CLI, libraries, headers, data and CMake package under PREFIX (docs/install.md).
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# Debian packages tlmcraft and tlmcraft-dev in $(BUILD) (docs/install.md).
package: build
	@cd $(BUILD) && cpack -G DEB

clean:
	rm -rf $(BUILD) build-fuzz $(SANITIZE_BUILD) out
