// Energy actions (isa/actions.h): the extension hook, declared `actions:` in the ISA YAML
// with their file:line:col errors, and the counter's precomputed lists.
#include "isa/actions.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "isa/isa_spec.h"
#include "tests/isa/test_support.h"

namespace tlmcraft::isa {
namespace {

using test::line_count;
using test::plena_yaml;

// An added V_TEST_V entry with the given `actions:` text (indented map entries).
std::string with_actions(const std::string& actions) {
  return plena_yaml() +
         "\n  - mnemonic: V_TEST_V\n    opcode: 0x3B\n    class: V\n    unit: vector\n"
         "    latency_class: vector_exp\n    operands:\n"
         "      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
         "    doc: \"test\"\n    operation: \"test\"\n    actions:\n" +
         actions;
}

TEST(Actions, SiluDecomposesIntoPrimitivesPerLane) {
  // silu = x * 1 / (1 + exp(-x)): per lane one exp, one add, one recip, one mul.
  InstructionWork w;
  w.ops = {{"vector", "silu", "bf16", 64}};
  w.traffic = {{"vram", 128, 128}};  // one 64-lane bf16 row read and one written
  const NamedActions expect = {{"vector.add.bf16", 64}, {"vector.exp.bf16", 64}, {"vector.mul.bf16", 64},
                               {"vector.recip.bf16", 64}, {"vram.read_bytes", 128}, {"vram.write_bytes", 128}};
  EXPECT_EQ(actions_of(w), expect);
}

TEST(Actions, EqualNamesMergeAndAliasesMapToOnePrimitive) {
  InstructionWork w;
  w.ops = {{"vector", "sub", "bf16", 4}, {"vector", "add", "bf16", 4}, {"vector", "max", "bf16", 3}, {"vector", "fma", "fp32", 2}};
  const NamedActions expect = {{"vector.add.bf16", 8}, {"vector.cmp.bf16", 3}, {"vector.mac.fp32", 2}};
  EXPECT_EQ(actions_of(w), expect);
}

TEST(Actions, UnknownOpAndBadNamesAreErrors) {
  InstructionWork w;
  w.ops = {{"vector", "cosh", "bf16", 1}};
  try {
    actions_of(w);
    FAIL() << "no error";
  } catch (const ActionError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown op 'cosh' (known: add mul mac", 0), 0u) << e.what();
  }
  w.ops = {{"Vector", "add", "bf16", 1}};
  EXPECT_THROW(actions_of(w), ActionError);
}

TEST(Actions, ComposeSumsStepsMinusTheTemporariesTraffic) {
  // Two steps, exp then mul, each reading and writing a 128-byte VRAM row; the temporary
  // between them never leaves the datapath: 128 bytes written and 128 read are saved.
  const NamedActions exp_step = actions_of({{{"vector", "exp", "bf16", 64}}, {{"vram", 128, 128}}});
  const NamedActions mul_step = actions_of({{{"vector", "mul", "bf16", 64}}, {{"vram", 256, 128}}});
  const NamedActions fused = compose_actions({exp_step, mul_step}, {{"vram", 128, 128}});
  const NamedActions expect = {{"vector.exp.bf16", 64}, {"vector.mul.bf16", 64}, {"vram.read_bytes", 256},
                               {"vram.write_bytes", 128}};
  EXPECT_EQ(fused, expect);
  try {
    compose_actions({exp_step}, {{"vram", 0, 129}});
    FAIL() << "no error";
  } catch (const ActionError& e) {
    EXPECT_STREQ(e.what(), "a composed instruction saves 129 of 'vram.write_bytes' but its steps do only 128");
  }
}

TEST(Actions, CountExpressionsUseTheParameters) {
  const std::map<std::string, uint64_t> p = {{"MLEN", 64}, {"HLEN", 16}, {"VLEN", 64}};
  uint64_t n = 0;
  std::string err;
  ASSERT_TRUE(eval_count("MLEN/HLEN*MLEN*HLEN*MLEN", p, n, err)) << err;
  EXPECT_EQ(n, 262144u);  // 4 heads x 64 x 16 x 64
  EXPECT_FALSE(eval_count("VLEN/3", p, n, err));
  EXPECT_EQ(err, "count 'VLEN/3': 64 / 3 is not a whole number");
  EXPECT_FALSE(eval_count("VLEN*LANES", p, n, err));
  EXPECT_EQ(err, "count 'VLEN*LANES': unknown parameter 'LANES' (known: HLEN, MLEN, VLEN)");
}

TEST(Actions, DeclaredActionsAreEvaluatedWithThePlatformsValues) {
  const IsaSpec spec =
      IsaSpec::parse(with_actions("      vector.sigmoid.bf16: VLEN\n      vector.add.bf16: 2\n"), "plena.yaml");
  const InstructionSpec* ins = spec.find("V_TEST_V");
  ASSERT_NE(ins, nullptr);
  // VLEN = 32 from the platform: sigmoid = exp + add + recip per lane, plus 2 adds.
  const NamedActions got = declared_actions(spec, *ins, action_parameters(spec, {{"VLEN", 32}}));
  const NamedActions expect = {{"vector.add.bf16", 34}, {"vector.exp.bf16", 32}, {"vector.recip.bf16", 32}};
  EXPECT_EQ(got, expect);
}

TEST(Actions, BadDeclarationsNameFileLineAndColumn) {
  const std::string text = with_actions("      vector.mul.bf16: VLEN*LANES\n      Vector.mul: 1\n");
  const int first = line_count(plena_yaml()) + 13;  // the line of "vector.mul.bf16: ..."
  try {
    IsaSpec::parse(text, "plena.yaml");
    FAIL() << "no error";
  } catch (const IsaSpecError& e) {
    const std::string expect =
        "plena.yaml:" + std::to_string(first) +
        ":24: instruction V_TEST_V: actions.vector.mul.bf16: count 'VLEN*LANES': unknown parameter 'LANES' (known: "
        "BLEN, HLEN, MLEN, VLEN)\n"
        "plena.yaml:" + std::to_string(first + 1) +
        ":7: instruction V_TEST_V: action 'Vector.mul': each part must be lower-case letters, digits or '_'";
    EXPECT_EQ(std::string(e.what()), expect);
  }
}

TEST(Actions, CounterAddsPrecomputedListsAndReportsEveryAction) {
  ActionCatalog catalog;
  ActionLists lists;
  lists.push({{"vector.mul.bf16", 64}, {"fetch.instruction", 1}}, catalog);
  lists.push({}, catalog);
  lists.push({{"fetch.instruction", 1}}, catalog);
  catalog.id("hbm.read_bytes");  // a platform action no list names
  ActionCounter counter;
  counter.reset(catalog.size());
  counter.add(lists, 0, 3);  // three executions of key 0
  counter.add(lists, 1);
  counter.add(lists, 2);
  const std::map<std::string, uint64_t> expect = {
      {"fetch.instruction", 4}, {"hbm.read_bytes", 0}, {"vector.mul.bf16", 192}};
  EXPECT_EQ(counter.by_name(catalog), expect);
}

}  // namespace
}  // namespace tlmcraft::isa
