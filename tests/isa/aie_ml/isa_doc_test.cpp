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
