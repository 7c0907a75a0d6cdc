// `tlmcraft bench` and `tlmcraft report` through the real executable: argument handling,
// worker command line, unsupported cells, exit codes, the summary JSON and the HTML file.
// The kernels used are deliberately broken or absent, so the outcome does not depend on
// the state of the baseline generators.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/suite_runner.h"
#include "tests/harness/test_util.h"
#include "tests/harness/unsupported_cell_specs.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

#ifdef TLMCRAFT_EXE
// `env`: VAR=value settings for the command ("" for none).
int run(const std::string& args, const std::string& out_file, const std::string& err_file,
        const std::string& env = "") {
  const std::string cmd =
      env + " '" + std::string(TLMCRAFT_EXE) + "' " + args + " > '" + out_file + "' 2> '" + err_file + "'";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
#endif

TEST(CliBench, BrokenKernelUnsupportedCellAndReport) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  test::write_text(dir.file("relu_C1.asm"), "THIS_IS_NOT_AN_INSTRUCTION x, y\n");
  const std::string results = dir.file("r.jsonl");
  // relu C1 has a (broken) kernel, relu C2 none (missing), conv2d is unsupported on PLENA
  // in these specs.
  const std::string specs = "TLMCRAFT_TASKS_DIR='" + test_specs::specs_with_plena_conv2d_unsupported(dir.path()) + "'";
  const int rc = run("bench --platform plena --task relu,conv2d --config C1,C2 --kernels '" + dir.path() +
                         "' --out '" + results + "' --jobs 2 --quiet --json",
                     dir.file("out.txt"), dir.file("err.txt"), specs);
  EXPECT_EQ(rc, 1) << test::read_text(dir.file("err.txt"));  // a failure and a missing kernel
  EXPECT_NE(test::read_text(dir.file("err.txt")).find("1 job(s) have no kernel file in"), std::string::npos);

  const auto c = read_jsonl(results);
  ASSERT_EQ(c.records.size(), 3u);  // relu C1, conv2d C1, conv2d C2
  std::map<std::string, json> by;
  for (const auto& r : c.records) by[r["job"]["task"].get<std::string>() + r["job"]["config"].get<std::string>()] = r;
  EXPECT_EQ(by.at("reluC1")["status"], "assemble_error");
  EXPECT_EQ(by.at("reluC1")["job"]["kernel"], (std::filesystem::path(dir.path()) / "relu_C1.asm").lexically_normal().string());
  EXPECT_EQ(by.at("reluC1")["worker"]["exit_code"], 1);
  EXPECT_EQ(by.at("conv2dC1")["status"], "unsupported");
  EXPECT_FALSE(by.at("conv2dC1").contains("worker"));  // no worker ran

  const json summary = json::parse(test::read_text(dir.file("out.txt")));
  EXPECT_EQ(summary["schema"], "tlmcraft.summary/1");
  EXPECT_EQ(summary["overall"]["run"], 1);
  EXPECT_EQ(summary["overall"]["passed"], 0);
  EXPECT_EQ(summary["overall"]["unsupported"], 2);

  // Resume: nothing left to run, same file.
  EXPECT_EQ(run("bench --platform plena --task relu,conv2d --config C1 --kernels '" + dir.path() + "' --out '" +
                    results + "' --quiet",
                dir.file("out2.txt"), dir.file("err2.txt"), specs),
            1);
  EXPECT_EQ(read_jsonl(results).records.size(), 3u);

  EXPECT_EQ(run("report '" + results + "' -o '" + dir.file("r.html") + "'", dir.file("out3.txt"), dir.file("err3.txt")),
            0)
      << test::read_text(dir.file("err3.txt"));
  const std::string html = test::read_text(dir.file("r.html"));
  EXPECT_NE(html.find("<g class=\"cell fail status-assemble_error\" id=\"cell-plena-relu-C1\""), std::string::npos);
  EXPECT_NE(html.find("<g class=\"cell unsupported\" id=\"cell-plena-conv2d-C2\""), std::string::npos);
  EXPECT_NE(html.find("<g class=\"cell notrun\" id=\"cell-plena-relu-C2\""), std::string::npos);
#endif
}

// A hardware variant the baseline generator cannot serve (PLENA's element-wise template
// needs n to be a multiple of BLEN*VLEN: 256 is not one of 4*128) is an unsupported cell
// with the generator's reason, not a crashed worker.
TEST(CliBench, BaselineTheVariantCannotServeIsUnsupported) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  const std::string results = dir.file("r.jsonl");
  const int rc = run("bench --platform plena --task silu --config C1 --set arch.vlen=128 --set arch.mlen=128 --out '" +
                         results + "' --jobs 1 --quiet --json",
                     dir.file("out.txt"), dir.file("err.txt"));
  EXPECT_EQ(rc, 0) << test::read_text(dir.file("err.txt"));
  const auto c = read_jsonl(results);
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.records[0]["status"], "unsupported");
  EXPECT_EQ(c.records[0]["reason"].get<std::string>().rfind(
                "no baseline kernel for this platform configuration: elementwise template needs n to be a positive "
                "multiple of BLEN*VLEN = 512, got 256", 0),
            0u)
      << c.records[0]["reason"];
  EXPECT_EQ(c.records[0]["job"]["variant"], c.records[0]["provenance"]["variant"]);
#endif
}

TEST(CliBench, UsageErrorsExitWith2) {
#ifndef TLMCRAFT_EXE
  GTEST_SKIP() << "the tlmcraft executable is not part of this build";
#else
  test::ScratchDir dir;
  EXPECT_EQ(run("bench --platform nosuch", dir.file("o"), dir.file("e")), 2);
  EXPECT_NE(test::read_text(dir.file("e")).find("unknown platform 'nosuch'"), std::string::npos);
  EXPECT_EQ(run("bench --platform plena --task silu --config C9", dir.file("o"), dir.file("e")), 2);
  EXPECT_NE(test::read_text(dir.file("e")).find("unknown config 'C9' for silu on plena (known: C1, C2, C3, C4, C5)"),
            std::string::npos);
  EXPECT_EQ(run("bench --fresh --resume", dir.file("o"), dir.file("e")), 2);
  EXPECT_EQ(run("report", dir.file("o"), dir.file("e")), 2);
  EXPECT_EQ(run("report '" + dir.file("none.jsonl") + "'", dir.file("o"), dir.file("e")), 2);
  EXPECT_EQ(run("bench --help", dir.file("o"), dir.file("e")), 0);
  EXPECT_NE(test::read_text(dir.file("o")).find("DIR/<platform>/<task>/<config>.asm"), std::string::npos);
#endif
}

}  // namespace
}  // namespace tlmcraft::harness
