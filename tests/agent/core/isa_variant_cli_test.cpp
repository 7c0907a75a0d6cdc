// `tlmcraft agent` with an ISA variant (docs/isa-extensions.md): a scripted model (the
// replay provider) writes a PLENA ReLU kernel with V_RELU_V, an instruction that exists only
// in an overlay (--isa-ext) or in an edited copy of the ISA folder (--isa-dir); the system
// prompt, grep_docs, get_instruction_size, the evaluation and the final verdict all see it,
// and the evaluation, the verdict and agent-bench's summary say how often it was used.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include "agent/system_prompt.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "test_support.h"

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

struct CliResult {
  int code = -1;
  std::string out;
};

// stdout captured; stderr into `err_file`.
CliResult tlmcraft(const std::string& args, const std::string& err_file) {
  const std::string cmd = "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY SYSC_DISABLE_COPYRIGHT_MESSAGE=1 " +
                          kExe + " " + args + " 2>'" + err_file + "'";
  CliResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The instruction entry of V_RELU_V: one fused V_MAX_VF step with f0 (kept at 0.0).
const char* kReluEntry =
    "  - mnemonic: V_RELU_V\n    opcode: 0x3A\n    class: V\n    unit: vector\n    latency_class: vector_relu\n"
    "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
    "      - {name: rmask, kind: flag, field: rs3}\n    doc: \"ReLU of every lane.\"\n"
    "    operation: \"VRAM[gp[rd]] = max(VRAM[gp[rs1]], 0)\"\n    fused: [\"V_MAX_VF rd, rs1, f0, rmask\"]\n";
const char* kReluClass = "  - {name: vector_relu, cycles: 2, doc: \"one max pass\"}\n";

class AgentIsaVariant : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kExe)) GTEST_SKIP() << kExe << " is not built";
    write(dir / "relu.yaml",
          std::string("isa: plena\nlatency_classes:\n") + kReluClass + "instructions:\n" + kReluEntry);
    // The edited copy: the shipped plena.yaml with the class and the instruction added.
    std::string yaml = test::read_file(isa::isa_yaml_path_in("", "plena"));
    const std::string classes = "latency_classes:\n";
    yaml.insert(yaml.find(classes) + classes.size(), kReluClass);
    yaml += kReluEntry;
    std::filesystem::create_directories(dir / "isa/plena");
    write(dir / "isa/plena/plena.yaml", yaml);
    // The baseline kernel with V_MAX_VF (ReLU with f0) replaced by V_RELU_V.
    ASSERT_EQ(tlmcraft("baseline -p plena --task relu --config C1 -o '" + (dir / "base.asm") + "'", dir / "e").code, 0);
    kernel = test::read_file(dir / "base.asm");
    const std::string max_line = "V_MAX_VF gp2, gp2, f0, 0";
    ASSERT_NE(kernel.find(max_line), std::string::npos);
    kernel.replace(kernel.find(max_line), max_line.size(), "V_RELU_V gp2, gp2, 0");
    // The scripted model: look the instruction up, write the kernel, evaluate, count, submit.
    std::ofstream script(dir / "script.jsonl");
    const auto turn = [&](const char* id, const char* tool, const json& args) {
      script << json{{"role", "assistant"},
                     {"content", ""},
                     {"tool_calls", json::array({{{"id", id}, {"name", tool}, {"arguments", args.dump()}}})}}
                    .dump()
             << "\n";
    };
    turn("a", "grep_docs", {{"query", "V_RELU_V"}});
    turn("b", "write_code", {{"code", kernel}});
    turn("c", "run_evaluation", json::object());
    turn("d", "get_instruction_size", json::object());
    turn("e", "submit", json::object());
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  // Runs the script with `variant_args`; the tool messages of its transcript by tool name.
  CliResult agent(const std::string& variant_args, const std::string& ws) {
    return tlmcraft("agent -p plena --task relu --config C1 --json --trials 1 --provider replay --replay '" +
                        (dir / "script.jsonl") + "' --workspace '" + (dir / ws) + "' " + variant_args,
                    dir / (ws + ".err"));
  }
  std::map<std::string, json> tool_messages(const std::string& ws) const {
    std::map<std::string, json> out;
    std::ifstream in(dir / (ws + "/relu_plena_C1.jsonl"));
    for (std::string line; std::getline(in, line);) {
      const json r = json::parse(line);
      const json& m = r.contains("message") ? r["message"] : r;
      if (m.value("role", "") == "tool") out[m.value("tool_name", "")] = m;
      if (m.value("role", "") == "system") out["system"] = m;
    }
    return out;
  }
  test::TempDir dir{"isa-variant"};
  std::string kernel;
};

