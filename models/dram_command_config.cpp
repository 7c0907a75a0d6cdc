#include "models/dram_command_config.h"

#include "models/yaml_config.h"

namespace tlmcraft::models {

namespace {

bool power_of_two(uint64_t v) { return v && !(v & (v - 1)); }

void read_organisation(YamlMap m, DramOrganisation& o, const std::string& where) {
  o.channels = m.u32("channels", o.channels);
  o.pseudo_channels = m.u32("pseudo_channels", o.pseudo_channels);
  o.bank_groups = m.u32("bank_groups", o.bank_groups);
  o.banks = m.u32("banks", o.banks);
  o.rows = m.u32("rows", o.rows);
  o.columns = m.u32("columns", o.columns);
  o.prefetch = m.u32("prefetch", o.prefetch);
  o.channel_bits = m.u32("channel_bits", o.channel_bits);
  m.finish();
  (void)where;
}

void read_timing(YamlMap m, DramTimingParams& t) {
  auto rd = [&](const char* k, uint32_t& v) { v = m.u32(k, v); };
  rd("nBL", t.nBL), rd("nCL", t.nCL), rd("nRCDRD", t.nRCDRD), rd("nRCDWR", t.nRCDWR), rd("nRP", t.nRP);
  rd("nRAS", t.nRAS), rd("nRC", t.nRC), rd("nWR", t.nWR), rd("nRTPS", t.nRTPS), rd("nRTPL", t.nRTPL);
  rd("nCWL", t.nCWL), rd("nCCDS", t.nCCDS), rd("nCCDL", t.nCCDL), rd("nRRDS", t.nRRDS), rd("nRRDL", t.nRRDL);
  rd("nWTRS", t.nWTRS), rd("nWTRL", t.nWTRL), rd("nFAW", t.nFAW);
  rd("act_cycles", t.act_cycles);
  m.finish();
}

}  // namespace

void DramCommandConfig::validate() const {
  const std::string p = "dram '" + name + "': ";
  const auto& o = org;
  for (auto [v, k] : {std::pair{o.channels, "channels"}, {o.pseudo_channels, "pseudo_channels"},
                      {o.bank_groups, "bank_groups"}, {o.banks, "banks"}, {o.rows, "rows"}, {o.columns, "columns"},
                      {o.prefetch, "prefetch"}})
    if (!power_of_two(v)) throw ConfigError(p + "organisation." + k + " must be a power of two, got " + std::to_string(v));
  if (o.columns < 4 * o.prefetch)
    throw ConfigError(p + "organisation.columns must be at least 4 x prefetch (the mapping takes two column bits first)");
  if (o.channel_bits == 0 || o.channel_bits % 8) throw ConfigError(p + "organisation.channel_bits must be a multiple of 8");
  if (read_queue == 0 || write_queue == 0 || active_queue == 0) throw ConfigError(p + "queues must hold at least 1 request");
  if (write_low_percent > write_high_percent || write_high_percent > 100)
    throw ConfigError(p + "need write_low_percent <= write_high_percent <= 100");
  if (t.nBL == 0) throw ConfigError(p + "timing.nBL must be at least 1");
}

DramCommandConfig DramCommandConfig::from_yaml(const YAML::Node& node, const std::string& where) {
  YamlMap m(node, where);
  DramCommandConfig c;
  c.name = m.str("name", c.name);
  if (m.has("organisation")) read_organisation(YamlMap(m.node("organisation"), where + ": organisation"), c.org, where);
  if (m.has("timing")) read_timing(YamlMap(m.node("timing"), where + ": timing"), c.t);
  c.read_queue = m.u32("read_queue", c.read_queue);
  c.write_queue = m.u32("write_queue", c.write_queue);
  c.active_queue = m.u32("active_queue", c.active_queue);
  c.write_high_percent = m.u32("write_high_percent", c.write_high_percent);
  c.write_low_percent = m.u32("write_low_percent", c.write_low_percent);
  const std::string mapping = m.str("mapping", "mop4clxor");
  if (mapping != "mop4clxor") throw ConfigError(m.at("mapping") + ": unknown address mapping '" + mapping + "' (mop4clxor)");
  return finish_config(m, c, where);
}

DramCommandConfig DramCommandConfig::from_yaml_file(const std::string& path) {
  return from_yaml(load_yaml_file(path), path);
}

nlohmann::json DramCommandConfig::to_json() const {
  const auto& o = org;
  return {{"name", name},
          {"organisation",
           {{"channels", o.channels}, {"pseudo_channels", o.pseudo_channels}, {"bank_groups", o.bank_groups},
            {"banks", o.banks}, {"rows", o.rows}, {"columns", o.columns}, {"prefetch", o.prefetch},
            {"channel_bits", o.channel_bits}}},
          {"timing",
           {{"nBL", t.nBL}, {"nCL", t.nCL}, {"nRCDRD", t.nRCDRD}, {"nRCDWR", t.nRCDWR}, {"nRP", t.nRP},
            {"nRAS", t.nRAS}, {"nRC", t.nRC}, {"nWR", t.nWR}, {"nRTPS", t.nRTPS}, {"nRTPL", t.nRTPL},
            {"nCWL", t.nCWL}, {"nCCDS", t.nCCDS}, {"nCCDL", t.nCCDL}, {"nRRDS", t.nRRDS}, {"nRRDL", t.nRRDL},
            {"nWTRS", t.nWTRS}, {"nWTRL", t.nWTRL}, {"nFAW", t.nFAW},
            {"act_cycles", t.act_cycles}}},
          {"read_queue", read_queue},
          {"write_queue", write_queue},
          {"active_queue", active_queue},
          {"write_high_percent", write_high_percent},
          {"write_low_percent", write_low_percent},
          {"mapping", "mop4clxor"}};
}

}  // namespace tlmcraft::models
