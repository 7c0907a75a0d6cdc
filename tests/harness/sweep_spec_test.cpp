// Sweep files and options: parsing, grid expansion, names, and errors with file:line:col.
#include "harness/sweep_spec.h"

#include <gtest/gtest.h>

#include "platforms/platform.h"
#include "tests/harness/test_util.h"

namespace tlmcraft::harness {
namespace {

TEST(SweepSpec, YamlGridAndListExpandInOrder) {
  test::ScratchDir dir;
  test::write_text(dir.file("s.yaml"), R"(platform: plena
levels: [1]
configs: [C1, C2]
set: {timing.mode: pipelined}
grid:
  timing.dma.prefetch.bytes_per_cycle: [32, 64]
  arch.vlen: [64, 128]
variants:
  - {name: stock}
  - {name: slow, set: {timing.latency.vector_exp: 6}, isa_dir: isa2}
reference: "stock, timing.dma.prefetch.bytes_per_cycle=64, arch.vlen=64"
jobs: 2
)");
  const SweepSpec s = load_sweep_yaml(dir.file("s.yaml"));
  EXPECT_EQ(s.platforms, std::vector<std::string>{"plena"});
  EXPECT_EQ(s.configs, (std::vector<std::string>{"C1", "C2"}));
  EXPECT_EQ(s.jobs, 2u);
  const auto v = expand_variants(s);
  ASSERT_EQ(v.size(), 8u);  // 2 listed x 2 x 2 grid points, the last axis fastest
  EXPECT_EQ(v[0].name, "stock, timing.dma.prefetch.bytes_per_cycle=32, arch.vlen=64");
  EXPECT_EQ(v[1].name, "stock, timing.dma.prefetch.bytes_per_cycle=32, arch.vlen=128");
  EXPECT_EQ(v[2].overrides, (std::vector<std::string>{"timing.mode=pipelined", "timing.dma.prefetch.bytes_per_cycle=64",
                                                        "arch.vlen=64"}));
  EXPECT_EQ(v[4].overrides, (std::vector<std::string>{"timing.mode=pipelined", "timing.latency.vector_exp=6",
                                                        "timing.dma.prefetch.bytes_per_cycle=32", "arch.vlen=64"}));
  EXPECT_EQ(v[4].isa_dir, dir.file("isa2"));  // relative to the sweep file
  EXPECT_EQ(v[0].isa_dir, "");
  EXPECT_EQ(v[0].platform_config, "default");
}

TEST(SweepSpec, OptionsAndNames) {
  SweepSpec s;
  s.grid.push_back(parse_grid_option("arch.vlen=64,128"));
  s.grid.push_back(parse_grid_option("platform_config=a.yaml,default"));
  auto v = expand_variants(s);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1].platform_config, "default");
  EXPECT_EQ(v[0].platform_config, "a.yaml");
  EXPECT_EQ(v[0].name, "arch.vlen=64, platform_config=a.yaml");

  const VariantSpec half = parse_variant_option("half: timing.dma.prefetch.bytes_per_cycle=32 isa_dir=/x");
  EXPECT_EQ(half.name, "half");
  EXPECT_EQ(half.overrides, std::vector<std::string>{"timing.dma.prefetch.bytes_per_cycle=32"});
  EXPECT_EQ(half.isa_dir, "/x");
  SweepSpec list;
  list.variants = {parse_variant_option("stock:"), half};
  v = expand_variants(list);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].name, "stock");
  EXPECT_TRUE(v[0].overrides.empty());

  SweepSpec unnamed;
  unnamed.variants = {parse_variant_option("arch.vlen=128")};
  EXPECT_EQ(expand_variants(unnamed)[0].name, "arch.vlen=128");
}

TEST(SweepSpec, ErrorsNameTheFileLineAndCause) {
  const auto message = [](auto fn) {
    try {
      fn();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  test::ScratchDir dir;
  test::write_text(dir.file("bad.yaml"), "platform: plena\ngrid:\n  arch.vlen: []\n");
  EXPECT_EQ(message([&] { load_sweep_yaml(dir.file("bad.yaml")); }),
            dir.file("bad.yaml") + ":3:14: grid key 'arch.vlen' has no values");
  test::write_text(dir.file("typo.yaml"), "platform: plena\ntasks: [gemv]\ngird: {}\n");
  EXPECT_NE(message([&] { load_sweep_yaml(dir.file("typo.yaml")); }).find(dir.file("typo.yaml") + ":3:7: unknown sweep field 'gird'"),
            std::string::npos);
  test::write_text(dir.file("broken.yaml"), "platform: [plena\n");
  EXPECT_NE(message([&] { load_sweep_yaml(dir.file("broken.yaml")); }).find(dir.file("broken.yaml") + ":"),
            std::string::npos);
  EXPECT_EQ(message([&] { load_sweep_yaml(dir.file("absent.yaml")); }), dir.file("absent.yaml") + ": cannot read the sweep file");
  EXPECT_EQ(message([] { parse_grid_option("arch.vlen"); }),
            "--grid 'arch.vlen': expected KEY=v1,v2,... (e.g. arch.vlen=64,128)");
  EXPECT_EQ(message([] { parse_variant_option("x: arch.vlen"); }),
            "--variant 'x: arch.vlen': 'arch.vlen' is not KEY=VALUE (form: 'NAME: KEY=V KEY=V')");
  SweepSpec twice;
  twice.variants = {parse_variant_option("a: arch.vlen=64"), parse_variant_option("a: arch.vlen=128")};
  EXPECT_EQ(message([&] { expand_variants(twice); }), "two sweep variants are both named 'a'");
}

}  // namespace
}  // namespace tlmcraft::harness
