// Convex subgraphs under port limits, on hand-written regions (the expectations
// are the definitions in isa/dataflow/subgraphs.h applied by hand).
#include "isa/dataflow/subgraphs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ops_text.h"

namespace tlmcraft::isa::dataflow {
namespace {
using testing::ops;

std::set<std::vector<size_t>> sets(const std::vector<Subgraph>& g) {
  std::set<std::vector<size_t>> s;
  for (const Subgraph& x : g) s.insert(x.ops);
  return s;
}

auto any_op = [](const Op&) { return true; };

TEST(Subgraphs, NonConvexPairIsLeftOut) {
  // 0 -> 1 -> 2 and 0 -> 2: {0, 2} would need op 1's result inside the new
  // instruction.
  auto k = ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "sub w:x7 r:x5 r:x6", "sw r:x7 r:x0"});
  k[3].barrier = true;
  SubgraphLimits lim;
  lim.read_ports = 3;
  lim.write_ports = 2;
  const auto s = sets(convex_subgraphs(k, 0, 3, any_op, lim));
  EXPECT_FALSE(s.count({0, 2}));
  EXPECT_TRUE(s.count({0, 1}));
  EXPECT_TRUE(s.count({1, 2}));
  EXPECT_TRUE(s.count({0, 1, 2}));
}

TEST(Subgraphs, MemoryReadsWithinTheLimitAndInOrder) {
  // 0 load x5 from memory through x1; 1 add x6 = x5 + x2; 2 load x7 through x3; 3 add x8 =
  // x7 + x6 (read after the region: the one output). "M" stands for memory.
  auto k = ops({"ld w:x5 r:x1", "add w:x6 r:x5 r:x2", "ld w:x7 r:x3", "add w:x8 r:x7 r:x6", "st r:x8 r:x4"});
  k[0].implicit_reads = k[2].implicit_reads = {"M"};
  k[4].implicit_writes = {"M"};
  k[4].barrier = true;
  SubgraphLimits lim;
  lim.read_ports = 3;
  // Without a memory storage named, loads join like any op: {0..3} reads x1, x2, x3.
  EXPECT_TRUE(sets(convex_subgraphs(k, 0, 4, any_op, lim)).count({0, 1, 2, 3}));
  // One memory read per subgraph: the four ops hold two loads, refused; {0, 1} and {2, 3}
  // hold one each.
  lim.memory = "M";
  lim.max_memory_reads = 1;
  auto s = sets(convex_subgraphs(k, 0, 4, any_op, lim));
  EXPECT_FALSE(s.count({0, 1, 2, 3}));
  EXPECT_TRUE(s.count({0, 1}));
  EXPECT_TRUE(s.count({2, 3}));
  // None at all: no subgraph holds a load.
  lim.max_memory_reads = 0;
  s = sets(convex_subgraphs(k, 0, 4, any_op, lim));
  EXPECT_EQ(s, (std::set<std::vector<size_t>>{{1, 3}}));
  // A store between the load and the subgraph's last op (op 2 now writes memory): {0, 1, 3}
  // would load after it; {0, 1} ends before it. The store itself never joins.
  auto w = ops({"ld w:x5 r:x1", "add w:x6 r:x5 r:x2", "st r:x9 r:x3", "add w:x8 r:x6 r:x2", "st r:x8 r:x4"});
  w[0].implicit_reads = {"M"};
  w[2].implicit_writes = w[4].implicit_writes = {"M"};
  w[4].barrier = true;
  lim.max_memory_reads = 1;
  s = sets(convex_subgraphs(w, 0, 4, any_op, lim));
  EXPECT_FALSE(s.count({0, 1, 3}));
  EXPECT_TRUE(s.count({1, 3}));
  for (const auto& g : s) EXPECT_FALSE(std::count(g.begin(), g.end(), size_t(2))) << g.size();
}

TEST(Subgraphs, PortLimitsAreEnforced) {
  // {0, 1} reads x1, x2, x3: three inputs; the store after the region reads x5
  // and x6: two outputs.
  auto k = ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "sw r:x6 r:x5"});
  k[2].barrier = true;
  SubgraphLimits lim;
  lim.read_ports = 2;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());
  lim.read_ports = 3;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());  // two outputs, one write port
  lim.write_ports = 2;
  const auto g = convex_subgraphs(k, 0, 2, any_op, lim);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].inputs, 3);
  EXPECT_EQ(g[0].outputs, 2);
}

