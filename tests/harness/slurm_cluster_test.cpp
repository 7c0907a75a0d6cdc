// The Slurm executor against a real Slurm: each test starts its own single-node cluster
// (scripts/slurm-local-cluster.sh, own state directory and ports) and stops it at the end.
// Without Slurm installed the tests skip, except under CI=true where they must run.
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/slurm_client.h"
#include "harness/slurm_shards.h"
#include "harness/suite_runner.h"
#include "tests/harness/test_util.h"

extern char** environ;

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kClusterScript = std::string(TLMCRAFT_SOURCE_DIR) + "/scripts/slurm-local-cluster.sh";

bool slurm_installed() {
  return std::system("command -v slurmctld >/dev/null 2>&1 || test -x /usr/sbin/slurmctld") == 0 &&
         std::system("command -v sbatch >/dev/null 2>&1") == 0 &&
         std::system("command -v munged >/dev/null 2>&1 || test -x /usr/sbin/munged") == 0;
}

bool port_free(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) close(fd);
  return ok;
}

// Two free ports (slurmctld, slurmd), so concurrent test runs on one machine do not meet.
// Below Linux's ephemeral range (32768-60999): a client socket of another cluster started
// in parallel could otherwise take the port between this check and the daemon's bind.
int free_port_pair() {
  for (int i = 0; i < 500; ++i) {
    const int port = 20000 + int((unsigned(getpid()) * 7 + unsigned(i) * 2) % 12000);
    if (port_free(port) && port_free(port + 1)) return port;
  }
  return 6917;
}

// A running single-node cluster; SLURM_CONF points at it while the object lives.
class LocalCluster {
 public:
  LocalCluster(const std::string& dir, int port) : dir_(dir) {
    const std::string cmd = "TLMCRAFT_SLURM_PORT=" + std::to_string(port) + " '" + kClusterScript + "' start '" + dir +
                            "' > '" + dir + ".start.log' 2>&1";
    started_ = std::system(cmd.c_str()) == 0;
    setenv("SLURM_CONF", (dir + "/slurm.conf").c_str(), 1);
  }
  ~LocalCluster() {
    std::system(("'" + kClusterScript + "' stop '" + dir_ + "' >/dev/null 2>&1").c_str());
    unsetenv("SLURM_CONF");
  }
  bool started() const { return started_; }
  std::string start_log() const { return test::read_text(dir_ + ".start.log"); }

 private:
  std::string dir_;
  bool started_ = false;
};

// `tlmcraft ARGS > out 2> err` in the background.
class Background {
 public:
  Background(const std::string& args, const std::string& out, const std::string& err) {
    const std::string cmd = std::string("exec '") + TLMCRAFT_EXE + "' " + args + " > '" + out + "' 2> '" + err + "'";
    const char* argv[] = {"/bin/sh", "-c", cmd.c_str(), nullptr};
    if (posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) pid_ = -1;
  }
  // Exit code, or -1 when it did not end within `limit`.
  int wait(std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > until) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return -1;
      }
      std::this_thread::sleep_for(50ms);
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ~Background() {
    if (pid_ > 0) wait(0s);
  }

 private:
  pid_t pid_ = -1;
};

// How long a test waits for something that normally takes seconds: a bound for a broken
// run only, far above what a loaded host needs (ctest's TIMEOUT for these tests is 1200 s).
constexpr auto kPatience = 600s;

int run(const std::string& args, const std::string& out, const std::string& err) {
  Background b(args, out, err);
  return b.wait(kPatience);
}

// The host-time fields differ between any two runs: how long things took on the host.
json without_host_time(json r) {
  r.erase("host_seconds");
  if (r.contains("worker") && r["worker"].is_object()) r["worker"].erase("seconds");
  return r;
}

std::map<std::string, std::vector<json>> by_key(const std::string& path) {
  std::map<std::string, std::vector<json>> out;
  for (const auto& r : read_jsonl(path).records) out[record_key(r)].push_back(r);
  return out;
}

