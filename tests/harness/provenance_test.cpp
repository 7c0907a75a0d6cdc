// Variant provenance and the resume key: what changes a variant id and what does not.
#include "harness/provenance.h"

#include <gtest/gtest.h>

#include "harness/build_info.h"
#include "harness/suite_runner.h"
#include "platforms/platform.h"
#include "platforms/platform_config.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

VariantSpec spec(std::vector<std::string> overrides, std::string config = "default", std::string name = "") {
  VariantSpec v;
  v.name = std::move(name);
  v.platform_config = std::move(config);
  v.overrides = std::move(overrides);
  return v;
}

TEST(Provenance, RecordsOverridesHashesAndBuild) {
  const json p = variant_provenance("plena", spec({"timing.mode=pipelined", "arch.vlen=128"}, "default", "wide"));
  EXPECT_EQ(p["name"], "wide");
  EXPECT_EQ(p["overrides"], (json{{"arch.vlen", "128"}, {"timing.mode", "pipelined"}}));
  EXPECT_EQ(p["config_fnv1a64"].get<std::string>().size(), 16u);
  ASSERT_EQ(p["isa"].size(), 1u);
  EXPECT_EQ(p["isa"][0]["name"], "plena");
  EXPECT_EQ(p["tlmcraft"]["commit"], build_commit());
  EXPECT_EQ(p["tlmcraft"]["version"], build_version());
  EXPECT_EQ(variant_label(p), "wide");
  json unnamed = p;
  unnamed.erase("name");
  EXPECT_EQ(variant_label(unnamed), "arch.vlen=128, timing.mode=pipelined");
  EXPECT_TRUE(variant_provenance("coral", spec({}))["isa"].empty());  // RISC-V decoder is compiled in
}

TEST(Provenance, VariantIdFollowsContentNotNames) {
  const std::string stock = provenance_variant(variant_provenance("plena", spec({})));
  const std::string half = provenance_variant(variant_provenance("plena", spec({"timing.dma.prefetch.bytes_per_cycle=32"})));
  EXPECT_NE(stock, half);
  // The order of different keys and the variant's name do not matter; the last value of a key wins.
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({"arch.vlen=128", "timing.mode=pipelined"}, "default", "x"))),
            provenance_variant(variant_provenance("plena", spec({"timing.mode=pipelined", "arch.vlen=128"}))));
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({"arch.vlen=64", "arch.vlen=128"}))),
            provenance_variant(variant_provenance("plena", spec({"arch.vlen=128"}))));
  // Another platform is another variant.
  EXPECT_NE(provenance_variant(variant_provenance("coral", spec({}))), stock);
  // A copied config file, a comment added to it, or an override setting the value the file
  // already has is the same variant; a changed value is not.
  test::ScratchDir dir;
  const std::string original = test::read_text(platform_config_path("plena", "default"));
  ASSERT_NE(original.find("  mode: serial "), std::string::npos);
  test::write_text(dir.file("copy.yaml"), original);
  test::write_text(dir.file("commented.yaml"), original + "\n# edited\n");
  std::string pipelined = original;
  pipelined.replace(pipelined.find("  mode: serial "), 15, "  mode: pipelined ");
  test::write_text(dir.file("edited.yaml"), pipelined);
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({}, dir.file("copy.yaml")))), stock);
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({}, dir.file("commented.yaml")))), stock);
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({"timing.mode=serial"}))), stock);
  EXPECT_NE(provenance_variant(variant_provenance("plena", spec({}, dir.file("edited.yaml")))), stock);
  // The edited file is the stock file with the override: one variant.
  EXPECT_EQ(provenance_variant(variant_provenance("plena", spec({}, dir.file("edited.yaml")))),
            provenance_variant(variant_provenance("plena", spec({"timing.mode=pipelined"}))));
}

TEST(Provenance, BadInputIsAnInputError) {
  try {
    variant_provenance("plena", spec({}, "/nonexistent/x.yaml"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "platform config '/nonexistent/x.yaml': cannot read '/nonexistent/x.yaml'");
  }
  try {
    variant_provenance("plena", spec({"arch.vlen"}));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "override 'arch.vlen' is not KEY=VALUE (e.g. timing.mode=pipelined)");
  }
  // A key the config does not have is caught before any job runs, as the platform would.
  EXPECT_THROW(variant_provenance("plena", spec({"arch.no_such_key=1"})), InputError);
  VariantSpec isa = spec({});
  isa.isa_dir = "/nonexistent-isa";
  try {
    variant_provenance("plena", isa);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "ISA plena: cannot read '/nonexistent-isa/plena/plena.yaml'");
  }
}

TEST(Provenance, VariantIsPartOfTheResumeKey) {
  SuiteJob a;
  a.platform = "plena";
  a.task = "gemv";
  a.config = "C1";
  SuiteJob b = a;
  b.variant = "0123456789abcdef";
  EXPECT_NE(job_key(a), job_key(b));
  EXPECT_EQ(job_json(b)["variant"], "0123456789abcdef");
  EXPECT_FALSE(job_json(a).contains("variant"));
  EXPECT_EQ(record_key(json{{"job", job_json(b)}}), job_key(b));
  EXPECT_EQ(record_key(json{{"job", job_json(a)}}), job_key(a));  // records of older runs: no variant
  EXPECT_EQ(variant_worker_args(spec({"arch.vlen=128"}, "my.yaml")),
            (std::vector<std::string>{"--platform-config", "my.yaml", "--set", "arch.vlen=128"}));
}

}  // namespace
}  // namespace tlmcraft::harness
