// The files the Slurm executor shares with its array tasks, the results store it merges
// into and the sbatch command line it builds: all without a Slurm installation.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/result_store.h"
#include "harness/slurm_client.h"
#include "harness/slurm_shards.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

SuiteJob job(const std::string& task) {
  SuiteJob j;
  j.platform = "plena";
  j.task = task;
  j.config = "C1";
  j.level = 1;
  j.extra_args = {"--trials", "1"};
  return j;
}

json result(const std::string& task, const std::string& status) {
  return {{"status", status}, {"task", task}, {"job", job_json(job(task))}};
}

TEST(SlurmShards, SpecRoundTrip) {
  test::ScratchDir dir;
  ShardSpec spec;
  spec.shard = 7;
  spec.version = "v1";
  spec.timeout_seconds = 12.5;
  spec.jobs = {{job("relu"), {"/bin/tlmcraft", "run", "--task", "relu"}}};
  write_shard_spec(dir.file("0007.json"), spec);
  const ShardSpec back = read_shard_spec(dir.file("0007.json"));
  EXPECT_EQ(back.shard, 7);
  EXPECT_EQ(back.version, "v1");
  EXPECT_EQ(back.timeout_seconds, 12.5);
  ASSERT_EQ(back.jobs.size(), 1u);
  EXPECT_EQ(job_key(back.jobs[0].job), job_key(job("relu")));
  EXPECT_EQ(back.jobs[0].job.level, 1);
  EXPECT_EQ(back.jobs[0].job.extra_args, (std::vector<std::string>{"--trials", "1"}));
  EXPECT_EQ(back.jobs[0].argv, (std::vector<std::string>{"/bin/tlmcraft", "run", "--task", "relu"}));
}

TEST(SlurmShards, MalformedSpecNamesFileAndCause) {
  test::ScratchDir dir;
  const auto error_of = [&](const std::string& text) {
    test::write_text(dir.file("s.json"), text);
    try {
      read_shard_spec(dir.file("s.json"));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("{not json"), dir.file("s.json") + ": not a JSON object");
  EXPECT_EQ(error_of(R"({"schema":"other"})"), dir.file("s.json") + ": not a tlmcraft.shard/1 file");
  EXPECT_EQ(error_of(R"({"schema":"tlmcraft.shard/1","shard":1,"version":"v","jobs":[{"job":{"platform":"p"}}]})"),
            dir.file("s.json") + ": 'task' missing or not a string");
  EXPECT_EQ(error_of(R"({"schema":"tlmcraft.shard/1","shard":1,"version":"v","jobs":[{"job":{"platform":"p","task":"t","config":"C1","kernel":"baseline"}}]})"),
            dir.file("s.json") + ": job t/C1 has no argv");
  try {
    read_shard_spec(dir.file("absent.json"));
    FAIL() << "no error for a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("absent.json") + ": cannot read the file");
  }
}

TEST(SlurmShards, ResultsDropTornLineAndKeepHeadersOut) {
  test::ScratchDir dir;
  test::write_text(dir.file("0001.jsonl"), shard_header(1, "v1", "5_1").dump() + "\n" + result("relu", "pass").dump() +
                                               "\n" + shard_header(1, "v1", "6_1").dump() + "\n" +
                                               result("silu", "pass").dump() + "\n{\"status\":\"pa");
  const ShardResults r = read_shard_results(dir.file("0001.jsonl"), "v1");
  EXPECT_EQ(r.refused, "");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0]["task"], "relu");
  EXPECT_EQ(r.records[1]["task"], "silu");
}

TEST(SlurmShards, ResultsOfAnotherVersionAreRefusedWithTheReason) {
  test::ScratchDir dir;
  const std::string file = dir.file("0002.jsonl");
  test::write_text(file, shard_header(2, "v1", "5_2").dump() + "\n" + result("relu", "pass").dump() + "\n" +
                             shard_header(2, "v0-old", "9_2").dump() + "\n");
  const ShardResults r = read_shard_results(file, "v1");
  EXPECT_TRUE(r.records.empty());
  EXPECT_EQ(r.refused, file + " was written by tlmcraft v0-old (Slurm job 9_2), but this is tlmcraft v1; results of "
                              "different versions are not mixed (delete the file to run the shard again)");
  test::write_text(file, result("relu", "pass").dump() + "\n");
  EXPECT_EQ(read_shard_results(file, "v1").refused,
            file + " has results but no shard header naming the tlmcraft version that wrote them");
  EXPECT_EQ(foreign_results_reason(dir.file("absent.jsonl"), "v1"), "");
}

