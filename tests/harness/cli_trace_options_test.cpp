// `tlmcraft run`'s trace options through the real executable: --scope keeps only the
// named tracks, --perfetto *.gz writes gzip, and bad values are rejected with a message.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

#ifdef TLMCRAFT_EXE
int run(const std::string& args, const std::string& out_file, const std::string& err_file) {
  const std::string cmd = std::string("SYSC_DISABLE_COPYRIGHT_MESSAGE=1 '") + TLMCRAFT_EXE + "' " + args + " > '" +
                          out_file + "' 2> '" + err_file + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
const std::string kSilu = std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm";
#endif

TEST(CliTraceOptions, ScopeKeepsOnlyTheNamedTracks) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string trace = dir.file("t.json");
  ASSERT_EQ(run("run --platform plena --set timing.mode=pipelined '" + kSilu + "' --perfetto '" + trace +
                    "' --scope plena.hbm,plena.pc",
                dir.file("out.txt"), dir.file("err.txt")),
            0)
      << test::read_text(dir.file("err.txt"));
  std::ifstream in(trace);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::set<std::string> counters, threads;
  std::set<std::string> slice_names;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "C") counters.insert(e["name"].get<std::string>());
    if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") slice_names.insert(e["name"].get<std::string>());
  }
  EXPECT_EQ(counters, (std::set<std::string>{"pc", "hbm.prefetch_queue", "hbm.store_queue", "hbm.row_hits",
                                             "hbm.row_misses", "hbm.row_conflicts"}));
  // The only slice tracks under plena.hbm: the HBM channels, busy with the two transfers.
  std::set<std::string> channels;
  for (int c = 0; c < 8; ++c) channels.insert("hbm.channel" + std::to_string(c));
  EXPECT_EQ(threads, channels);
  EXPECT_EQ(slice_names, (std::set<std::string>{"H_PREFETCH_V", "H_STORE_V"}));
#endif
}

TEST(CliTraceOptions, GzipPathWritesGzip) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string trace = dir.file("t.json.gz");
  ASSERT_EQ(run("run --platform plena '" + kSilu + "' --perfetto '" + trace + "'", dir.file("out.txt"),
                dir.file("err.txt")),
            0);
  std::ifstream in(trace, std::ios::binary);
  unsigned char magic[2] = {};
  in.read(reinterpret_cast<char*>(magic), 2);
  EXPECT_EQ(magic[0], 0x1f);
  EXPECT_EQ(magic[1], 0x8b);
#endif
}

TEST(CliTraceOptions, BadValuesAreRejected) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  EXPECT_EQ(run("run --platform plena '" + kSilu + "' --perfetto '" + dir.file("t.json") + "' --scope ' , '",
                dir.file("out.txt"), dir.file("err.txt")),
            2);
  EXPECT_NE(test::read_text(dir.file("err.txt"))
                .find("--scope ' , ': expected comma-separated track prefixes, e.g. plena.vector,plena.hbm"),
            std::string::npos)
      << test::read_text(dir.file("err.txt"));
  EXPECT_EQ(run("run --platform plena '" + kSilu + "' --perfetto '" + dir.file("t.json") + "' --trace-budget-mb -1",
                dir.file("out.txt"), dir.file("err.txt")),
            2);
  EXPECT_NE(test::read_text(dir.file("err.txt")).find("--trace-budget-mb -1.000000: expected 0 (no budget) .. 1000000"),
            std::string::npos)
      << test::read_text(dir.file("err.txt"));
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
