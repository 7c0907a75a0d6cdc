// The Slurm executor's merge and the `tlmcraft worker` shard runner through the real
// executable, without Slurm: a run directory prepared by hand holds what array tasks leave
// behind (a duplicate shard file, a torn last line, results of another tlmcraft version).
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/provenance.h"
#include "harness/slurm_shards.h"
#include "harness/suite_runner.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

#ifdef TLMCRAFT_EXE
int run(const std::string& args, const std::string& out_file, const std::string& err_file, const std::string& env = "") {
  const std::string cmd = env + "'" + TLMCRAFT_EXE + "' " + args + " > '" + out_file + "' 2> '" + err_file + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// The version the executable stamps on shards ("tlmcraft <version>" from --version).
std::string exe_version(const test::ScratchDir& dir) {
  run("--version", dir.file("v.txt"), dir.file("v.err"));
  std::string v = test::read_text(dir.file("v.txt"));
  v = v.substr(std::string("tlmcraft ").size());
  while (!v.empty() && v.back() == '\n') v.pop_back();
  return v;
}

// A PLENA C1 job of the default variant, as `bench` plans it (the variant is part of the key).
SuiteJob plena_c1(const std::string& task) {
  static const json provenance = variant_provenance("plena", VariantSpec{});
  SuiteJob j;
  j.platform = "plena";
  j.task = task;
  j.config = "C1";
  j.variant = provenance["variant"].get<std::string>();
  j.provenance = provenance;
  return j;
}

json record(const std::string& task, const std::string& status) {
  return {{"schema", "tlmcraft.report/1"}, {"task", task}, {"status", status}, {"job", job_json(plena_c1(task))}};
}

void write_spec(const SlurmRunDir& rd, int shard, const std::string& version, const std::vector<std::string>& tasks,
                const std::vector<std::string>& argv = {"/bin/false"}) {
  ShardSpec spec;
  spec.shard = shard;
  spec.version = version;
  spec.timeout_seconds = 10;
  for (const auto& t : tasks) spec.jobs.push_back({plena_c1(t), argv});
  write_shard_spec(rd.spec(shard), spec);
}
#endif

TEST(CliSlurmOffline, CollectMergesDuplicateAndTornFilesOnceAndRefusesAnotherVersion) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string version = exe_version(dir);
  ASSERT_FALSE(version.empty());
  const SlurmRunDir rd(dir.file("run"));
  rd.create();
  write_spec(rd, 1, version, {"relu", "silu"});
  write_spec(rd, 2, version, {"gemm"});
  const std::string header = shard_header(1, version, "7_1").dump() + "\n";
  // Shard 1: silu's line torn in the shard file, complete in a copy that repeats relu.
  test::write_text(rd.results(1), header + record("relu", "pass").dump() + "\n" + "{\"schema\":\"tlmcraft.rep");
  test::write_text(rd.results_dir() + "/0001.copy.jsonl",
                   header + record("relu", "pass").dump() + "\n" + record("silu", "wrong_output").dump() + "\n");
  // Shard 2 was written by another build.
  test::write_text(rd.results(2), shard_header(2, "v0-other", "7_2").dump() + "\n" + record("gemm", "pass").dump() + "\n");

  const std::string results = dir.file("r.jsonl");
  const int rc = run("bench --platform plena --task relu,silu,gemm --config C1 --out '" + results +
                         "' --executor slurm --collect --slurm-dir '" + rd.root() + "' --quiet --json",
                     dir.file("out.txt"), dir.file("err.txt"));
  const std::string err = test::read_text(dir.file("err.txt"));
  EXPECT_EQ(rc, 130) << err;  // gemm has no result: rerun after deleting the foreign file
  EXPECT_NE(err.find("not merged: " + rd.results(2) + " was written by tlmcraft v0-other (Slurm job 7_2), but this is "
                     "tlmcraft " + version),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("shard 2 not run: "), std::string::npos) << err;

  const auto c = read_jsonl(results);
  ASSERT_EQ(c.records.size(), 2u);
  std::map<std::string, std::string> status;
  for (const auto& r : c.records) status[r["job"]["task"].get<std::string>()] += r["status"].get<std::string>();
  EXPECT_EQ(status, (std::map<std::string, std::string>{{"relu", "pass"}, {"silu", "wrong_output"}}));
  const json summary = json::parse(test::read_text(dir.file("out.txt")));
  EXPECT_EQ(summary["overall"]["run"], 2);
  EXPECT_EQ(summary["overall"]["passed"], 1);
#endif
}

