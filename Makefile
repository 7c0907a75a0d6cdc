# Two entry points (README): `make demo` and `make test`. Both install missing Debian
# packages, configure and build in build/ (Release), then run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps build demo test clean

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
