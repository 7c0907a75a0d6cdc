#!/usr/bin/env python3
# Compares two runs of the built-in search agent (agent-bench --provider search output
# folders, e.g. before and after a refactoring): for every workload whose transcript
# finished in both, are the turns (text, tool calls with arguments, tool results' status
# and cycles) and the best kernel identical? Exit 1 if any differs.
# usage: bench/compare_search_transcripts.py BEFORE_DIR AFTER_DIR
import json, sys, glob, os
def digest(d):
    out = {}
    for f in glob.glob(os.path.join(d, '**', 'transcripts', '*.jsonl'), recursive=True):
        turns, best = [], None
        for l in open(f):
            r = json.loads(l)
            if r['type'] == 'message' and r['message'].get('role') == 'assistant':
                m = r['message']
                turns.append([m.get('content'), [(c.get('name'), c.get('arguments')) for c in m.get('tool_calls', [])]])
            elif r['type'] == 'message' and r['message'].get('role') == 'tool':
                dat = r['message'].get('data') or {}
                turns.append([dat.get('status'), dat.get('cycles')] if isinstance(dat, dict) else [None, None])
            elif r['type'] == 'result':
                b = r['result'].get('best') or {}
                best = (b.get('cycles'), b.get('baseline_cycles'), b.get('kernel'))
        if best is not None: out[os.path.basename(f)] = (turns, best)
    return out
b, a = digest(sys.argv[1]), digest(sys.argv[2])
common = sorted(set(b) & set(a))
same = [k for k in common if b[k] == a[k]]
diff = [k for k in common if b[k] != a[k]]
improved = sum(1 for k in common if b[k][1][0] and b[k][1][1] and b[k][1][0] < b[k][1][1])
print(f"{len(common)} workloads finished in both: {len(same)} identical transcripts and best kernels, {len(diff)} differ; "
      f"{improved} of them with a best kernel faster than the baseline")
for k in diff: print('DIFF', k, b[k][1][:2], a[k][1][:2])
sys.exit(1 if diff or not common else 0)
