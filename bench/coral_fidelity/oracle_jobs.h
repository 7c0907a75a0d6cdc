// RTL oracle runs as a batch for another machine: the programs the results files do not
// hold yet are written out as jobs (ELF, inputs, the regions to dump, the latencies) that
// run_oracle_jobs.py runs in parallel, printing results-file lines (oracle_cache.h) that
// `coral_fidelity --results FILE` then reads. The RTL simulates 15,000-30,000 cycles per
// second, so a full campaign is worth spreading over many cores.
#pragma once
#include <string>
#include <vector>

#include "bench/coral_fidelity/model_runner.h"
#include "bench/coral_fidelity/oracle_cache.h"

namespace tlmcraft::bench {

// The results-file key of a model run: a hash of everything the RTL sees.
uint64_t oracle_key(const ModelRun& m, const OracleOptions& oo);

// Writes DIR/jobs.jsonl (one object per job: key, name, elf, ext, dump, ext_latency,
// ext_wlatency), DIR/elf/<key>.elf and DIR/in/<hash>.bin (inputs shared between jobs);
// returns the number of jobs written.
size_t export_oracle_jobs(const std::string& dir, const std::vector<FidelityCase>& cases,
                          const std::vector<ModelRun>& runs, const OracleOptions& oo, const OracleCache& cache);

}  // namespace tlmcraft::bench
