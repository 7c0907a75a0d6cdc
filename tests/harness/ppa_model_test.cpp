// The energy/area model on hand-made reports and configs: every figure derived by hand.
#include "harness/ppa_model.h"

#include <gtest/gtest.h>

#include "isa/isa_variant.h"
#include "platforms/platform.h"

namespace tlmcraft::harness {
namespace {

using json = nlohmann::json;

json config() {
  return json::parse(R"({
    "clock_ns": 2.0,
    "arch": {"blen": 4, "vlen": 64},
    "memory": {"vram": {"elements": 4096}},
    "ppa": {
      "energy_scale": 0.5,
      "area_scale": 2.0,
      "energy": [
        {"component": "matrix", "counter": "units/matrix/busy_cycles", "per": "arch.blen*arch.blen", "pj": 2.0},
        {"component": "vector", "counter": "units/tile*.vec/busy_cycles", "per": 3, "pj": 1.0},
        {"component": "hbm", "counter": "memory/dma/*/bytes", "pj": 10.0},
        {"component": "leakage", "counter": "cycles", "pj": 1.0}
      ],
      "area": [
        {"component": "vram", "per": "memory.vram.elements*2/1024", "mm2": 0.01},
        {"component": "matrix", "per": "arch.blen*arch.blen", "mm2": 0.001}
      ]
    }
  })");
}

json report() {
  return json::parse(R"({
    "cycles": 1000,
    "units": [
      {"name": "matrix", "busy_cycles": 100},
      {"name": "tile(0,0).vec", "busy_cycles": 7},
      {"name": "tile(0,1).vec", "busy_cycles": 13},
      {"name": "tile(0,1).lda", "busy_cycles": 1000}
    ],
    "memory": {"dma": {"a": {"bytes": 64}, "b": {"bytes": 36}}}
  })");
}

// A per-action table: static power x time marked `kind: static`, prices of actions.
json action_config() {
  return json::parse(R"({
    "ppa": {
      "energy": [
        {"component": "vector", "counter": "actions/vector.mul.bf16", "pj": 0.5},
        {"component": "vector", "counter": "actions/vector.exp.bf16", "pj": 3.0},
        {"component": "vram", "counter": "actions/vram.*", "pj": 2.0},
        {"component": "leakage", "kind": "static", "counter": "cycles", "pj": 10.0}
      ]
    }
  })");
}

TEST(PpaModel, ActionsArePricedAndStaticEnergyIsSeparate) {
  json r = report();
  // vector.exp.bf16 is not in the run's catalog: its price counts zero. vector.add.bf16 was
  // performed but has no price: listed, not silently dropped.
  r["actions"] = {{"vector.mul.bf16", 64},
                  {"vram.read_bytes", 128},
                  {"vram.write_bytes", 64},
                  {"vector.add.bf16", 4},
                  {"fetch.instruction", 0}};
  const json e = ppa_estimates(r, action_config());
  // dynamic: 64 x 0.5 + (128 + 64) x 2 = 32 + 384 = 416; static 1000 cycles x 10 = 10000.
  EXPECT_DOUBLE_EQ(e["energy"]["dynamic_pj"].get<double>(), 416.0);
  EXPECT_DOUBLE_EQ(e["energy"]["static_pj"].get<double>(), 10000.0);
  EXPECT_DOUBLE_EQ(e["energy"]["total_pj"].get<double>(), 10416.0);
  EXPECT_EQ(e["energy"]["unpriced_actions"], json::array({"vector.add.bf16"}));
}

TEST(PpaModel, BadKindIsAnError) {
  json c = action_config();
  c["ppa"]["energy"][3]["kind"] = "leaky";
  json r = report();
  r["actions"] = json::object();
  try {
    ppa_estimates(r, c);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "platform config ppa.energy[3] (leakage): 'kind' must be static or dynamic");
  }
}