TEST_F(AgentIsaVariant, OverlayReachesPromptToolsAndVerdict) {
  const CliResult r = agent("--isa-ext '" + (dir / "relu.yaml") + "'", "ext");
  ASSERT_EQ(r.code, 0) << r.out << test::read_file(dir / "ext.err");
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["status"], "pass");  // the final verdict, on fresh seeds, under the overlay
  // Baseline 68 cycles; the four V_MAX_VF (4 cycles each) become 2-cycle V_RELU_V: 68 - 4 x 2.
  EXPECT_EQ(rep["cycles"], 60);
  EXPECT_EQ(rep["provenance"]["isa_ext"][0]["path"], dir / "relu.yaml");
  const auto msgs = tool_messages("ext");
  EXPECT_NE(msgs.at("system")["content"].get<std::string>().find("V_RELU_V rd, rs1, rmask"), std::string::npos);
  EXPECT_NE(msgs.at("grep_docs")["content"].get<std::string>().find("| V_RELU_V"), std::string::npos);
  EXPECT_EQ(msgs.at("run_evaluation")["data"]["status"], "pass");
  EXPECT_EQ(msgs.at("get_instruction_size")["data"]["by_mnemonic"]["V_RELU_V"], 1);
  // What V_RELU_V did, in the verdict and in the evaluation the model read: the one line
  // runs once per row of the block, 4 times (the 4 x 2 cycles saved above). A one-step
  // composition with no temporary adds no datapath: 0 mm2.
  EXPECT_EQ(rep["isa_variant_uses"][0]["static"], 1);
  EXPECT_EQ(rep["isa_variant_uses"][0]["executions"], 4);
  const std::string used = "V_RELU_V: placed 1 time, executed 4 times (area +0.000000 mm2)";
  EXPECT_EQ(rep["isa_variant_uses"][0]["text"], used);
  EXPECT_NE(msgs.at("run_evaluation")["content"].get<std::string>().find("\nisa variant: " + used), std::string::npos)
      << msgs.at("run_evaluation").dump();
}

TEST_F(AgentIsaVariant, AddedInstructionTheKernelNeverUsesSaysSo) {
  // The baseline kernel as written (V_MAX_VF): the overlay's V_RELU_V is added, never used.
  std::ofstream script(dir / "script.jsonl");
  script << json{{"role", "assistant"},
                 {"content", ""},
                 {"tool_calls", json::array({{{"id", "a"},
                                              {"name", "write_code"},
                                              {"arguments", json{{"code", test::read_file(dir / "base.asm")}}.dump()}}})}}
                .dump()
         << "\n"
         << json{{"role", "assistant"},
                 {"content", ""},
                 {"tool_calls", json::array({{{"id", "b"}, {"name", "run_evaluation"}, {"arguments", "{}"}}})}}
                .dump()
         << "\n"
         << json{{"role", "assistant"},
                 {"content", ""},
                 {"tool_calls", json::array({{{"id", "c"}, {"name", "submit"}, {"arguments", "{}"}}})}}
                .dump()
         << "\n";
  script.close();
  const CliResult r = agent("--isa-ext '" + (dir / "relu.yaml") + "'", "unused");
  ASSERT_EQ(r.code, 0) << r.out << test::read_file(dir / "unused.err");
  const std::string unused = "V_RELU_V: added, 0 uses (area +0.000000 mm2 with no effect on cycles)";
  EXPECT_EQ(json::parse(r.out)["isa_variant_uses"][0]["text"], unused);
  EXPECT_NE(tool_messages("unused").at("run_evaluation")["content"].get<std::string>().find(unused), std::string::npos);
}

TEST_F(AgentIsaVariant, WithoutTheVariantTheMnemonicIsUnknown) {
  const CliResult r = agent("", "stock");
  EXPECT_EQ(r.code, 1) << r.out;
  const auto msgs = tool_messages("stock");
  EXPECT_EQ(msgs.at("grep_docs")["content"].get<std::string>().find("| V_RELU_V"), std::string::npos);
  EXPECT_NE(msgs.at("run_evaluation")["content"].get<std::string>().find("unknown mnemonic 'V_RELU_V'"),
            std::string::npos)
      << msgs.at("run_evaluation").dump();
}

TEST_F(AgentIsaVariant, IsaDirIsHonoured) {
  const CliResult r = agent("--isa-dir '" + (dir / "isa") + "'", "dir");
  ASSERT_EQ(r.code, 0) << r.out << test::read_file(dir / "dir.err");
  EXPECT_EQ(json::parse(r.out)["cycles"], 60);
  // An edited ISA folder adds V_RELU_V as the overlay does: the same uses, 1 and 4.
  EXPECT_EQ(json::parse(r.out)["isa_variant_uses"][0]["text"],
            "V_RELU_V: placed 1 time, executed 4 times (area +0.000000 mm2)");
  const auto msgs = tool_messages("dir");
  EXPECT_NE(msgs.at("grep_docs")["content"].get<std::string>().find("| V_RELU_V"), std::string::npos);
}

