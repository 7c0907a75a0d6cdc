#!/usr/bin/env python3
"""Compile CPU time of unity batches against their sources compiled one by one.

usage: scripts/unity_compile_cpu.py PLAIN_BUILD UNITY_BUILD [TARGET...]

PLAIN_BUILD is configured with -DTLMCRAFT_UNITY_BUILD=OFF, UNITY_BUILD with it ON (the
default), both from the same source tree; only their compile_commands.json are read. For each
unity batch of the given targets (default: every target with batches), compiles the batch
with UNITY_BUILD's command, then each source of the batch with PLAIN_BUILD's command, back to
back, so the machine's load weighs on both alike. Objects go to a temporary directory; the
build trees are not touched. Prints user+sys CPU seconds per batch and the sums
(docs/PERFORMANCE.md "Build and test time").
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile


def commands(build):
    """Source path -> (directory, command) of a build tree's compile_commands.json."""
    return {e["file"]: (e["directory"], e["command"]) for e in json.load(open(os.path.join(build, "compile_commands.json")))}


def cpu_seconds(directory, command, obj):
    """User+sys CPU of one compile command with its object redirected to obj."""
    command = command.replace("/usr/bin/ccache ", "")
    command = re.sub(r" -o \S+", f" -o {obj}", command)
    command = re.sub(r" -MD -MT \S+ -MF \S+", "", command)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, shell=True, cwd=directory, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"unity_compile_cpu.py: compile failed in {directory}:\n{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    plain, unity = commands(sys.argv[1]), commands(sys.argv[2])
    targets = sys.argv[3:]
    batches = sorted(f for f in unity if "/Unity/unity_" in f)
    if targets:
        batches = [b for b in batches if b.split("/")[-3][: -len(".dir")] in targets]
    total_plain = total_unity = 0.0
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "x.o")
        for batch in batches:
            sources = re.findall(r'#include "([^"]+)"', open(batch).read())
            missing = [s for s in sources if s not in plain]
            if missing:
                sys.exit(f"unity_compile_cpu.py: {missing[0]} is not compiled in {sys.argv[1]}")
            u = cpu_seconds(*unity[batch], obj)
            p = sum(cpu_seconds(*plain[s], obj) for s in sources)
            total_unity += u
            total_plain += p
            count += len(sources)
            name = "/".join(batch.split("/")[-3:])
            print(f"{name}: {len(sources)} sources {p:.1f} s one by one, {u:.1f} s as one batch", flush=True)
    print(f"total: {count} sources in {len(batches)} batches: {total_plain:.1f} s one by one, "
          f"{total_unity:.1f} s in batches ({total_unity / max(total_plain, 1e-9):.2f})")


if __name__ == "__main__":
    main()