TEST(PpaModel, EnergyIsCountsTimesTablesTimesScale) {
  const json e = ppa_estimates(report(), config());
  // matrix 100 x 16 x 2.0 x 0.5 = 1600; vector (7 + 13) x 3 x 1.0 x 0.5 = 30;
  // hbm (64 + 36) x 10 x 0.5 = 500; leakage 1000 x 1 x 0.5 = 500.
  EXPECT_DOUBLE_EQ(e["energy"]["by_component"]["matrix"].get<double>(), 1600.0);
  EXPECT_DOUBLE_EQ(e["energy"]["by_component"]["vector"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(e["energy"]["by_component"]["hbm"].get<double>(), 500.0);
  EXPECT_DOUBLE_EQ(e["energy"]["total_pj"].get<double>(), 2630.0);
  // 2630 pJ over 1000 cycles x 2 ns = 1.315 mW.
  EXPECT_DOUBLE_EQ(e["energy"]["average_power_mw"].get<double>(), 1.315);
  EXPECT_EQ(e["energy"]["terms"][1]["count"].get<double>(), 20.0);
  // vram 4096 x 2 / 1024 = 8 KiB x 0.01 x 2 = 0.16; matrix 16 x 0.001 x 2 = 0.032.
  EXPECT_DOUBLE_EQ(e["area"]["by_component"]["vram"].get<double>(), 0.16);
  EXPECT_DOUBLE_EQ(e["area"]["total_mm2"].get<double>(), 0.192);
}

// An AIE-ML kernel that only moves data has no core units: 'units/tile*.vec/busy_cycles'
// names none of the units there, which is zero vector energy, not a missing counter (the
// run used to end with exit 2 and "counter ... is not in the run's report").
TEST(PpaModel, APatternMatchingNoPresentUnitCountsZero) {
  json r = report();
  r["units"] = json::array({{{"name", "matrix"}, {"busy_cycles", 100}}});
  const json e = ppa_estimates(r, config());
  EXPECT_DOUBLE_EQ(e["energy"]["by_component"]["vector"].get<double>(), 0.0);
  // matrix 1600 + vector 0 + hbm 500 + leakage 500.
  EXPECT_DOUBLE_EQ(e["energy"]["total_pj"].get<double>(), 2600.0);
}

// An AIE-ML kernel without DMA (bench/aie_ml_fidelity's peak_i8) reports `memory.dma: {}`:
// 'memory/dma/*/bytes' is a sum over no channels, zero DMA energy (the fidelity script
// used to stop at "counter 'memory/dma/*/bytes' is not in the run's report").
TEST(PpaModel, APatternOverNoDmaChannelsCountsZero) {
  json r = report();
  r["memory"]["dma"] = json::object();
  const json e = ppa_estimates(r, config());
  EXPECT_DOUBLE_EQ(e["energy"]["by_component"]["hbm"].get<double>(), 0.0);
  // matrix 1600 + vector 30 + hbm 0 + leakage 500 (EnergyIsCountsTimesTablesTimesScale).
  EXPECT_DOUBLE_EQ(e["energy"]["total_pj"].get<double>(), 2130.0);
}

// Channels are there but none has the misspelt leaf: a config error, not zero energy.
TEST(PpaModel, AMisspeltLeafUnderAPatternStillFails) {
  json c = config();
  c["ppa"]["energy"][2]["counter"] = "memory/dma/*/byts";
  try {
    ppa_estimates(report(), c);
    FAIL() << "a misspelt counter was priced as zero";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "platform config ppa.energy[2] (hbm): counter 'memory/dma/*/byts' is not in the run's report");
  }
}

TEST(PpaModel, BadEntriesNameTheEntryAndTheCause) {
  const auto message = [](json cfg) {
    try {
      ppa_estimates(report(), cfg);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  json c = config();
  c["ppa"]["energy"][2]["counter"] = "memory/nowhere/bytes";
  EXPECT_EQ(message(c),
            "platform config ppa.energy[2] (hbm): counter 'memory/nowhere/bytes' is not in the run's report");
  c = config();
  c["ppa"]["energy"][0]["per"] = "arch.nope*2";
  EXPECT_EQ(message(c), "platform config ppa.energy[0] (matrix): 'arch.nope' is not a number or a config key");
  c = config();
  c["ppa"]["energy"][0]["pj"] = -1;
  EXPECT_EQ(message(c), "platform config ppa.energy[0] (matrix): 'pj' must be >= 0");
  c = config();
  c["ppa"]["area"][0]["per"] = "memory.vram.elements/0";
  try {
    area_estimate(c);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "platform config ppa.area[0] (vram): 'per' divides by zero");
  }
}

TEST(PpaModel, RooflineFromCountersAndPeaks) {
  json c = config();
  c["ppa"]["roofline"] = json::parse(R"({
    "ops": [{"counter": "units/matrix/busy_cycles", "per": "arch.blen*arch.blen*2"}],
    "offchip_bytes": ["memory/dma/*/bytes"],
    "peak_ops_per_cycle": ["arch.blen*arch.blen*2", "arch.vlen"],
    "peak_offchip_bytes_per_cycle": 4
  })");
  const json r = roofline_estimate(report(), c);
  // ops 100 x 32 = 3200 over 1000 cycles = 3.2/cycle; bytes 100 -> intensity 32 ops/byte;
  // peak 32 + 64 = 96; attainable min(96, 32 x 4 = 128) = 96: compute bound.
  EXPECT_DOUBLE_EQ(r["ops"].get<double>(), 3200.0);
  EXPECT_DOUBLE_EQ(r["operational_intensity"].get<double>(), 32.0);
  EXPECT_DOUBLE_EQ(r["peak_ops_per_cycle"].get<double>(), 96.0);
  EXPECT_DOUBLE_EQ(r["attainable_ops_per_cycle"].get<double>(), 96.0);
  EXPECT_DOUBLE_EQ(r["fraction_of_peak"].get<double>(), 3.2 / 96.0);
  EXPECT_EQ(r["bound"], "compute");
  c["ppa"]["roofline"]["peak_offchip_bytes_per_cycle"] = 1;  // 32 x 1 = 32 < 96: memory bound
  EXPECT_EQ(roofline_estimate(report(), c)["bound"], "memory");
  EXPECT_DOUBLE_EQ(roofline_estimate(report(), c)["fraction_of_attainable"].get<double>(), 0.1);
  c["ppa"]["roofline"].erase("peak_ops_per_cycle");
  try {
    roofline_estimate(report(), c);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "platform config ppa.roofline.peak_ops_per_cycle is missing");
  }
}