TEST_F(AgentIsaVariant, BadOverlayExitsTwoBeforeAnything) {
  write(dir / "bad.yaml", "isa: aie_ml\ninstructions: []\n");
  const CliResult r = agent("--isa-ext '" + (dir / "bad.yaml") + "'", "bad");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::read_file(dir / "bad.err"), "tlmcraft agent: error: " + (dir / "bad.yaml") +
                                                  ":1:6: this overlay extends ISA 'aie_ml', but platform plena reads ISA "
                                                  "plena\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "bad/relu_plena_C1.jsonl"));
}

TEST_F(AgentIsaVariant, AgentBenchPassesTheVariantOnAndRecordsIt) {
  const CliResult r = tlmcraft("agent-bench -p plena --tasks relu --configs C1 --samples 1 --jobs 1 -q --json --out '" +
                                   (dir / "ab") + "' --isa-ext '" + (dir / "relu.yaml") + "'",
                               dir / "ab.err");
  ASSERT_EQ(r.code, 0) << test::read_file(dir / "ab.err");
  std::ifstream in(dir / "ab/results.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const json rec = json::parse(line);
  EXPECT_EQ(rec["status"], "pass");
  EXPECT_EQ(rec["provenance"]["isa_ext"][0]["path"], dir / "relu.yaml");
  EXPECT_EQ(rec["job"]["variant"], rec["provenance"]["variant"]);  // part of the resume key
  // The run itself got the overlay: its transcript's start event records it.
  const std::string transcript = test::read_file(dir / "ab/transcripts/relu_plena_C1_s1.jsonl");
  EXPECT_NE(transcript.find("\"isa_ext\":[\"" + (dir / "relu.yaml") + "\"]"), std::string::npos);
  // The record and the run's summary carry the uses. The search agent's best kernel has the
  // 4 rows unrolled, each row's max one V_RELU_V: placed as often as its text holds it (4),
  // each run once (4).
  const std::string best = test::read_file(dir / "ab/workspaces/s1/relu_plena_C1/best.asm");
  size_t placed = 0;
  for (size_t at = best.find("\nV_RELU_V"); at != std::string::npos; at = best.find("\nV_RELU_V", at + 1)) ++placed;
  EXPECT_EQ(placed, 4u) << best;
  EXPECT_EQ(rec["isa_variant_uses"][0]["static"], placed);
  EXPECT_EQ(rec["isa_variant_uses"][0]["executions"], 4);
  const json summary = json::parse(test::read_file(dir / "ab/summary.json"));
  EXPECT_EQ(summary["isa_variant_uses"][0]["text"],
            "V_RELU_V: executed 4 times in 1 of 1 runs (relu/C1), placed 4 times (area +0.000000 mm2)");
  write(dir / "bad.yaml", "isa: plena\nbogus: 1\n");
  const CliResult bad = tlmcraft("agent-bench -p plena --tasks relu --configs C1 -q --out '" + (dir / "ab2") +
                                     "' --isa-ext '" + (dir / "bad.yaml") + "'",
                                 dir / "ab2.err");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(test::read_file(dir / "ab2.err").find((dir / "bad.yaml") + ":2:1: unknown top-level key 'bogus'"),
            std::string::npos);
}

TEST_F(AgentIsaVariant, PromptTakesTheVariantExplicitlyAndLeavesNoTrace) {
  PromptOptions with{{"plena", "relu", "C1"}, "default", {}, 15, isa::IsaVariant{"", {dir / "relu.yaml"}}};
  EXPECT_NE(build_system_prompt(with).text().find("V_RELU_V"), std::string::npos);
  PromptOptions without{{"plena", "relu", "C1"}, "default", {}, 15, {}};
  EXPECT_EQ(build_system_prompt(without).text().find("V_RELU_V"), std::string::npos);
  EXPECT_TRUE(isa::current_isa_variant().empty());
}

TEST_F(AgentIsaVariant, AieMlReferenceIsRenderedFromTheVariant) {
  // AIE-ML's reference is the committed page generated from its YAML; with an overlay it is
  // rendered from the variant, so a replaced op's new text reaches the prompt.
  write(dir / "vadd.yaml",
        "isa: aie_ml\nops:\n  - {mnemonic: VADD.32, replace: true, slot: vec, operands: \"x, x, x\", dst: 1, "
        "latency: valu, doc: \"Add 16 32-bit lanes, as the overlay says.\", operation: \"d[i] = a[i] + b[i]\"}\n");
  PromptOptions with{{"aie_ml", "relu", "C1"}, "default", {}, 15, isa::IsaVariant{"", {dir / "vadd.yaml"}}};
  EXPECT_NE(build_system_prompt(with).text().find("Add 16 32-bit lanes, as the overlay says."), std::string::npos);
  PromptOptions without{{"aie_ml", "relu", "C1"}, "default", {}, 15, {}};
  EXPECT_EQ(build_system_prompt(without).text().find("as the overlay says"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent
