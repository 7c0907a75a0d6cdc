// Suite runner with fake workers (`sh -c` scripts chosen by the job's task name): good
// reports, a crash by signal, a hang, garbage output, a usage error; resume after SIGKILL
// of the runner; torn-line repair; locking; progress output.
#include "harness/suite_runner.h"

#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;
using test::ScratchDir;

std::string report_json(const std::string& status, int cycles) {
  return json({{"schema", "tlmcraft.report/1"}, {"status", status}, {"cycles", cycles}, {"reason", ""}}).dump();
}

// The file "gated" jobs wait for before they report.
std::string g_gate;

// The fake worker: what it does is picked by the task name.
std::vector<std::string> fake_worker(const SuiteJob& job) {
  std::string script;
  const std::string& t = job.task;
  if (t.rfind("ok", 0) == 0) script = "printf '%s\\n' '" + report_json("pass", 10) + "'";
  else if (t == "fail") script = "printf '%s\\n' '" + report_json("fail", 12) + "'; exit 1";
  else if (t == "logs") script = "echo 'evaluating...'; printf '%s\\n' '" + report_json("pass", 7) + "'";
  else if (t == "segv") script = "echo 'about to crash' >&2; kill -SEGV $$";
  else if (t == "hang") script = "echo 'stuck' >&2; sleep 30";
  else if (t == "garbage") script = "echo 'this is not json'";
  else if (t == "usage") script = "echo 'tlmcraft run: error: unknown task' >&2; exit 2";
  else if (t == "background") script = "sleep 30 & printf '%s\\n' '" + report_json("pass", 3) + "'";
  else if (t.rfind("slow", 0) == 0) script = "sleep 0.05; printf '%s\\n' '" + report_json("pass", 5) + "'";
  else if (t.rfind("gated", 0) == 0)
    script = "while [ ! -e '" + g_gate + "' ]; do sleep 0.01; done; printf '%s\\n' '" + report_json("pass", 5) + "'";
  else script = "exit 3";
  return {"sh", "-c", script};
}

SuiteJob job(const std::string& task, const std::string& config = "C1") {
  SuiteJob j;
  j.platform = "fake";
  j.task = task;
  j.config = config;
  return j;
}

SuiteOptions options_for(const std::string& out) {
  SuiteOptions o;
  o.out_path = out;
  o.jobs = 4;
  o.timeout_seconds = 10;
  o.command = fake_worker;
  o.progress = ProgressMode::Quiet;
  o.handle_interrupts = false;
  return o;
}

std::map<std::string, json> by_task(const std::vector<std::string>& lines) {
  std::map<std::string, json> m;
  for (const auto& l : lines) {
    const json j = json::parse(l);
    m[j["job"]["task"].get<std::string>()] = j;
  }
  return m;
}