// Every shard log of a run, for a failure message (the scratch directory goes with the test).
std::string shard_logs(const SlurmRunDir& rd) {
  std::string all;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(rd.logs_dir(), ec))
    all += "--- " + e.path().filename().string() + "\n" + test::read_text(e.path().string());
  return all;
}

size_t result_lines(const std::string& path) {
  if (access(path.c_str(), R_OK) != 0) return 0;
  size_t n = 0;
  for (const auto& r : read_jsonl(path).records) n += !record_key(r).empty();
  return n;
}

#define REQUIRE_SLURM()                                                                       \
  do {                                                                                        \
    if (!slurm_installed()) {                                                                 \
      const char* ci = std::getenv("CI");                                                     \
      if (ci && std::string(ci) == "true")                                                    \
        FAIL() << "Slurm is not installed (scripts/install-deps.sh slurm-wlm munge)";         \
      GTEST_SKIP() << "Slurm is not installed (scripts/install-deps.sh slurm-wlm munge)";     \
    }                                                                                         \
  } while (0)

TEST(SlurmCluster, ShardCancelledMidwayIsResubmittedAndEveryResultLandsOnce) {
  REQUIRE_SLURM();
  test::ScratchDir dir;
  LocalCluster cluster(dir.file("cluster"), free_port_pair());
  ASSERT_TRUE(cluster.started()) << cluster.start_log();

  const std::string selection = "bench --platform plena,coral --config C1 --trials 1 --quiet --json";
  const int local_rc = run(selection + " --jobs 2 --out '" + dir.file("local.jsonl") + "'", dir.file("lo"), dir.file("le"));
  ASSERT_TRUE(local_rc == 0 || local_rc == 1) << test::read_text(dir.file("le"));
  const auto local = by_key(dir.file("local.jsonl"));
  ASSERT_GE(local.size(), 40u);

  const SlurmRunDir rd(dir.file("run"));
  Background driver(selection + " --out '" + dir.file("slurm.jsonl") + "' --executor slurm --slurm-dir '" + rd.root() +
                        "' --shard-size 10 --cpus-per-task 1 --poll 0.3",
                    dir.file("so"), dir.file("se"));
  // Cancel shard 2 as soon as it has written its first result, while the rest still run.
  size_t done_at_cancel = 0;
  std::string cancelled;
  for (auto until = std::chrono::steady_clock::now() + kPatience; std::chrono::steady_clock::now() < until;) {
    done_at_cancel = result_lines(rd.results(2));
    const auto states = read_shard_states(rd.state());
    if (done_at_cancel > 0 && states.count(2)) {
      cancelled = states.at(2).slurm_job;
      ASSERT_EQ(run_command({"scancel", cancelled}).exit_code, 0);
      break;
    }
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_FALSE(cancelled.empty()) << "shard 2 never started: " << test::read_text(dir.file("se"));
  EXPECT_LT(done_at_cancel, 10u) << "shard 2 finished before it could be cancelled";
  const int rc = driver.wait(kPatience);
  const std::string err = test::read_text(dir.file("se"));
  EXPECT_EQ(rc, local_rc) << err;
  EXPECT_NE(err.find("shard 2 (" + cancelled + ") ended "), std::string::npos) << err;
  EXPECT_NE(err.find("job(s) missing: resubmitted"), std::string::npos) << err;
  EXPECT_EQ(read_shard_states(rd.state()).at(2).attempts, 2);

  const auto slurm = by_key(dir.file("slurm.jsonl"));
  ASSERT_EQ(slurm.size(), local.size());
  for (const auto& [key, records] : slurm) {
    ASSERT_EQ(records.size(), 1u) << key << " recorded " << records.size() << " times";
    ASSERT_TRUE(local.count(key)) << key;
    EXPECT_EQ(without_host_time(records[0]), without_host_time(local.at(key)[0])) << key;
  }
  EXPECT_EQ(json::parse(test::read_text(dir.file("so"))), json::parse(test::read_text(dir.file("lo"))));
}

TEST(SlurmCluster, ShardOverItsTimeLimitIsResubmitted) {
  REQUIRE_SLURM();
  test::ScratchDir dir;
  LocalCluster cluster(dir.file("cluster"), free_port_pair());
  ASSERT_TRUE(cluster.started()) << cluster.start_log();
  const SlurmRunDir rd(dir.file("run"));
  // A site template whose first attempt of shard 1 stalls (a hung node, a slow filesystem).
  // Only that attempt has a time limit of one minute (a job may lower its own limit); the
  // others keep --time 30, so however slow the host, no working shard meets its limit.
  test::write_text(dir.file("site.sh"), "#!/bin/sh\n#SBATCH --comment=tlmcraft-test\n"
                                        "if [ \"$SLURM_ARRAY_TASK_ID\" = 1 ] && mkdir '" + dir.file("stalled") +
                                            "' 2>/dev/null && scontrol update JobId=$SLURM_JOB_ID TimeLimit=1; then "
                                            "sleep 600; fi\n");
  const int rc = run("bench --platform plena --task relu,silu,gemm --config C1 --trials 1 --quiet --json --out '" +
                         dir.file("r.jsonl") + "' --executor slurm --slurm-dir '" + rd.root() +
                         "' --shard-size 2 --time 30 --max-retries 1 --poll 1 --sbatch-template '" + dir.file("site.sh") + "'",
                     dir.file("o"), dir.file("e"));
  const std::string err = test::read_text(dir.file("e"));
  EXPECT_EQ(rc, 0) << err << shard_logs(rd);
  const auto states = read_shard_states(rd.state());
  const size_t at = err.find("shard 1 (");
  ASSERT_NE(at, std::string::npos) << err;
  EXPECT_EQ(err.find(") ended TIMEOUT with 2 job(s) missing: resubmitted", at), err.find(')', at)) << err;
  EXPECT_EQ(states.at(1).attempts, 2);
  EXPECT_EQ(states.at(2).attempts, 1);
  const auto results = by_key(dir.file("r.jsonl"));
  ASSERT_EQ(results.size(), 3u);
  for (const auto& [key, records] : results) EXPECT_EQ(records.size(), 1u) << key;
  EXPECT_NE(test::read_text(rd.script()).find("#SBATCH --comment=tlmcraft-test\n"), std::string::npos);
}
// `sweep --executor slurm`: a 2-variant grid over PLENA's prefetch bandwidth, run as shards
// on the cluster, gives the same store and tables as the local sweep (variant and
// provenance travel with each shard's jobs).
TEST(SlurmCluster, SweepOnTheClusterEqualsTheLocalSweep) {
  REQUIRE_SLURM();
  test::ScratchDir dir;
  LocalCluster cluster(dir.file("cluster"), free_port_pair());
  ASSERT_TRUE(cluster.started()) << cluster.start_log();

  const std::string sweep =
      "sweep --platform plena --task gemv,silu,relu --config C1 --trials 1 --quiet --json "
      "--set timing.mode=pipelined --grid timing.dma.prefetch.bytes_per_cycle=64,32 ";
  const int local_rc = run(sweep + "--jobs 2 --out '" + dir.file("local.jsonl") + "'", dir.file("lo"), dir.file("le"));
  ASSERT_EQ(local_rc, 0) << test::read_text(dir.file("le"));
  const int rc = run(sweep + "--out '" + dir.file("slurm.jsonl") + "' --executor slurm --slurm-dir '" +
                         dir.file("run") + "' --shard-size 2 --cpus-per-task 1 --poll 0.3",
                     dir.file("so"), dir.file("se"));
  ASSERT_EQ(rc, 0) << test::read_text(dir.file("se"));

  const auto local = by_key(dir.file("local.jsonl"));
  const auto slurm = by_key(dir.file("slurm.jsonl"));
  ASSERT_EQ(local.size(), 6u);
  ASSERT_EQ(slurm.size(), local.size());
  for (const auto& [key, records] : slurm) {
    ASSERT_EQ(records.size(), 1u) << key;
    ASSERT_TRUE(local.count(key)) << key;
    EXPECT_EQ(without_host_time(records[0]), without_host_time(local.at(key)[0])) << key;
  }
  EXPECT_EQ(json::parse(test::read_text(dir.file("so"))), json::parse(test::read_text(dir.file("lo"))));
}

// `codesign explore --executor slurm`: every ISA variant's suite evaluation runs as
// Slurm shards (one run directory per variant under --slurm-dir) and gives the store,
// front and table the local explore gives; a rerun submits nothing and evaluates nothing.
TEST(SlurmCluster, CodesignExploreOnTheClusterEqualsTheLocalExplore) {
  REQUIRE_SLURM();
  test::ScratchDir dir;
  LocalCluster cluster(dir.file("cluster"), free_port_pair());
  ASSERT_TRUE(cluster.started()) << cluster.start_log();

  const std::string suite = "--platform plena --tasks silu,softmax --configs C1 ";
  ASSERT_EQ(run("codesign mine " + suite + "--top 3 --out '" + dir.file("mine") + "'", dir.file("mo"), dir.file("me")),
            0)
      << test::read_text(dir.file("me"));
  const std::string explore = "codesign explore " + suite + "--candidates '" + dir.file("mine/candidates.yaml") +
                              "' --area-budget 25% --strategy nsga2 --population 4 --generations 2 ";
  ASSERT_EQ(run(explore + "--jobs 2 --out '" + dir.file("local") + "'", dir.file("lo"), dir.file("le")), 0)
      << test::read_text(dir.file("le"));
  const std::string on_slurm = explore + "--out '" + dir.file("slurm") + "' --executor slurm --slurm-dir '" +
                               dir.file("run") + "' --shard-size 1 --cpus-per-task 1 --poll 0.3";
  ASSERT_EQ(run(on_slurm, dir.file("so"), dir.file("se")), 0) << test::read_text(dir.file("se"));

  const std::vector<std::string> local = test::read_lines(dir.file("local/explore.jsonl"));
  const std::vector<std::string> slurm = test::read_lines(dir.file("slurm/explore.jsonl"));
  ASSERT_GE(local.size(), 4u);  // base and the three candidates alone at least
  ASSERT_EQ(slurm.size(), local.size());
  for (size_t i = 0; i < local.size(); ++i) {
    const json l = json::parse(local[i]), s = json::parse(slurm[i]);
    EXPECT_EQ(s, l) << "store line " << i + 1;
    // Two cells, each its own shard, in the variant's own run directory.
    const SlurmRunDir rd(dir.file("run/" + l["id"].get<std::string>()));
    EXPECT_EQ(read_shard_states(rd.state()).size(), 2u) << l["id"];
  }
  EXPECT_EQ(test::read_text(dir.file("so")), test::read_text(dir.file("lo")));
  EXPECT_EQ(json::parse(test::read_text(dir.file("slurm/summary.json")))["pareto"],
            json::parse(test::read_text(dir.file("local/summary.json")))["pareto"]);

  const std::string state_before = test::read_text(SlurmRunDir(dir.file("run/base")).state());
  ASSERT_EQ(run(on_slurm, dir.file("so2"), dir.file("se2")), 0) << test::read_text(dir.file("se2"));
  EXPECT_EQ(test::read_lines(dir.file("slurm/explore.jsonl")), slurm);
  EXPECT_EQ(test::read_text(dir.file("so2")), test::read_text(dir.file("so")));
  EXPECT_EQ(test::read_text(SlurmRunDir(dir.file("run/base")).state()), state_before);
}

}  // namespace
}  // namespace tlmcraft::harness
