# Two entry points (README): `make demo` and `make test`. Both install missing Debian
# packages, configure and build in build/ (Release), then run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps build demo test bench fidelity-coral fidelity-plena clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)

# Test-only dependencies: Chromium (HTML report browser test), qemu-user (the RISC-V
# differential tests), slurm-wlm and munge (the single-node Slurm of the Slurm executor
# tests), Node.js and npm (the MCP client test).
test: deps
	@bash scripts/install-deps.sh chromium qemu-user slurm-wlm munge
	@command -v npm >/dev/null || bash scripts/install-deps.sh nodejs npm
	@$(MAKE) --no-print-directory build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@$(BUILD)/bench/bench_plena 5
	@$(BUILD)/bench/bench_coral
	@$(BUILD)/bench/bench_riscv_iss
	@$(BUILD)/bench/bench_aie_ml

# Coral NPU model against its RTL (docs/FIDELITY.md): needs the coral-rtl oracle, found
# through CORAL_RTL or ../shared/oracles/coral-rtl/coral-rtl.
fidelity-coral:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target coral_fidelity
	@$(BUILD)/bench/coral_fidelity --json $(BUILD)/coral_fidelity.json

# PLENA serial mode against the reference-timing oracle (PLENA_REF=path or the shared
# default; skipped with a message when absent). Results: docs/FIDELITY.md.
fidelity-plena:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target plena_fidelity
	@$(BUILD)/bench/plena_fidelity --quiet $(if $(PLENA_REF),--oracle $(PLENA_REF))

clean:
	rm -rf $(BUILD) out