TEST(Subgraphs, CanonicalPatternIgnoresRegistersAndOrder) {
  auto a = ops(
      {"mul w:x5 r:x1 r:x2", "mul w:x6 r:x3 r:x4", "add w:x7 r:x5 r:x6", "li w:x5 #0", "li w:x6 #0", "sw r:x7 r:x0"});
  auto b = ops({"mul w:x9 r:x13 r:x14", "mul w:x8 r:x11 r:x12", "add w:x10 r:x8 r:x9", "li w:x8 #0", "li w:x9 #0",
                "sw r:x10 r:x0"});
  std::string sa, sb;
  Pattern pa = canonical_pattern(a, 5, Subgraph{{0, 1, 2}}, sa);
  canonical_pattern(b, 5, Subgraph{{0, 1, 2}}, sb);
  EXPECT_EQ(sa, sb);
  EXPECT_EQ(sa, "mul t0, in0, in1\nmul t1, in2, in3\nadd out0, t0, t1\n");
  EXPECT_EQ(pa.inputs.size(), 4u);
  EXPECT_EQ(pa.outputs, (std::vector<std::string>{"out0"}));
  // The canonical pattern finds its own occurrence again.
  EXPECT_EQ(find_matches(b, pa).size(), 1u);
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow

namespace tlmcraft::isa::dataflow {
namespace {

TEST(Subgraphs, AStorageRewrittenOutsideBetweenTwoReadsIsTwoInputs) {
  // Op 0 reads x1; op 1 (outside the subgraph) rewrites x1; op 2 reads the new x1 and op
  // 0's result. {0, 2} has three input values: old x1, new x1, x3 (not two names for one
  // value: the new instruction could not read both old and new x1 as one operand).
  auto k = testing::ops({"neg w:x5 r:x1", "li w:x1 #0", "mac w:x6 r:x1 r:x5 r:x3", "sw r:x6 r:x0"});
  k[3].barrier = true;
  SubgraphLimits lim;
  lim.read_ports = 3;
  const Subgraph g{{0, 2}, 3, 1};
  std::string sig;
  const Pattern p = canonical_pattern(k, 3, g, sig);
  EXPECT_EQ(p.inputs, (std::vector<std::string>{"in0", "in1", "in2"}));
  EXPECT_EQ(sig, "neg t0, in0\nmac out0, in1, t0, in2\n");
}

TEST(Subgraphs, CommutativeOperandsNameAlike) {
  // t = x1 * x2; y = x3 + t, and the same with y = t + x3: one computation when the add's
  // operands (positions 1 and 2) commute, two when they do not.
  auto a = testing::ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x3 r:x5", "sw r:x6 r:x0"});
  auto b = testing::ops({"mul w:x5 r:x1 r:x2", "add w:x6 r:x5 r:x3", "sw r:x6 r:x0"});
  a[2].barrier = b[2].barrier = true;
  const Subgraph g{{0, 1}, 3, 1};
  std::string sa, sb;
  canonical_pattern(a, 2, g, sa);
  canonical_pattern(b, 2, g, sb);
  EXPECT_NE(sa, sb);
  a[1].commutes_a = b[1].commutes_a = 1;
  a[1].commutes_b = b[1].commutes_b = 2;
  canonical_pattern(a, 2, g, sa);
  canonical_pattern(b, 2, g, sb);
  EXPECT_EQ(sa, sb);
  EXPECT_EQ(sa, "mul t0, in0, in1\nadd out0, in2, t0\n");
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow

namespace tlmcraft::isa::dataflow {
namespace {

// A row op reaching row0 through register a0, then a0 += 64 (post-increment), and a
// barrier reading the result row and a0. The update joins only when the limits allow an
// in-place register (max_updates), only next to the op that uses it as an address, and
// not across an op that reads a0 in between (write-after-read).
TEST(Subgraphs, RegisterUpdatedInPlaceJoinsItsAddressUser) {
  auto k = ops({"exp w:row1 r:row0", "addi w:a0 r:a0 #64", "| r:row1 r:a0"});
  k[0].operands[1].address = "a0";
  auto rows_only = [](const Op& op) { return op.mnemonic == "exp"; };
  SubgraphLimits lim;
  lim.read_ports = 1;  // a0 is the only input: the row it addresses needs no port
  lim.write_ports = 1;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, rows_only, lim).empty());
  lim.max_updates = 1;
  const auto found = convex_subgraphs(k, 0, 2, rows_only, lim);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].ops, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(found[0].inputs, 1);
  EXPECT_EQ(found[0].outputs, 1);
  EXPECT_EQ(found[0].updates, 1);
  std::string sig;
  const Pattern p = canonical_pattern(k, 2, found[0], sig);
  EXPECT_EQ(sig, "exp out0, in0@io0\naddi io0, io0, 64\n");
  EXPECT_EQ(p.inputs, (std::vector<std::string>{"io0", "in0"}));
  EXPECT_EQ(p.outputs, (std::vector<std::string>{"out0", "io0"}));

  auto between = ops({"exp w:row1 r:row0", "copy w:x9 r:a0", "addi w:a0 r:a0 #64", "| r:row1 r:a0 r:x9"});
  between[0].operands[1].address = "a0";
  EXPECT_TRUE(convex_subgraphs(between, 0, 3, rows_only, lim).empty());
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow

namespace tlmcraft::isa::dataflow {
namespace {

// An accumulating op (vmacc: vd = vd + vs1 * vs2, its vd read and written: "rw:") at the
// end of a chain: m = min(x, z); x += c * m. The subgraph {0, 1} reads x (v8, the
// accumulator: one value read by both ops), z (v16) and c (v20) and writes x back: three
// reads counting the accumulator, one write.
TEST(Subgraphs, AnAccumulatorIsAReadAndAWrite) {
  auto k = ops({"vmin.vv w:v12 r:v8 r:v16", "vmacc.vv rw:v8 r:v20 r:v12", "| r:v8"});
  SubgraphLimits lim;
  lim.read_ports = 3;
  lim.write_ports = 1;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());  // accumulators off: left out
  lim.accumulators = true;
  const auto found = convex_subgraphs(k, 0, 2, any_op, lim);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].ops, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(found[0].inputs, 3);
  EXPECT_EQ(found[0].outputs, 1);
  std::string sig;
  const Pattern p = canonical_pattern(k, 2, found[0], sig);
  EXPECT_EQ(sig, "vmin.vv t0, in0, in1\nvmacc.vv in0, in2, t0\n");
  EXPECT_EQ(p.inputs, (std::vector<std::string>{"in0", "in1", "in2"}));
  EXPECT_EQ(p.outputs, (std::vector<std::string>{"in0"}));  // the accumulator, written back
  EXPECT_EQ(p.temps, (std::vector<std::string>{"t0"}));
  EXPECT_TRUE(check_pattern(p).empty());
  EXPECT_EQ(find_matches(k, p).size(), 1u);  // the pattern finds its own occurrence
  // The accumulator's read takes a port: with two read ports the chain is not proposed.
  lim.read_ports = 2;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());
}

TEST(Subgraphs, AnAccumulatorWrittenBackTakesTheWritePortEvenWhenDead) {
  // Nothing reads v8 after the region (no barrier reading it): the accumulator still
  // writes it, so m (v12, read after the region by the barrier) makes two outputs.
  auto k = ops({"vmin.vv w:v12 r:v8 r:v16", "vmacc.vv rw:v8 r:v20 r:v12", "| r:v12"});
  SubgraphLimits lim;
  lim.accumulators = true;
  lim.read_ports = 3;
  lim.write_ports = 1;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());
  lim.write_ports = 2;
  const auto found = convex_subgraphs(k, 0, 2, any_op, lim);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].outputs, 2);
}