TEST(SlurmShards, ShardNumberFromFileName) {
  EXPECT_EQ(shard_of_file("/x/results/0003.jsonl"), 3);
  EXPECT_EQ(shard_of_file("0012.copy.jsonl"), 12);
  EXPECT_EQ(shard_of_file("notes.jsonl"), -1);
}

TEST(SlurmShards, StatesRoundTripAndMalformedStateIsAnError) {
  test::ScratchDir dir;
  write_shard_states(dir.file("state.json"), {{3, {"41_3", 2, "TIMEOUT"}}});
  const auto states = read_shard_states(dir.file("state.json"));
  ASSERT_EQ(states.count(3), 1u);
  EXPECT_EQ(states.at(3).slurm_job, "41_3");
  EXPECT_EQ(states.at(3).attempts, 2);
  EXPECT_EQ(states.at(3).last_state, "TIMEOUT");
  EXPECT_TRUE(read_shard_states(dir.file("absent.json")).empty());
  test::write_text(dir.file("bad.json"), R"({"shards":{"x":{}}})");
  EXPECT_THROW(read_shard_states(dir.file("bad.json")), std::runtime_error);
}

TEST(SlurmClient, ArrayRangesAndSbatchCommandLine) {
  EXPECT_EQ(array_ranges({5, 1, 2, 3, 9, 10, 3}), "1-3,5,9-10");
  SbatchRequest q;
  q.script = "/r/shard.sbatch";
  q.tasks = {2, 3, 4};
  q.throttle = 2;
  q.job_name = "tlmcraft";
  q.output_pattern = "/r/logs/%A_%a.out";
  q.workdir = "/home/u";
  q.partition = "batch";
  q.time = "30";
  q.mem = "2G";
  q.cpus_per_task = 4;
  q.extra = {"--account=hw", "--qos=low"};
  EXPECT_EQ(sbatch_argv(q),
            (std::vector<std::string>{"sbatch", "--parsable", "--array=2-4%2", "--job-name=tlmcraft",
                                      "--output=/r/logs/%A_%a.out", "--chdir=/home/u", "--cpus-per-task=4",
                                      "--partition=batch", "--time=30", "--mem=2G", "--account=hw", "--qos=low",
                                      "/r/shard.sbatch"}));
  EXPECT_TRUE(is_final_state("TIMEOUT"));
  EXPECT_TRUE(is_final_state("PREEMPTED"));
  EXPECT_FALSE(is_final_state("RUNNING"));
  EXPECT_FALSE(is_final_state("PENDING"));
  EXPECT_FALSE(is_final_state("COMPLETING"));
}

TEST(SlurmClient, MissingProgramIsReportedNotThrown) {
  const CommandResult r = run_command({"tlmcraft-no-such-program-xyz"});
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.err, "cannot run 'tlmcraft-no-such-program-xyz': No such file or directory");
}

TEST(ResultStore, KeepsFirstRecordPerKeyAndRepairsTornTail) {
  test::ScratchDir dir;
  const std::string path = dir.file("r.jsonl");
  test::write_text(path, result("relu", "pass").dump() + "\n" + result("relu", "fail").dump() + "\n{\"torn");
  {
    ResultStore store(path, false, 0);
    EXPECT_EQ(store.dropped_torn_bytes(), 6u);  // {"torn
    const std::string relu = job_key(job("relu"));
    ASSERT_TRUE(store.contains(relu));
    EXPECT_EQ(store.at(relu)["status"], "pass");
    EXPECT_FALSE(store.add(relu, result("relu", "other")));
    EXPECT_TRUE(store.add(job_key(job("silu")), result("silu", "pass")));
    EXPECT_THROW(ResultStore(path, false, 0), std::runtime_error);  // locked by `store`
  }
  const auto lines = test::read_lines(path);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(json::parse(lines[2])["task"], "silu");
}

}  // namespace
}  // namespace tlmcraft::harness
