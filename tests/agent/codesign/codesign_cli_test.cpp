// `tlmcraft codesign explore` on bad input (issue 21, "Must show"): each is exit 2 with
// the file or option and the reason, before any variant runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

struct Cli : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("tlm_codesign_cli_" + std::to_string(::getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(file(name)) << text; }
  // Runs tlmcraft with `args`; its exit code, stderr in `err`.
  int run(const std::string& args, std::string& err) const {
    const std::string cmd = "'" + kExe + "' " + args + " > '" + file("out") + "' 2> '" + file("err") + "'";
    const int status = std::system(cmd.c_str());
    std::ifstream in(file("err"));
    err.assign(std::istreambuf_iterator<char>(in), {});
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string explore(const std::string& candidates, const std::string& extra = "") const {
    return "codesign explore --platform plena --tasks silu --configs C1 --candidates '" + candidates + "' --out '" +
           file("x") + "' " + extra;
  }
};

// A candidate as codesign mine writes it: `first` then V_RECI_V.
std::string candidate(const std::string& name, const std::string& opcode, const std::string& first = "V_EXP_V") {
  return "  - name: " + name + "\n    estimate: {area_mm2: 0.01}\n    overlay:\n      isa: plena\n" +
         "      latency_classes: [{name: codesign_" + name + ", cycles: 1}]\n      instructions:\n" +
         "        - mnemonic: " + name + "\n          opcode: " + opcode +
         "\n          class: V\n          unit: vector\n" +
         "          doc: \"1/exp(x)\"\n          operation: \"VRAM[gp[rd]] = 1 / exp(VRAM[gp[rs1]])\"\n" +
         "          latency_class: codesign_" + name + "\n" +
         "          operands: [{name: rd, kind: gp, field: rd}, {name: rs1, kind: gp, field: rs1}]\n" +
         "          compose: {temps: [t0], steps: [\"" + first + " t0, rs1, 0\", \"V_RECI_V rd, t0, 0\"]}\n";
}
const std::string kCandidate = candidate("CD0", "0x38");

TEST_F(Cli, MalformedCandidatesFile) {
  write("bad.yaml", "candidates: [\n  {name: X\n");
  std::string err;
  EXPECT_EQ(run(explore(file("bad.yaml"), "--area-budget 5%"), err), 2);
  EXPECT_EQ(err,
            "tlmcraft codesign: error: codesign explore: " + file("bad.yaml") + ":3:1: end of map flow not found\n");
  write("empty.yaml", "isa: plena\n");
  EXPECT_EQ(run(explore(file("empty.yaml"), "--area-budget 5%"), err), 2);
  EXPECT_EQ(err, "tlmcraft codesign: error: codesign explore: " + file("empty.yaml") +
                     ": not a candidates file (no 'candidates' list; codesign mine writes one)\n");
}

TEST_F(Cli, NonPositiveAreaBudget) {
  write("c.yaml", "candidates:\n" + kCandidate);
  for (const char* budget : {"0", "-1", "0%", "x"}) {
    std::string err;
    EXPECT_EQ(run(explore(file("c.yaml"), std::string("--area-budget ") + budget), err), 2) << budget;
    EXPECT_EQ(err, std::string("tlmcraft codesign: error: codesign explore: --area-budget must be a positive number "
                               "of mm2 or a percentage (5%), not '") +
                       budget + "'\n");
  }
}

TEST_F(Cli, UnknownPlatformOrTask) {
  write("c.yaml", "candidates:\n" + kCandidate);
  std::string err;
  EXPECT_EQ(run("codesign explore --platform nope --candidates '" + file("c.yaml") + "' --area-budget 5% --out '" +
                    file("x") + "'",
                err),
            2);
  EXPECT_EQ(err.rfind("tlmcraft codesign: error: unknown platform 'nope' (known: ", 0), 0u) << err;
  EXPECT_EQ(run("codesign explore --platform plena --tasks nope --candidates '" + file("c.yaml") +
                    "' --area-budget 5% --out '" + file("x") + "'",
                err),
            2);
  EXPECT_EQ(err.rfind("tlmcraft codesign: error: unknown task 'nope' (tasks: silu, ", 0), 0u) << err;
}

TEST_F(Cli, UnknownHardwareChangeOrRanking) {
  std::string err;
  EXPECT_EQ(run("codesign mine --platform plena --tasks silu --configs C1 --hardware GPW3", err), 2);
  EXPECT_EQ(err, "tlmcraft codesign: error: codesign mine: unknown hardware change 'GPW3' (known: GPW2)\n");
  EXPECT_EQ(run("codesign mine --platform plena --tasks silu --configs C1 --rank area", err), 2);
  EXPECT_EQ(err, "tlmcraft codesign: error: codesign mine: unknown ranking 'area' (geomean or cycles)\n");
}

TEST_F(Cli, CandidateOverlayThatDoesNotValidate) {
  // The second candidate composes an instruction PLENA does not have; nothing runs.
  // The overlay is written keys sorted (instructions: / - class: / compose: /
  // steps:), so the first step is line 5, column 11 ("        - " before it).
  write("c.yaml", "candidates:\n" + kCandidate + candidate("CD1", "0x39", "V_NOPE_V"));
  std::string err;
  EXPECT_EQ(run(explore(file("c.yaml"), "--area-budget 5%"), err), 2);
  EXPECT_EQ(err, "tlmcraft codesign: error: codesign explore: " + file("c.yaml") +
                     ": candidate 2 (CD1): its overlay does not validate: " + file("x") +
                     "/candidates/CD1.yaml:5:11: instruction CD1: step 1 ('V_NOPE_V t0, rs1, 0'): unknown "
                     "instruction 'V_NOPE_V'\n");
  EXPECT_FALSE(fs::exists(dir / "x" / "explore.jsonl"));
}

TEST_F(Cli, KernelsDirectoryWithoutTheSelectedCells) {
  // --kernels names the kernels both sides run; a folder holding none of the selected
  // cells' kernels (silu C1: kernels/plena/silu/C1.asm or silu_C1.asm) is an input error.
  write("c.yaml", "candidates:\n" + kCandidate);
  fs::create_directories(dir / "kernels");
  std::string err;
  EXPECT_EQ(run(explore(file("c.yaml"), "--area-budget 5% --kernels '" + file("kernels") + "'"), err), 2);
  EXPECT_EQ(err,
            "tlmcraft codesign: error: codesign explore: no kernel selected on platform 'plena' (no selected "
            "cell has a kernel in " +
                file("kernels") + ")\n");
  EXPECT_FALSE(fs::exists(dir / "x" / "explore.jsonl"));
}

TEST_F(Cli, DetachIsRefused) {
  write("c.yaml", "candidates:\n" + kCandidate);
  std::string err;
  EXPECT_EQ(run(explore(file("c.yaml"), "--area-budget 5% --executor slurm --detach"), err), 2);
  EXPECT_EQ(err,
            "tlmcraft codesign: error: codesign explore: --detach is not supported (each variant's results are "
            "needed before the next is chosen; rerun the command to resume instead)\n");
}

// Each subcommand's --help prints its usage and exits 0 (it used to be refused as an
// ambiguous option: the platform options bring --help already).
TEST_F(Cli, HelpOfEverySubcommand) {
  for (const char* cmd : {"mine", "explore", "architect", "mcp"}) {
    std::string err;
    EXPECT_EQ(run(std::string("codesign ") + cmd + " --help", err), 0) << cmd << ": " << err;
    std::ifstream in(file("out"));
    const std::string out(std::istreambuf_iterator<char>(in), {});
    EXPECT_EQ(out.rfind("usage: tlmcraft codesign ", 0), 0u) << cmd << ": " << out.substr(0, 80);
  }
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
