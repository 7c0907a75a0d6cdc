// The loader's validation: every bad spec is rejected with "file:line: cause".
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tasks/spec.h"

namespace tlmcraft::tasks {
namespace {

namespace fs = std::filesystem;

// Line numbers of kTask are referenced by the tests below.
const char* kTask = R"(name: t
level: 1
title: "T"
description: "d"
params: [n]
tensors:
  - {name: x, role: input, shape: [n], init: {dist: uniform, lo: -1, hi: 1}}
  - {name: y, role: output, shape: [n]}
platforms:
  plena:
    supported: true
    configs:
      C1: {n: 64}
      C2: {n: 128}
      C3: {n: 192, interpolated: true}
      C4: {n: 256}
      C5: {n: 512, chosen: true}
  aie_ml: {supported: false, reason: "r"}
  coral: {supported: false, reason: "r"}
)";

const char* kDefaults = R"(platforms:
  plena: {dtype: "mx", tolerance: {kind: abs_or_rel, abs: 0.012, rel: 0.01}, numerics: "p"}
  aie_ml: {dtype: "bf16", tolerance: {kind: allclose, atol: 0.01, rtol: 0.01}, numerics: "a"}
  coral: {dtype: "int8", tolerance: {kind: exact}, numerics: "c"}
)";

class SpecFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tlm_spec_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    write("platforms.yaml", kDefaults);
    defaults_ = load_platform_defaults((dir_ / "platforms.yaml").string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  // Loads kTask with `from` replaced by `to`; returns the error text ("" if it loads).
  std::string error(const std::string& from, const std::string& to, const std::string& file = "t.yaml") {
    std::string text = kTask;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    const std::string path = write(file, text);
    try {
      load_task(path, defaults_);
    } catch (const SpecError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;  // starts with the file name
      return msg.substr(path.size() + 1);              // "line: cause"
    }
    return "";
  }
  fs::path dir_;
  std::map<PlatformId, PlatformSpec> defaults_;
};

TEST_F(SpecFiles, LoadsAValidTaskWithDefaultsAndProvenance) {
  const TaskSpec t = load_task(write("t.yaml", kTask), defaults_);
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.level, 1);
  ASSERT_EQ(t.tensors.size(), 2u);
  EXPECT_EQ(t.tensors[0].line, 7);
  EXPECT_EQ(t.tensors[0].init.kind, Distribution::Kind::Uniform);
  const PlatformSpec& p = t.platform(PlatformId("plena"));
  ASSERT_TRUE(p.supported);
  ASSERT_EQ(p.configs.size(), 5u);
  EXPECT_EQ(p.configs[2].params.at("n"), 192);
  EXPECT_EQ(p.configs[0].provenance, Provenance::Paper);
  EXPECT_EQ(p.configs[2].provenance, Provenance::Interpolated);
  EXPECT_EQ(p.configs[4].provenance, Provenance::Chosen);
  EXPECT_EQ(p.tolerance.kind, Tolerance::Kind::AbsOrRel);  // from the defaults
  EXPECT_DOUBLE_EQ(p.tolerance.abs, 0.012);
  EXPECT_FALSE(t.supports(PlatformId("coral")));
  EXPECT_EQ(t.platform(PlatformId("coral")).reason, "r");
}