TEST(Subgraphs, AnAccumulationOntoAValueTheSubgraphComputedKeepsItsName) {
  // As in the searched flash_attention kernel: t = sext(x); t = t * s + acc (vmadd: vd =
  // vd * rs1 + vs2, vd read and written). The vmadd continues the value vsext wrote, so
  // both steps name it out0 (used after the region); inputs x, s, acc: three reads.
  auto k = ops({"vsext.vf4 w:v16 r:v10", "vmadd.vx rw:v16 r:s5 r:v12", "| r:v16"});
  SubgraphLimits lim;
  lim.accumulators = true;
  lim.read_ports = 3;
  lim.write_ports = 1;
  const auto found = convex_subgraphs(k, 0, 2, any_op, lim);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].inputs, 3);
  EXPECT_EQ(found[0].outputs, 1);
  std::string sig;
  const Pattern p = canonical_pattern(k, 2, found[0], sig);
  EXPECT_EQ(sig, "vsext.vf4 out0, in0\nvmadd.vx out0, in1, in2\n");
  EXPECT_EQ(p.outputs, (std::vector<std::string>{"out0"}));
  EXPECT_TRUE(p.temps.empty());
  EXPECT_EQ(find_matches(k, p).size(), 1u);
  // An op outside reading sext(x) before the vmadd overwrites it: that value would have to
  // leave the instruction too, under the same name: not proposed.
  auto read_between = ops({"vsext.vf4 w:v16 r:v10", "copy w:v20 r:v16", "vmadd.vx rw:v16 r:s5 r:v12", "| r:v16 r:v20"});
  auto not_copy = [](const Op& op) { return op.mnemonic != "copy"; };
  lim.write_ports = 2;
  for (const Subgraph& g : convex_subgraphs(read_between, 0, 3, not_copy, lim))
    EXPECT_NE(g.ops, (std::vector<size_t>{0, 2}));
}

TEST(Subgraphs, TwoAccumulationsOntoAnInputWriteItBackOnce) {
  // acc += a * b; acc += c * d: one input-and-output acc (in0) and four sources.
  auto k = ops({"vmacc.vv rw:v8 r:v1 r:v2", "vmacc.vv rw:v8 r:v3 r:v4", "| r:v8"});
  SubgraphLimits lim;
  lim.accumulators = true;
  lim.read_ports = 5;
  lim.write_ports = 1;
  const auto found = convex_subgraphs(k, 0, 2, any_op, lim);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].inputs, 5);
  EXPECT_EQ(found[0].outputs, 1);
  std::string sig;
  const Pattern p = canonical_pattern(k, 2, found[0], sig);
  EXPECT_EQ(sig, "vmacc.vv in0, in1, in2\nvmacc.vv in0, in3, in4\n");
  EXPECT_EQ(p.outputs, (std::vector<std::string>{"in0"}));
  lim.read_ports = 4;
  EXPECT_TRUE(convex_subgraphs(k, 0, 2, any_op, lim).empty());
}

}  // namespace
}  // namespace tlmcraft::isa::dataflow