TEST(CliSlurmOffline, WorkerRunsItsShardAndRefusesAnotherVersion) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string version = exe_version(dir);
  const SlurmRunDir rd(dir.file("run"));
  rd.create();
  write_spec(rd, 4, version, {"relu", "silu"}, {"/bin/sh", "-c", "echo '{\"status\":\"pass\"}'"});
  EXPECT_EQ(run("worker --run-dir '" + rd.root() + "' --shard 4 --jobs 2", dir.file("o4"), dir.file("e4")), 0)
      << test::read_text(dir.file("e4"));
  const auto c = read_jsonl(rd.results(4));
  ASSERT_EQ(c.records.size(), 3u);
  EXPECT_EQ(c.records[0]["shard_header"]["version"], version);
  EXPECT_EQ(c.records[0]["shard_header"]["shard"], 4);
  EXPECT_EQ(c.records[1]["status"], "pass");
  EXPECT_EQ(c.records[2]["status"], "pass");

  write_spec(rd, 5, "v0-other", {"relu"});
  EXPECT_EQ(run("worker --run-dir '" + rd.root() + "' --shard 5", dir.file("o5"), dir.file("e5")), 2);
  const std::string reason = rd.spec(5) + " was planned by tlmcraft v0-other but this worker is tlmcraft " + version +
                             " (install the same build on every node)";
  EXPECT_EQ(test::read_text(dir.file("e5")), "tlmcraft worker: refused: " + reason + "\n");
  EXPECT_EQ(test::read_text(rd.refusal(5)), reason + "\n");

  EXPECT_EQ(run("worker --run-dir '" + rd.root() + "' --shard 6", dir.file("o6"), dir.file("e6")), 2);
  EXPECT_EQ(test::read_text(dir.file("e6")), "tlmcraft worker: error: " + rd.spec(6) + ": cannot read the file\n");
#endif
}

TEST(CliSlurmOffline, SlurmOptionsNeedTheSlurmExecutor) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  EXPECT_EQ(run("bench --platform plena --task relu --config C1 --partition batch --out '" + dir.file("r.jsonl") + "'",
                dir.file("o"), dir.file("e")),
            2);
  EXPECT_EQ(test::read_text(dir.file("e")), "tlmcraft bench: error: --partition needs --executor slurm\n");
  EXPECT_EQ(run("bench --platform plena --task relu --config C1 --executor pbs --out '" + dir.file("r.jsonl") + "'",
                dir.file("o"), dir.file("e")),
            2);
  EXPECT_EQ(test::read_text(dir.file("e")), "tlmcraft bench: error: --executor: 'pbs' is not local or slurm\n");
  EXPECT_EQ(run("agent-bench --platform plena --tasks relu --out '" + dir.path() + "' --executor slurm --shard-size 0",
                dir.file("o"), dir.file("e")),
            2);
  EXPECT_EQ(test::read_text(dir.file("e")), "tlmcraft agent-bench: error: --shard-size must be at least 1\n");
#endif
}


// A stand-in Slurm on PATH whose array tasks always fail without running: the driver
// resubmits up to --max-retries, then gives up naming the shard, its state and its log.
TEST(CliSlurmOffline, ShardThatKeepsFailingIsGivenUpAfterTheRetries) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string bin = dir.file("bin");
  std::filesystem::create_directories(bin);
  // sbatch: logs its arguments, answers job ids 77, 78, ...; squeue: every task FAILED.
  test::write_text(bin + "/sbatch", "#!/bin/sh\necho \"$@\" >> '" + dir.file("sbatch.log") +
                                        "'\nn=$(wc -l < '" + dir.file("sbatch.log") + "')\necho $((76 + n))\n");
  test::write_text(bin + "/squeue", "#!/bin/sh\nn=$(wc -l < '" + dir.file("sbatch.log") +
                                        "')\nfor i in $(seq 1 $n); do echo \"$((76 + i))|1|FAILED|NonZeroExitCode\"; done\n");
  std::filesystem::permissions(bin + "/sbatch", std::filesystem::perms::owner_all);
  std::filesystem::permissions(bin + "/squeue", std::filesystem::perms::owner_all);

  const std::string run_dir = dir.file("run");
  const int rc = run("bench --platform plena --task relu --config C1 --out '" + dir.file("r.jsonl") +
                         "' --executor slurm --slurm-dir '" + run_dir + "' --poll 0.05 --max-retries 1 --partition batch "
                         "--sbatch-option=--account=hw --quiet",
                     dir.file("o"), dir.file("e"), "PATH='" + bin + "':\"$PATH\" ");
  const std::string err = test::read_text(dir.file("e"));
  EXPECT_EQ(rc, 130) << err;
  EXPECT_NE(err.find("shard 1 (77_1) ended FAILED with 1 job(s) missing: resubmitted"), std::string::npos) << err;
  EXPECT_NE(err.find("shard 1 (78_1) gave up after 2 attempts, last FAILED; 1 job(s) missing (log: " + run_dir +
                     "/logs/78_1.out); rerun to try again"),
            std::string::npos)
      << err;
  const auto submissions = test::read_lines(dir.file("sbatch.log"));
  ASSERT_EQ(submissions.size(), 2u);
  EXPECT_EQ(submissions[0], "--parsable --array=1 --job-name=tlmcraft --output=" + run_dir + "/logs/%A_%a.out --chdir=" +
                                std::filesystem::current_path().string() + " --cpus-per-task=1 --partition=batch "
                                "--account=hw " + run_dir + "/shard.sbatch");
  EXPECT_EQ(read_jsonl(dir.file("r.jsonl")).records.size(), 0u);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
