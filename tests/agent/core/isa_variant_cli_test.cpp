// `tlmcraft agent` with an ISA variant (docs/isa-extensions.md): a scripted model (the
// replay provider) writes a PLENA ReLU kernel with V_RELU_V, an instruction that exists only
// in an overlay (--isa-ext) or in an edited copy of the ISA folder (--isa-dir); the system
// prompt, grep_docs, get_instruction_size, the evaluation and the final verdict all see it.
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

struct Run {
  int code = -1;
  std::string out;
};

// stdout captured; stderr into `err_file`.
Run tlmcraft(const std::string& args, const std::string& err_file) {
  const std::string cmd = "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY SYSC_DISABLE_COPYRIGHT_MESSAGE=1 " +
                          kExe + " " + args + " 2>'" + err_file + "'";
  Run r;
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
  Run agent(const std::string& variant_args, const std::string& ws) {
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
  const Run r = agent("--isa-ext '" + (dir / "relu.yaml") + "'", "ext");
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
}

TEST_F(AgentIsaVariant, WithoutTheVariantTheMnemonicIsUnknown) {
  const Run r = agent("", "stock");
  EXPECT_EQ(r.code, 1) << r.out;
  const auto msgs = tool_messages("stock");
  EXPECT_EQ(msgs.at("grep_docs")["content"].get<std::string>().find("| V_RELU_V"), std::string::npos);
  EXPECT_NE(msgs.at("run_evaluation")["content"].get<std::string>().find("unknown mnemonic 'V_RELU_V'"),
            std::string::npos)
      << msgs.at("run_evaluation").dump();
}

TEST_F(AgentIsaVariant, IsaDirIsHonoured) {
  const Run r = agent("--isa-dir '" + (dir / "isa") + "'", "dir");
  ASSERT_EQ(r.code, 0) << r.out << test::read_file(dir / "dir.err");
  EXPECT_EQ(json::parse(r.out)["cycles"], 60);
  const auto msgs = tool_messages("dir");
  EXPECT_NE(msgs.at("grep_docs")["content"].get<std::string>().find("| V_RELU_V"), std::string::npos);
}

TEST_F(AgentIsaVariant, BadOverlayExitsTwoBeforeAnything) {
  write(dir / "bad.yaml", "isa: aie_ml\ninstructions: []\n");
  const Run r = agent("--isa-ext '" + (dir / "bad.yaml") + "'", "bad");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::read_file(dir / "bad.err"), "tlmcraft agent: error: " + (dir / "bad.yaml") +
                                                  ":1:6: this overlay extends ISA 'aie_ml', but platform plena reads ISA "
                                                  "plena\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "bad/relu_plena_C1.jsonl"));
}

TEST_F(AgentIsaVariant, PromptTakesTheVariantExplicitlyAndLeavesNoTrace) {
  PromptOptions with{{"plena", "relu", "C1"}, "default", {}, isa::IsaVariant{"", {dir / "relu.yaml"}}, 15};
  EXPECT_NE(build_system_prompt(with).text().find("V_RELU_V"), std::string::npos);
  PromptOptions without{{"plena", "relu", "C1"}, "default", {}, {}, 15};
  EXPECT_EQ(build_system_prompt(without).text().find("V_RELU_V"), std::string::npos);
  EXPECT_TRUE(isa::current_isa_variant().empty());
}

TEST_F(AgentIsaVariant, AieMlReferenceIsRenderedFromTheVariant) {
  // AIE-ML's reference is the committed page generated from its YAML; with an overlay it is
  // rendered from the variant, so a replaced op's new text reaches the prompt.
  write(dir / "vadd.yaml",
        "isa: aie_ml\nops:\n  - {mnemonic: VADD.32, replace: true, slot: vec, operands: \"x, x, x\", dst: 1, "
        "latency: valu, doc: \"Add 16 32-bit lanes, as the overlay says.\", operation: \"d[i] = a[i] + b[i]\"}\n");
  PromptOptions with{{"aie_ml", "relu", "C1"}, "default", {}, isa::IsaVariant{"", {dir / "vadd.yaml"}}, 15};
  EXPECT_NE(build_system_prompt(with).text().find("Add 16 32-bit lanes, as the overlay says."), std::string::npos);
  PromptOptions without{{"aie_ml", "relu", "C1"}, "default", {}, {}, 15};
  EXPECT_EQ(build_system_prompt(without).text().find("as the overlay says"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::agent