TEST_F(SpecFiles, RejectsBadFilesNamingLineAndCause) {
  EXPECT_EQ(error("name: t", "name: u"), "1: task name 'u' differs from the file name 't'");
  EXPECT_EQ(error("level: 1", "level: 4"), "2: level must be 1, 2 or 3");
  EXPECT_EQ(error("title: \"T\"", "titel: \"T\""), "3: unknown key 'titel' in a task file (allowed: data_dependent_cycles, description, level, name, params, platforms, small_outputs_rel, tensors, title)");
  EXPECT_EQ(error("params: [n]", "params: [n, n]"), "5: parameter 'n' is listed twice");
  EXPECT_EQ(error("role: input", "role: inptu"), "7: unknown role 'inptu' (input, weight, kv, output)");
  EXPECT_EQ(error("shape: [n], init", "shape: [m], init"), "7: expression \"m\" uses 'm', which is not a parameter of the task");
  EXPECT_EQ(error("dist: uniform", "dist: gauss"),
            "7: unknown dist 'gauss' (uniform, normal, int_uniform, int_normal, rope_cos, rope_sin, table)");
  EXPECT_EQ(error("lo: -1, hi: 1", "lo: 1, hi: -1"), "7: lo must not exceed hi");
  EXPECT_EQ(error("dist: uniform, lo: -1, hi: 1", "dist: uniform, lo: -1, hi: 1, scale: 128"),
            "7: scale applies to rope_cos and rope_sin only");
  EXPECT_EQ(error("dist: uniform, lo: -1, hi: 1", "dist: rope_cos, scale: 0"), "7: scale must be positive");
  // Table names come from the registered integer formulations (here Coral's).
  EXPECT_EQ(error("dist: uniform, lo: -1, hi: 1", "dist: table, table: tanh_lut"),
            "7: unknown table 'tanh_lut' (exp_q15, gelu_lut, silu_lut)");
  EXPECT_EQ(error(", init: {dist: uniform, lo: -1, hi: 1}}", "}"), "13: input 'x' has no init for platform plena");
  EXPECT_EQ(error("C4: {n: 256}", "C4: {n: 256, m: 3}"), "16: configuration C4 sets 'm', which is not a parameter");
  EXPECT_EQ(error("C4: {n: 256}", "C4: {n: -256}"), "16: parameter n must be positive");
  EXPECT_EQ(error("C4: {n: 256}", "C4: {n: many}"), "16: parameter n must be an integer, got 'many'");
  EXPECT_EQ(error("C4: {n: 256}", "C6: {n: 256}"), "16: configuration 'C6' is not one of C1..C5");
  EXPECT_EQ(error("  coral: {supported: false, reason: \"r\"}\n", ""),
            "10: platform 'coral' is missing (every task says supported: true or false for each)");
  EXPECT_EQ(error("  aie_ml: {supported: false, reason: \"r\"}", "  aie_ml: {supported: false}"),
            "18: an unsupported platform lacks the required key 'reason'");
  EXPECT_EQ(error("  aie_ml:", "  amd:"), "18: unknown platform 'amd' (registered: plena, aie_ml, coral)");
  EXPECT_EQ(error("supported: true", "supported: yes please"), "11: supported must be true or false, got 'yes please'");
}

// A pack's overlay (apply_task_overlay): adds a section for a platform the task lacks.
TEST_F(SpecFiles, OverlayAddsAPlatformSection) {
  std::string text = kTask;
  text.erase(text.find("  coral: {supported: false"));  // the task without a coral section
  std::map<PlatformId, PlatformSpec> no_coral = defaults_;
  no_coral.erase(PlatformId("coral"));
  TaskSpec t = load_task(write("t.yaml", text), no_coral);
  EXPECT_FALSE(t.supports(PlatformId("coral")));
  EXPECT_EQ(t.platform(PlatformId("coral")).reason,
            "the task has no section for this platform (neither in its spec nor in a pack's overlay)");
  apply_task_overlay(t, write("overlay.yaml", R"(platforms:
  coral:
    supported: true
    dtype: "int8"
    tolerance: {kind: exact}
    numerics: "integers"
    configs: {C1: {n: 32}, C2: {n: 64}, C3: {n: 96}, C4: {n: 128}, C5: {n: 160}}
)"),
                     {});
  const PlatformSpec& c = t.platform(PlatformId("coral"));
  ASSERT_TRUE(c.supported);
  EXPECT_EQ(c.dtype, "int8");
  EXPECT_EQ(c.numerics, "integers");
  EXPECT_EQ(c.tolerance.kind, Tolerance::Kind::Exact);
  ASSERT_EQ(c.configs.size(), 5u);
  EXPECT_EQ(c.configs[4].params.at("n"), 160);
  EXPECT_EQ(c.line, 3);
}

TEST_F(SpecFiles, OverlayErrorsNameTheFileLineAndCause) {
  std::string text = kTask;
  text.erase(text.find("  coral: {supported: false"));
  std::map<PlatformId, PlatformSpec> no_coral = defaults_;
  no_coral.erase(PlatformId("coral"));
  const std::string task_file = write("t.yaml", text);
  auto overlay_error = [&](const std::string& overlay) {
    TaskSpec t = load_task(task_file, no_coral);
    const std::string path = write("overlay.yaml", overlay);
    try {
      apply_task_overlay(t, path, {});
    } catch (const SpecError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;
      return msg.substr(path.size() + 1);
    }
    return std::string();
  };
  EXPECT_EQ(overlay_error("platforms:\n  plena: {supported: false, reason: \"r\"}\n"),
            "2: platform 'plena' already has a section in " + task_file +
                ":11 (an overlay adds a platform, never replaces one)");  // the section's first line
  EXPECT_EQ(overlay_error("platforms:\n  amd: {supported: false, reason: \"r\"}\n"),
            "2: unknown platform 'amd' (registered: plena, aie_ml, coral)");
  EXPECT_EQ(overlay_error("platforms:\n  coral: {supported: true, tolerance: {kind: exact}}\n"),
            "2: platform coral (it has no defaults) lacks the required key 'dtype'");
  EXPECT_EQ(overlay_error("tensors: []\nplatforms: {}\n"),
            "1: unknown key 'tensors' in a task overlay (it only adds platform sections to task 't') (allowed: platforms)");
  EXPECT_EQ(overlay_error(""), "1: a task overlay must be a mapping");
}