TEST(SuiteRunner, EveryJobYieldsOneLineWhateverTheWorkerDoes) {
  ScratchDir dir;
  auto opts = options_for(dir.file("out/results.jsonl"));  // parent directory is created
  // Only "hang" (sleep 30) may reach the per-job timeout; at 0.5 s every other job also had
  // to start sh and finish within 0.5 s, which a loaded host need not do.
  opts.timeout_seconds = 5;
  const std::vector<SuiteJob> jobs = {job("ok1"), job("ok2"), job("fail"), job("logs"), job("segv"),
                                      job("hang"), job("garbage"), job("usage"), job("background")};
  const SuiteOutcome out = run_suite(jobs, opts);
  EXPECT_EQ(out.total, 9u);
  EXPECT_EQ(out.ran, 9u);
  EXPECT_EQ(out.skipped, 0u);
  EXPECT_FALSE(out.interrupted);
  // pass: ok1 ok2 logs background; everything else failed.
  EXPECT_EQ(out.passed, 4u);
  EXPECT_EQ(out.failed, 5u);

  const auto lines = test::read_lines(opts.out_path);
  ASSERT_EQ(lines.size(), 9u);
  const auto r = by_task(lines);
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r.at("ok1")["status"], "pass");
  EXPECT_EQ(r.at("ok1")["cycles"], 10);
  EXPECT_EQ(r.at("ok1")["job"], json({{"platform", "fake"}, {"task", "ok1"}, {"config", "C1"}, {"kernel", "baseline"}}));
  EXPECT_EQ(r.at("ok1")["worker"]["exit_code"], 0);
  EXPECT_EQ(r.at("fail")["status"], "fail");
  EXPECT_EQ(r.at("fail")["worker"]["exit_code"], 1);
  EXPECT_EQ(r.at("logs")["cycles"], 7);  // the report is the last stdout line

  EXPECT_EQ(r.at("segv")["status"], "crash");
  EXPECT_EQ(r.at("segv")["worker"]["signal"], "SIGSEGV");
  const std::string segv_reason = r.at("segv")["reason"];
  EXPECT_NE(segv_reason.find("worker killed by signal SIGSEGV"), std::string::npos) << segv_reason;
  EXPECT_NE(segv_reason.find("stderr: about to crash"), std::string::npos) << segv_reason;

  EXPECT_EQ(r.at("hang")["status"], "timeout");
  const std::string hang_reason = r.at("hang")["reason"];
  EXPECT_NE(hang_reason.find("per-job timeout of 5 s"), std::string::npos) << hang_reason;
  EXPECT_NE(hang_reason.find("stderr: stuck"), std::string::npos) << hang_reason;

  EXPECT_EQ(r.at("garbage")["status"], "crash");
  EXPECT_EQ(r.at("garbage")["reason"],
            "worker exited with code 0 without a JSON report; stdout: 'this is not json'");
  EXPECT_EQ(r.at("usage")["status"], "crash");
  EXPECT_EQ(r.at("usage")["reason"],
            "worker exited with code 2 without a JSON report; stderr: tlmcraft run: error: unknown task");
  // The worker's background child holding stdout is killed with its process group.
  EXPECT_EQ(r.at("background")["status"], "pass");
  // Synthesized lines still carry the report fields a summary needs.
  EXPECT_EQ(r.at("hang")["platform"], "fake");
  EXPECT_EQ(r.at("hang")["task"], "hang");
  EXPECT_EQ(r.at("hang")["config"], "C1");
  EXPECT_EQ(r.at("hang")["schema"], "tlmcraft.report/1");
  EXPECT_EQ(r.at("hang")["kernel"], json({{"path", "baseline:hang:C1"}, {"source", "baseline"}}));
}

TEST(SuiteRunner, MissingWorkerProgramIsACrashLine) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  opts.command = [](const SuiteJob&) { return std::vector<std::string>{"tlmcraft-no-such-program"}; };
  const auto out = run_suite({job("a")}, opts);
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0]["status"], "crash");
  EXPECT_EQ(out.results[0]["reason"],
            "could not start the worker: worker program 'tlmcraft-no-such-program' not found in PATH");
}

TEST(SuiteRunner, ResumeSkipsRecordedJobs) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  run_suite({job("ok1"), job("ok2")}, opts);
  const auto out = run_suite({job("ok1"), job("ok2"), job("ok3")}, opts);
  EXPECT_EQ(out.skipped, 2u);
  EXPECT_EQ(out.ran, 1u);
  EXPECT_EQ(out.results.size(), 3u);
  EXPECT_EQ(test::read_lines(opts.out_path).size(), 3u);
  // The key includes config and kernel: another config of ok1 is a new job.
  SuiteJob other_kernel = job("ok1");
  other_kernel.kernel = "k/ok1.asm";
  const auto again = run_suite({job("ok1", "C2"), other_kernel}, opts);
  EXPECT_EQ(again.ran, 2u);
  EXPECT_EQ(test::read_lines(opts.out_path).size(), 5u);
}

TEST(SuiteRunner, KnownResultsAreRecordedWithoutAWorker) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  opts.command = [](const SuiteJob& j) -> std::vector<std::string> {
    if (j.task == "conv2d") ADD_FAILURE() << "a worker was started for a known result";
    return fake_worker(j);
  };
  SuiteJob unsupported = job("conv2d");
  unsupported.known_result = json{{"status", "unsupported"}, {"reason", "no convolution unit"}};
  const auto out = run_suite({unsupported, job("ok1")}, opts);
  EXPECT_EQ(out.ran, 2u);
  EXPECT_EQ(out.unsupported, 1u);
  EXPECT_EQ(out.failed, 0u);
  const auto r = by_task(test::read_lines(opts.out_path));
  EXPECT_EQ(r.at("conv2d"), json({{"status", "unsupported"}, {"reason", "no convolution unit"},
                                  {"job", {{"platform", "fake"}, {"task", "conv2d"}, {"config", "C1"},
                                           {"kernel", "baseline"}}}}));
  EXPECT_EQ(run_suite({unsupported, job("ok1")}, opts).skipped, 2u);
}

