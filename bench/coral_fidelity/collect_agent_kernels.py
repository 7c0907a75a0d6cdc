#!/usr/bin/env python3
"""Copies every kernel version the search agent evaluated out of an agent-bench directory.

usage: collect_agent_kernels.py AGENT_BENCH_DIR OUT_DIR

AGENT_BENCH_DIR is the --out of `tlmcraft agent-bench --platform coral --provider search`;
each workspace workspaces/s<k>/<task>_coral_<config>/ holds the versions v001.c, v002.c, ...
in the order the agent wrote them (v001 is the baseline). They go to
OUT_DIR/<task>/<config>/v<N>.<ext> (the name the agent's evaluation compiled them under,
so the Coral toolchain's build cache answers), keeping the first of identical texts (the agent
writes its best once more before submitting), which is what
`coral_fidelity --task-kernels OUT_DIR` reads.
"""
import os
import re
import shutil
import sys

WORKSPACE = re.compile(r"^(?P<task>.+)_coral_(?P<config>C\d+)$")
VERSION = re.compile(r"^v\d{3,}\.(c|s|S)$")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    root = os.path.join(src, "workspaces")
    if not os.path.isdir(root):
        print("collect_agent_kernels.py: %s: no workspaces/ (not an agent-bench directory)" % src, file=sys.stderr)
        return 2
    total = 0
    for sample in sorted(os.listdir(root)):
        for ws in sorted(os.listdir(os.path.join(root, sample))):
            m = WORKSPACE.match(ws)
            if not m:
                continue
            wdir = os.path.join(root, sample, ws)
            dest = os.path.join(out, m["task"], m["config"])
            os.makedirs(dest, exist_ok=True)
            seen = set()
            for f in sorted(os.listdir(wdir)):
                if not VERSION.match(f):
                    continue
                text = open(os.path.join(wdir, f)).read()
                if text in seen:
                    continue
                seen.add(text)
                number, ext = f[1:].split(".")
                shutil.copyfile(os.path.join(wdir, f), os.path.join(dest, "v%d.%s" % (int(number), ext)))
                total += 1
    print("%d kernel versions in %s" % (total, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