TEST(PpaModel, AddedOnlyToReportsWithCountersAndAModel) {
  json r = {{"status", "assemble_error"}};
  add_ppa_estimates(r, config());
  EXPECT_FALSE(r.contains("energy"));
  json ran = report();
  add_ppa_estimates(ran, json{{"clock_ns", 1.0}});  // no ppa section
  EXPECT_FALSE(ran.contains("energy"));
  add_ppa_estimates(ran, config());
  EXPECT_DOUBLE_EQ(ran["energy"]["total_pj"].get<double>(), 2630.0);
}

TEST(PpaModel, UnderAnIsaVariantTheAreaAddsWhatTheVariantAdds) {
  json base = report();
  add_ppa_estimates(base, config());
  EXPECT_EQ(base["area"]["note"], "estimate: docs/energy-area.md");
  EXPECT_FALSE(base["area"].contains("isa_extension"));
  // The table: vram 4096 x 2 / 1024 x 0.01 + matrix 4 x 4 x 0.001 = 0.096, x area_scale 2 = 0.192.
  EXPECT_DOUBLE_EQ(base["area"]["total_mm2"].get<double>(), 0.192);
  const isa::ScopedIsaVariant variant({"", {"my_overlay.yaml"}});
  const std::vector<AddedArea> added = {{"V_X", "instruction", 0.003},
                                        {"gp write port", "register_port", 0.0005},
                                        {"V_Y", "instruction", 0, "no area for action 'vector.foo.bf16'"}};
  json ran = report();
  add_ppa_estimates(ran, config(), added);
  // Each priced line x area_scale 2: 0.006 and 0.001, 0.007 in all; V_Y is listed, not summed.
  const json& area = ran["area"];
  EXPECT_EQ(area["isa_extension"], json::parse(R"([{"name": "V_X", "kind": "instruction", "mm2": 0.006},
                                                  {"name": "gp write port", "kind": "register_port", "mm2": 0.001}])"));
  EXPECT_DOUBLE_EQ(area["by_component"]["isa_extension"].get<double>(), 0.007);
  EXPECT_DOUBLE_EQ(area["total_mm2"].get<double>(), 0.199);
  EXPECT_EQ(area["unpriced"], json({"V_Y: no area for action 'vector.foo.bf16'"}));
  EXPECT_EQ(area["note"], kAreaWithIsaVariant);
  // Energy does not follow: the added work is in the actions, the static row is fixed.
  EXPECT_EQ(ran["energy"], base["energy"]);
  // A variant that adds nothing says so: an empty list, the table's total.
  json none = report();
  add_ppa_estimates(none, config());
  EXPECT_EQ(none["area"]["isa_extension"], json::array());
  EXPECT_DOUBLE_EQ(none["area"]["total_mm2"].get<double>(), 0.192);
  EXPECT_EQ(none["area"]["note"], kAreaWithIsaVariant);
  // A platform that prices no variant (a plugin's): the table's total, and the note says so.
  json unpriced = report();
  add_ppa_estimates(unpriced, config(), std::nullopt);
  EXPECT_FALSE(unpriced["area"].contains("isa_extension"));
  EXPECT_DOUBLE_EQ(unpriced["area"]["total_mm2"].get<double>(), 0.192);
  EXPECT_EQ(unpriced["area"]["note"], kAreaWithoutVariantPricing);
}

}  // namespace
}  // namespace tlmcraft::harness