TEST(SuiteRunner, FreshRunTruncates) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  run_suite({job("ok1"), job("ok2")}, opts);
  opts.resume = false;
  const auto out = run_suite({job("ok1")}, opts);
  EXPECT_EQ(out.ran, 1u);
  EXPECT_EQ(test::read_lines(opts.out_path).size(), 1u);
}

TEST(SuiteRunner, DuplicateJobsRunOnce) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  const auto out = run_suite({job("ok1"), job("ok1")}, opts);
  EXPECT_EQ(out.total, 1u);
  EXPECT_EQ(out.ran, 1u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0], "duplicate job fake/ok1/C1/baseline ignored");
}

TEST(SuiteRunner, TornLastLineIsDroppedAndItsJobRerun) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  run_suite({job("ok1"), job("ok2")}, opts);
  // Simulate a write cut short by a kill: half of a third line, no newline.
  std::string text = test::read_text(opts.out_path);
  const std::string torn = R"({"schema":"tlmcraft.report/1","status":"pa)";
  test::write_text(opts.out_path, text + torn);

  const auto out = run_suite({job("ok1"), job("ok2"), job("ok3")}, opts);
  EXPECT_EQ(out.dropped_torn_bytes, torn.size());
  EXPECT_EQ(out.skipped, 2u);
  EXPECT_EQ(out.ran, 1u);
  const auto lines = test::read_lines(opts.out_path);
  ASSERT_EQ(lines.size(), 3u);
  for (const auto& l : lines) EXPECT_FALSE(json::parse(l, nullptr, false).is_discarded()) << l;
  EXPECT_EQ(test::read_text(opts.out_path).back(), '\n');
}

TEST(SuiteRunner, UnparsableCompleteLastLineIsAlsoTreatedAsTorn) {
  ScratchDir dir;
  const std::string path = dir.file("r.jsonl");
  const std::string good = R"({"status":"pass","job":{"platform":"fake","task":"ok1","config":"C1","kernel":"baseline"}})";
  test::write_text(path, good + "\n{\"status\":\n");
  const auto c = read_jsonl(path);
  EXPECT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.torn_bytes, std::string("{\"status\":\n").size());
  EXPECT_EQ(c.valid_bytes, good.size() + 1);
}

TEST(SuiteRunner, BadMiddleLineIsSkippedWithAWarningNamingTheLine) {
  ScratchDir dir;
  const std::string path = dir.file("r.jsonl");
  test::write_text(path, "{\"status\":\"pass\"}\nnot json\n{\"status\":\"fail\"}\n");
  const auto c = read_jsonl(path);
  EXPECT_EQ(c.records.size(), 2u);
  EXPECT_EQ(c.torn_bytes, 0u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], path + ":2: not a JSON object, line ignored");
}

TEST(SuiteRunner, MissingResultsFileIsAClearError) {
  try {
    read_jsonl("/nonexistent/dir/r.jsonl");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read results file '/nonexistent/dir/r.jsonl': No such file or directory");
  }
}

TEST(SuiteRunner, RunKilledWithSigkillAndRestartedHasEveryResultExactlyOnce) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  opts.jobs = 2;
  // Three jobs that end, then jobs that wait for the gate: the first run stops with
  // exactly three results however fast or loaded the host is, and is killed there.
  g_gate = dir.file("gate");
  std::vector<SuiteJob> jobs;
  for (int i = 0; i < 16; ++i) jobs.push_back(job((i < 3 ? "slow" : "gated") + std::to_string(i)));

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      run_suite(jobs, opts);
    } catch (...) {
    }
    _exit(0);
  }
  // Kill the runner once the three results are on disk (a bound for a broken runner only).
  size_t seen = 0;
  for (int i = 0; i < 120000 && seen < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    seen = test::read_lines(opts.out_path).size();
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the first run finished before it could be killed";
  const size_t before = read_jsonl(opts.out_path).records.size();
  ASSERT_EQ(before, 3u);
  test::write_text(g_gate, "");  // the second run's gated jobs (and the killed run's orphans) end

  const auto out = run_suite(jobs, opts);
  EXPECT_EQ(out.skipped, before);
  EXPECT_EQ(out.ran, 16u - before);
  std::multiset<std::string> keys;
  for (const auto& r : read_jsonl(opts.out_path).records) keys.insert(record_key(r));
  EXPECT_EQ(keys.size(), 16u);
  for (const auto& j : jobs) EXPECT_EQ(keys.count(job_key(j)), 1u) << j.task;
}

