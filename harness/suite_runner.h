// Suite runs: evaluate many (platform, task, config, kernel) jobs in parallel worker
// processes and append each result to a JSONL file as soon as it finishes.
//
// Isolation: every job is its own process in its own process group, so a worker that
// crashes, prints garbage or hangs (killed after the per-job timeout) only produces a
// "crash"/"timeout" line for its own job. Durability: each line is written with one
// write() on an O_APPEND descriptor and fsynced; a restarted run reads the file back,
// drops a torn last line and skips every job already recorded, so a run killed at any
// moment and restarted ends with every result exactly once.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

struct SuiteJob {
  std::string platform;
  std::string task;
  std::string config;                   // "C1".."C5"
  std::string kernel = "baseline";      // "baseline" or a kernel file path
  std::vector<std::string> extra_args;  // appended to the worker command line
  int level = 0;                        // task level when known (0 = unknown); used in synthesized lines
  // The hardware/ISA variant (harness/provenance.h): its id is part of the job's identity,
  // its provenance is stored in the record. Empty/null for jobs outside any variant.
  std::string variant;
  nlohmann::json provenance;
  // A result known without running anything (e.g. status "unsupported" from the task
  // registry): recorded like a worker's report, with the same durability and resume.
  std::optional<nlohmann::json> known_result;
};

// Identity of a job in a JSONL file: platform, task, config, kernel and variant id.
std::string job_key(const SuiteJob& job);
// The key of a JSONL record (from its "job" object); empty when it has none.
std::string record_key(const nlohmann::json& record);
// The "job" object stored in every JSONL line.
nlohmann::json job_json(const SuiteJob& job);

// Builds the argv of the worker process for a job (argv[0] is the program; searched in
// PATH when it has no '/').
using CommandBuilder = std::function<std::vector<std::string>(const SuiteJob&)>;

// `<exe> run --platform P --task T --config C [--baseline | KERNEL] --json <extra args>`.
CommandBuilder tlmcraft_run_command(const std::string& exe);

enum class ProgressMode {
  Auto,   // Bar when the progress descriptor is a terminal, Lines otherwise
  Bar,    // one redrawn line: bar, done/total, pass/fail counts, ETA
  Lines,  // a plain line every few seconds and at the end
  Quiet,  // nothing
};

struct SuiteOptions {
  std::string out_path;              // JSONL file (created if missing)
  unsigned jobs = 0;                 // parallel workers; 0 = number of usable CPUs
  double timeout_seconds = 300;      // per job; <= 0 = no limit
  bool resume = true;                // false: truncate out_path first
  CommandBuilder command;            // required
  ProgressMode progress = ProgressMode::Auto;
  int progress_fd = 2;
  double progress_interval_seconds = 5;  // Lines mode
  size_t stderr_tail_lines = 5;      // stderr lines quoted in crash/timeout reasons
  bool handle_interrupts = true;     // SIGINT/SIGTERM: kill workers, stop, return interrupted
  double lock_wait_seconds = 2;      // wait this long for another run's lock on out_path
  // Appended (fsynced) once the lock is held, before any result: a line that says who wrote
  // what follows (a Slurm shard's version stamp). It has no "job" object, so it is no result.
  std::optional<nlohmann::json> header;
};

struct SuiteOutcome {
  size_t total = 0;      // jobs asked for
  size_t skipped = 0;    // already in the JSONL (resume)
  size_t ran = 0;        // finished in this run
  size_t passed = 0;     // among all jobs asked for that have a result
  size_t failed = 0;     // result present, status neither "pass" nor "unsupported"
  size_t unsupported = 0;
  bool interrupted = false;
  size_t dropped_torn_bytes = 0;           // torn tail removed from out_path
  std::vector<std::string> warnings;       // unreadable lines etc.
  std::vector<nlohmann::json> results;     // records of the asked-for jobs, file order
};

// Runs the jobs not yet present in options.out_path. Throws std::runtime_error for bad
// options or an unusable output file (locked by another run, not writable).
// Not reentrant: one suite run per process at a time (it owns SIGCHLD while running).
SuiteOutcome run_suite(const std::vector<SuiteJob>& jobs, const SuiteOptions& options);

// Reads a JSONL results file. A last line without its newline (or that does not parse) is
// a torn write: it is reported in torn_bytes and, with repair, truncated away. Unparsable
// lines elsewhere are skipped with a warning naming file and line.
struct JsonlContents {
  std::vector<nlohmann::json> records;
  std::vector<std::string> warnings;
  size_t torn_bytes = 0;
  size_t valid_bytes = 0;  // length of the file up to the end of the last good line
};
JsonlContents read_jsonl(const std::string& path);

// Number of CPUs this process may run on.
unsigned usable_cpus();

// "42s", "3m7s", "1h12m": the progress lines' elapsed time and ETA (bench, Slurm driver).
std::string duration_text(double seconds);

// "SIGSEGV (Segmentation fault)".
std::string describe_signal(int sig);

}  // namespace tlmcraft::harness