TEST_F(SpecFiles, RejectsShapesThatDoNotDivide) {
  // C1 has n = 64; a block mapping's line is that of its first entry (yaml-cpp marks).
  EXPECT_EQ(error("shape: [n]}\nplatforms", "shape: [n / 128]}\nplatforms"),
            "13: configuration C1 of plena, tensor 'y': expression \"n / 128\" column 5: 64 is not divisible by 128");
}

TEST_F(SpecFiles, RejectsMissingConfigsAndOrder) {
  EXPECT_EQ(error("      C5: {n: 512, chosen: true}\n", ""), "13: platform plena lacks configuration C5");
  EXPECT_EQ(error("  - {name: x, role: input, shape: [n], init: {dist: uniform, lo: -1, hi: 1}}\n  - {name: y, role: output, shape: [n]}",
                  "  - {name: y, role: output, shape: [n]}\n  - {name: x, role: input, shape: [n], init: {dist: uniform, lo: -1, hi: 1}}"),
            "8: input tensor 'x' follows an output: list inputs first, then outputs");
  EXPECT_EQ(error("  - {name: y, role: output, shape: [n]}\n", ""), "7: the task has no output tensor");
}

TEST_F(SpecFiles, ReportsYamlSyntaxErrorsWithTheirLine) {
  const std::string e = error("C2: {n: 128}", "C2: {n: 128");
  EXPECT_EQ(e.substr(0, e.find(':')), "15");  // the parser notices at the next line
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
}

TEST_F(SpecFiles, MissingFileAndBadDefaults) {
  EXPECT_THROW(
      {
        try {
          load_task((dir_ / "absent.yaml").string(), defaults_);
        } catch (const SpecError& e) {
          EXPECT_EQ(std::string(e.what()), (dir_ / "absent.yaml").string() + ": cannot open the file");
          throw;
        }
      },
      SpecError);
  const std::string p = write("bad_defaults.yaml", "platforms:\n  plena: {dtype: x, tolerance: {kind: fuzzy}, numerics: n}\n");
  try {
    load_platform_defaults(p);
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()), p + ":2: unknown tolerance kind 'fuzzy' (abs_or_rel, allclose, exact)");
  }
}

// Adversarial input ranges (docs/tasks.md, "Input ranges"): a named map of inits per
// tensor; 'ordinary' is the init itself, outputs have none, a range is no table.
TEST_F(SpecFiles, AdversarialRangesLoadInOrderAndBadOnesAreRejected) {
  const std::string ranged = "init: {dist: uniform, lo: -1, hi: 1}, adversarial: {big: {dist: uniform, lo: 90, hi: 99}, "
                             "neg: {dist: normal, mean: -50, std: 1}}}";
  std::string text = kTask;
  const std::string plain = "init: {dist: uniform, lo: -1, hi: 1}}";
  text.replace(text.find(plain), plain.size(), ranged);
  const TaskSpec t = load_task(write("t.yaml", text), defaults_);
  ASSERT_EQ(t.tensors[0].adversarial.size(), 2u);
  EXPECT_EQ(t.tensors[0].adversarial[0].name, "big");
  EXPECT_EQ(t.tensors[0].adversarial[0].dist.lo, 90);
  EXPECT_EQ(t.tensors[0].adversarial[1].name, "neg");
  EXPECT_EQ(t.tensors[0].adversarial[1].dist.mean, -50);
  EXPECT_EQ(error("init: {dist: uniform, lo: -1, hi: 1}}",
                  "init: {dist: uniform, lo: -1, hi: 1}, adversarial: {ordinary: {dist: uniform, lo: 0, hi: 1}}}"),
            "7: 'ordinary' names the init itself, not an adversarial range");
  EXPECT_EQ(error("{name: y, role: output, shape: [n]}",
                  "{name: y, role: output, shape: [n], adversarial: {big: {dist: uniform, lo: 0, hi: 1}}}"),
            "8: output 'y' cannot have adversarial ranges");
  EXPECT_EQ(error("init: {dist: uniform, lo: -1, hi: 1}}",
                  "init: {dist: uniform, lo: -1, hi: 1}, adversarial: [big]}"),
            "7: adversarial must be a mapping");
}

}  // namespace
}  // namespace tlmcraft::tasks
