// run_suite as a Slurm array task sees it: the header line an attempt starts with, and a
// stop signal that reaches the runner and its workers at once (Slurm signals every
// process of a cancelled job) leaves the killed worker's job without a result.
#include <gtest/gtest.h>

#include "harness/suite_runner.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

TEST(SuiteRunnerInterrupt, WorkerKilledByTheStopSignalLeavesNoResultAndHeaderComesFirst) {
  test::ScratchDir dir;
  SuiteJob job;
  job.platform = "fake";
  job.task = "cancelled";
  job.config = "C1";
  SuiteOptions o;
  o.out_path = dir.file("r.jsonl");
  o.jobs = 1;
  o.progress = ProgressMode::Quiet;
  o.handle_interrupts = true;
  o.header = json{{"shard_header", {{"shard", 1}}}};
  // SIGTERM to the runner (its parent), then to itself: what scancel does to a whole job.
  o.command = [](const SuiteJob&) { return std::vector<std::string>{"sh", "-c", "kill -TERM $PPID; kill -TERM $$"}; };
  const SuiteOutcome out = run_suite({job}, o);
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(out.ran, 0u);
  EXPECT_EQ(test::read_lines(o.out_path), std::vector<std::string>{R"({"shard_header":{"shard":1}})"});
}

}  // namespace
}  // namespace tlmcraft::harness