TEST(SuiteRunner, SecondRunOnTheSameFileIsRefused) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  const int fd = open(opts.out_path.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);  // stands in for a concurrent run
  opts.lock_wait_seconds = 0;
  try {
    run_suite({job("ok1")}, opts);
    ADD_FAILURE() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "results file '" + opts.out_path + "' is in use by another suite run");
  }
  close(fd);
}

TEST(SuiteRunner, DefaultWorkerCommand) {
  const auto build = tlmcraft_run_command("/opt/tlmcraft");
  SuiteJob j = job("silu", "C3");
  j.platform = "plena";
  j.extra_args = {"--trials", "1"};
  EXPECT_EQ(build(j), (std::vector<std::string>{"/opt/tlmcraft", "run", "--platform", "plena", "--task", "silu",
                                                 "--config", "C3", "--baseline", "--json", "--trials", "1"}));
  j.kernel = "kernels/plena/silu/C3.asm";
  j.extra_args.clear();
  EXPECT_EQ(build(j), (std::vector<std::string>{"/opt/tlmcraft", "run", "--platform", "plena", "--task", "silu",
                                                 "--config", "C3", "kernels/plena/silu/C3.asm", "--json"}));
}

TEST(SuiteRunner, PlainProgressLinesWhenNotATerminal) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  const std::string progress_path = dir.file("progress.txt");
  const int fd = open(progress_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  opts.progress = ProgressMode::Auto;  // a regular file is not a terminal: lines
  opts.progress_fd = fd;
  run_suite({job("ok1"), job("ok2"), job("fail")}, opts);
  close(fd);
  const auto lines = test::read_lines(progress_path);
  ASSERT_GE(lines.size(), 2u);  // the start line and the final line at least
  EXPECT_EQ(lines.front().rfind("bench: 0/3  pass 0  fail 0  running 0", 0), 0u) << lines.front();
  EXPECT_EQ(lines.back().rfind("bench: 3/3  pass 2  fail 1  running 0", 0), 0u) << lines.back();
  EXPECT_NE(lines.back().find("ETA 0s"), std::string::npos) << lines.back();
}

TEST(SuiteRunner, BarProgressRedrawsOneLine) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  const std::string progress_path = dir.file("progress.txt");
  const int fd = open(progress_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  opts.progress = ProgressMode::Bar;
  opts.progress_fd = fd;
  run_suite({job("ok1"), job("ok2")}, opts);
  close(fd);
  const std::string text = test::read_text(progress_path);
  // Final redraw: full bar (30 '#'), counts, then the newline that ends the bar.
  const std::string last = "\r\033[K[" + std::string(30, '#') + "] 2/2  pass 2  fail 0  running 0";
  EXPECT_NE(text.find(last), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(SuiteRunner, QuietWritesNothing) {
  ScratchDir dir;
  auto opts = options_for(dir.file("r.jsonl"));
  const std::string progress_path = dir.file("progress.txt");
  const int fd = open(progress_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  opts.progress_fd = fd;
  run_suite({job("ok1")}, opts);
  close(fd);
  EXPECT_EQ(test::read_text(progress_path), "");
}

TEST(SuiteRunner, SignalDescriptions) {
  EXPECT_EQ(describe_signal(SIGSEGV).rfind("SIGSEGV (", 0), 0u);
  EXPECT_EQ(describe_signal(SIGKILL).rfind("SIGKILL (", 0), 0u);
}

TEST(SuiteRunner, OptionsAreValidated) {
  SuiteOptions o;
  o.out_path = "x.jsonl";
  EXPECT_THROW(run_suite({job("ok1")}, o), std::runtime_error);  // no command
  o.command = fake_worker;
  o.out_path.clear();
  EXPECT_THROW(run_suite({job("ok1")}, o), std::runtime_error);  // no output file
}

}  // namespace
}  // namespace tlmcraft::harness
