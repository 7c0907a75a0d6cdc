// The YAML description: it loads, matches the semantics one to one, rejects bad entries
// with file:line messages, and docs/isa/aie-ml.md is exactly what the generator writes.
#include <fstream>
#include <sstream>

#include "isa/aie_ml/isa_tables.h"
#include "isa/aie_ml/op_codes.h"
#include "tests/isa/aie_ml/core_fixture.h"

namespace aie_test {
namespace {

using tlmcraft::isa::aie_ml::aie_isa_details;
using tlmcraft::isa::aie_ml::parse_aie_isa;
using tlmcraft::isa::aie_ml::reference_markdown;

TEST(AieIsaDoc, GeneratedReferenceIsCommitted) {
  std::ifstream f(std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/aie-ml.md");
  ASSERT_TRUE(f) << "docs/isa/aie-ml.md missing: run build/isa/aie_ml/aie_ml_isa_doc";
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_TRUE(ss.str() == reference_markdown(aie_isa_details()))
      << "docs/isa/aie-ml.md is stale: run <build>/isa/aie_ml/aie_ml_isa_doc";
}

TEST(AieIsaDoc, ReferenceListsEveryOpWithItsRealName) {
  const std::string md = reference_markdown(aie_isa_details());
  EXPECT_NE(md.find("| VMAC.BF16 | `bm, bm, x, x` | vmac (6) | VMAC.f (mode 4x8x4 bf16) |"), std::string::npos);
  EXPECT_NE(md.find("| VLDA | `w\\|am, mem` | load (7) | VLDA |"), std::string::npos);
  EXPECT_EQ(aie_isa_details().isa.ops.size(), size_t(tlmcraft::isa::aie_ml::Code::Count));
}

TEST(AieIsaDoc, BadDescriptionsAreRejectedWithLocations) {
  const std::string yaml =
      "latency_classes:\n"
      "  alu: {cycles: 1}\n"
      "ops:\n"
      "  - {mnemonic: ADD, slot: alu, operands: \"r, r, q9\", latency: alu}\n"
      "  - {mnemonic: FROB, slot: zz, operands: \"\", latency: slow}\n";
  try {
    parse_aie_isa(yaml, "bad.yaml");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.yaml:4:5: ADD: unknown operand shape 'q9'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bad.yaml:5:5: FROB: unknown slot 'zz'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("FROB: unknown latency class 'slow'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("FROB: no semantics for this mnemonic"), std::string::npos) << msg;
    EXPECT_NE(msg.find("op VLDA has semantics but is missing from the YAML"), std::string::npos) << msg;
  }
}

TEST(AieIsaDoc, MultiplyOpsStateTheirMacsAndFormat) {
  // The AIE API mmul shapes: int8 4x8x8, int16 4x4x4, bf16 4x8x4; element-wise: one per lane.
  const auto& isa = aie_isa_details().isa;
  const auto macs = [&](const char* m) {
    const auto* op = isa.find(m);
    return op ? std::to_string(op->macs) + " " + tlmcraft::isa::aie_ml::mac_format_name(op->mac_format) : "missing";
  };
  EXPECT_EQ(macs("VMAC.I8"), "256 int8");
  EXPECT_EQ(macs("VMUL.I16"), "64 int16");
  EXPECT_EQ(macs("VMAC.BF16"), "128 bf16");
  EXPECT_EQ(macs("VMSC.BF16"), "128 bf16");
  EXPECT_EQ(macs("VMAC.E.S8"), "32 int8");
  EXPECT_EQ(macs("VMAC.E.BF16"), "16 bf16");
  EXPECT_EQ(macs("VADD.F"), "0 ");
  EXPECT_NE(reference_markdown(aie_isa_details()).find("Per issue: 128 bf16 MACs"), std::string::npos);
}

TEST(AieIsaDoc, BadMacFieldsAreRejectedWithLocations) {
  const std::string yaml =
      "latency_classes:\n"
      "  vmac: {cycles: 6}\n"
      "ops:\n"
      "  - {mnemonic: VMAC.I8, slot: vec, macs: 256, format: int7, operands: \"cm, cm, w, x\", latency: vmac}\n"
      "  - {mnemonic: VMUL.I8, slot: vec, macs: 256, operands: \"cm, w, x\", latency: vmac}\n"
      "  - {mnemonic: VMAC.BF16, slot: vec, macs: 0, format: bf16, operands: \"bm, bm, x, x\", latency: vmac}\n";
  try {
    parse_aie_isa(yaml, "bad.yaml");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.yaml:4:55: VMAC.I8: unknown MAC format 'int7' (int8, int16, int32, bf16, fp32)"),
              std::string::npos) << msg;
    EXPECT_NE(msg.find("bad.yaml:5:5: VMUL.I8: 'macs' and 'format' go together"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bad.yaml:6:44: VMAC.BF16: 'macs' must be an integer 1..65536 (MACs per issue)"),
              std::string::npos) << msg;
  }
}

TEST(AieIsaDoc, BadActionsAreRejectedWithLocations) {
  // `actions:` (energy by action, isa/actions.h): names <component>.<action>[.<format>],
  // counts numbers (AIE-ML has no parameters).
  const std::string yaml =
      "latency_classes:\n"
      "  mul: {cycles: 2}\n"
      "ops:\n"
      "  - {mnemonic: MUL, slot: alu, operands: \"r, r, r\", latency: mul, actions: {scalar.mul.int32: two}}\n"
      "  - {mnemonic: ADD, slot: alu, operands: \"r, r, r\", latency: mul, actions: {Scalar.add: 1}}\n";
  try {
    parse_aie_isa(yaml, "bad.yaml");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.yaml:4:95: MUL: actions.scalar.mul.int32: count 'two': 'two' is not a number"),
              std::string::npos) << msg;
    EXPECT_NE(msg.find("bad.yaml:5:77: ADD: action 'Scalar.add': each part must be lower-case letters, digits or '_'"),
              std::string::npos) << msg;
  }
}

TEST(AieIsaDoc, AScalarWhereAMappingBelongsNamesTheFile) {
  // yaml-cpp's own error used to escape without the file's name (fuzz_isa_yaml finding).
  try {
    parse_aie_isa("notes:\n  - just text\n", "bad.yaml");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "bad.yaml:2:5: operator[] call on a scalar (key: \"title\")");
  }
}

}  // namespace
}  // namespace aie_test
