// A mined PLENA candidate's cost, area and overlay (docs/codesign.md, "PLENA").
//
// Cycles: the steps cost their latency classes' cycles (the timing table,
// serial mode). The estimate for the fused instruction is its slowest step: it
// assumes the operators are chained in one pass of the vector pipeline with the
// intermediate rows kept in pipeline registers instead of VRAM. That is an
// assumption, not a measurement: `codesign explore` measures the suite with the
// declared latency and reports each instruction's break-even latency (the
// largest at which it still pays). Area: platforms/plena/plena_area.h, the same
// figure `isa check` gives the instruction once written as an overlay.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "agent/codesign/overlay_yaml.h"
#include "isa/compose.h"
#include "platforms/plena/pack/agent/plena_dataflow.h"
#include "platforms/plena/pack/agent/plena_kernel.h"
#include "platforms/plena/pack/agent/plena_loop_end.h"
#include "platforms/plena/pack/agent/plena_region_memo.h"
#include "platforms/plena/pack/agent/plena_search.h"
#include "platforms/plena/pack/agent/plena_use_composed.h"
#include "platforms/plena/plena_area.h"

namespace tlmcraft::agent::search::plena {
namespace {

namespace df = isa::dataflow;

double latency(const isa::InstructionSpec& s, const nlohmann::json& hardware) {
  const nlohmann::json* c = &hardware;
  if (hardware.contains("config")) c = &hardware["config"];
  if (c->contains("timing") && (*c)["timing"].contains("latency") &&
      (*c)["timing"]["latency"].contains(s.latency_class))
    return (*c)["timing"]["latency"][s.latency_class].get<double>();
  const int64_t d = plena_spec().default_cycles(s.latency_class);
  return d > 0 ? double(d) : 1.0;
}

int64_t vlen_of(const nlohmann::json& hardware) {
  const nlohmann::json* c = &hardware;
  if (hardware.contains("config")) c = &hardware["config"];
  if (c->contains("arch") && (*c)["arch"].contains("vlen")) return (*c)["arch"]["vlen"].get<int64_t>();
  return 64;
}

// The n-th opcode the ISA leaves free.
int64_t free_opcode(int n) {
  const isa::IsaSpec& spec = plena_spec();
  const int64_t limit = int64_t(1) << (spec.opcode_msb() - spec.opcode_lsb() + 1);
  for (int64_t code = 0; code < limit; ++code)
    if (!spec.find_opcode(static_cast<uint32_t>(code)) && n-- == 0) return code;
  throw std::invalid_argument("plena: no free opcode left for another candidate");
}

// The operand spec of the step operand where a pattern name first appears, and
// whether that operand addresses a row (isa/compose.h, operand_effects).
const isa::OperandSpec* first_use(const df::Pattern& p, const std::string& name, bool* addressed = nullptr) {
  for (const df::PatternStep& st : p.steps) {
    const isa::InstructionSpec* s = plena_spec().find(st.mnemonic);
    for (size_t i = 0; s && i < st.operands.size() && i < s->operands.size(); ++i)
      if (st.operands[i].storage == name && st.operands[i].access != df::Access::Literal) {
        if (addressed) *addressed = isa::operand_effects(plena_spec(), *s)[i].addressed;
        return &s->operands[i];
      }
  }
  return nullptr;
}

bool updated_in_place(const df::Pattern& p, const std::string& name) {
  return std::count(p.inputs.begin(), p.inputs.end(), name) && std::count(p.outputs.begin(), p.outputs.end(), name);
}

// Input and output rows reached through a register the pattern updates in place
// (post-increment): row name -> register name. Such a row is no operand of its own:
// the step names it by the register, whose field addresses it. A temporary stays one
// (a hidden row), even where the kernel kept it in that row: the row is overwritten
// by the output anyway, and a step naming the row after another wrote it would not be
// alias-safe.
std::map<std::string, std::string> rows_through_updates(const df::Pattern& p) {
  std::map<std::string, std::string> via;
  for (const df::PatternStep& st : p.steps)
    for (const df::Operand& o : st.operands)
      if (!o.address.empty() && updated_in_place(p, o.address) &&
          !std::count(p.temps.begin(), p.temps.end(), o.storage))
        via[o.storage] = o.address;
  return via;
}

// The new instruction's operands, each a pattern name, in assembly order: outputs
// (a register updated in place that addresses an output takes its place), then inputs.
std::vector<std::string> operand_owners(const df::Pattern& p) {
  const auto via = rows_through_updates(p);
  std::vector<std::string> owners;
  auto add = [&](const std::string& n) {
    const std::string owner = via.count(n) ? via.at(n) : n;
    if (!std::count(owners.begin(), owners.end(), owner)) owners.push_back(owner);
  };
  for (const std::string& o : p.outputs)
    if (!updated_in_place(p, o)) add(o);
  for (const std::string& i : p.inputs) add(i);
  return owners;
}

// Pattern names -> the new instruction's operand names: the output is rd, inputs
// rs1...; a row reached through a register updated in place is written as that
// register.
std::map<std::string, std::string> operand_names(const df::Pattern& p) {
  std::map<std::string, std::string> names;
  const std::vector<std::string> owners = operand_owners(p);
  int outs = 0, ins = 0;
  for (const std::string& o : owners) {
    const bool out = std::count(p.outputs.begin(), p.outputs.end(), o) && !updated_in_place(p, o);
    const bool addresses_output = [&] {
      for (const auto& [row, reg] : rows_through_updates(p))
        if (reg == o && std::count(p.outputs.begin(), p.outputs.end(), row)) return true;
      return false;
    }();
    if (out || addresses_output)
      names[o] = outs++ ? "rd" + std::to_string(outs) : "rd";
    else
      names[o] = "rs" + std::to_string(++ins);
  }
  for (const auto& [row, reg] : rows_through_updates(p)) names[row] = names.at(reg);
  for (const std::string& t : p.temps) names[t] = t;
  return names;
}

nlohmann::json operand_entry(const df::Pattern& p, const std::string& pattern_name, const std::string& name) {
  bool row = true;
  const isa::OperandSpec* use = first_use(p, pattern_name, &row);
  const std::string kind = use ? plena_spec().kinds()[use->kind].name : "gp";
  const bool update = updated_in_place(p, pattern_name);
  const bool write = update || std::count(p.outputs.begin(), p.outputs.end(), pattern_name);
  nlohmann::json o = {{"name", name}, {"kind", kind}, {"field", name}};
  o["role"] = update ? "readwrite" : write ? "write" : "read";
  // A gp operand of a vector step addresses a VRAM row; one updated in place is the
  // register itself (post-increment: the steps use it as an address, then add to it).
  o["value"] = kind == "gp" && row && !update ? "vrow" : kind;
  return o;
}

// The ISA reference's pseudo-code: the output row as the steps compute it, in order.
std::string operation_text(const df::Pattern& p, const std::map<std::string, std::string>& names) {
  std::string steps;
  for (const df::PatternStep& st : p.steps) steps += (steps.empty() ? "" : "; ") + step_text(st, names);
  std::string out = "rd";
  for (const std::string& o : p.outputs)
    if (!updated_in_place(p, o)) {
      out = names.at(o);
      break;
    }
  return "VRAM[gp[" + out + "]] = the result of: " + steps;
}

}  // namespace

codesign::CandidateCost plena_candidate_cost(const df::Pattern& p, const nlohmann::json& hardware) {
  codesign::CandidateCost c;
  std::vector<std::string> steps;
  for (const df::PatternStep& st : p.steps) {
    const isa::InstructionSpec* s = plena_spec().find(st.mnemonic);
    if (!s) continue;
    const double cyc = latency(*s, hardware);
    c.step_cycles += cyc;
    c.fused_cycles = std::max(c.fused_cycles, cyc);
    steps.push_back(st.mnemonic);
  }
  c.area_mm2 = tlmcraft::plena::plena_composed_area_mm2(plena_spec(), steps, p.temps.size(), vlen_of(hardware));
  return c;
}

nlohmann::json plena_overlay(const df::Pattern& p, const std::string& mnemonic, const codesign::CandidateCost& cost,
                             int ordinal) {
  if (is_loop_end_pattern(p))
    return plena_loop_end_overlay(p, mnemonic, free_opcode(ordinal), static_cast<int64_t>(cost.fused_cycles));
  const auto names = operand_names(p);
  nlohmann::json operands = nlohmann::json::array();
  for (const std::string& o : operand_owners(p)) operands.push_back(operand_entry(p, o, names.at(o)));
  nlohmann::json steps = nlohmann::json::array();
  for (const df::PatternStep& st : p.steps) steps.push_back(step_text(st, names));
  const std::string lclass = "codesign_" + mnemonic;
  std::string doc = "Mined: ";
  for (size_t k = 0; k < p.steps.size(); ++k) doc += (k ? " -> " : "") + p.steps[k].mnemonic;
  nlohmann::json ins = {{"mnemonic", mnemonic},
                        {"opcode", free_opcode(ordinal)},
                        {"class", "V"},
                        {"unit", "vector"},
                        {"latency_class", lclass},
                        {"operands", operands},
                        {"doc", doc},
                        {"operation", operation_text(p, names)},
                        {"compose", {{"temps", p.temps}, {"steps", steps}}}};
  nlohmann::json lc = {{"name", lclass},
                       {"cycles", static_cast<int64_t>(cost.fused_cycles)},
                       {"doc", "estimate: the slowest step's latency (docs/codesign.md)"}};
  return {{"isa", "plena"}, {"instructions", {ins}}, {"latency_classes", {lc}}};
}

namespace {

// `overlay` merged over the shipped ISA (its `semantics:` compiled), read from a temporary
// file since overlays are files. A bad overlay throws std::invalid_argument with the reason.
isa::IsaSpec spec_with_overlay(const nlohmann::json& overlay) {
  char path[] = "/tmp/tlmcraft-plena-overlay-XXXXXX.yaml";
  const int fd = mkstemps(path, 5);
  if (fd < 0) throw std::invalid_argument("plena: cannot write a temporary overlay file to price it");
  close(fd);
  std::ofstream(path) << codesign::to_yaml(overlay);
  try {
    isa::IsaSpec spec = isa::IsaSpec::load(isa::isa_yaml_path("plena"), {path});
    std::remove(path);
    return spec;
  } catch (const std::exception& e) {
    std::remove(path);
    throw std::invalid_argument(e.what());
  }
}

}  // namespace

double plena_overlay_area(const nlohmann::json& overlay, const nlohmann::json& hardware) {
  for (const nlohmann::json& ins : overlay.value("instructions", nlohmann::json::array()))
    if (!ins.contains("compose") && !ins.contains("semantics"))
      throw std::invalid_argument("instruction '" + ins.value("mnemonic", std::string("?")) +
                                  "' has neither compose: steps nor semantics: to price");
  // The one pricing of a variant (plena_area.h): what `isa check` and a run's report give.
  const isa::IsaSpec base = isa::IsaSpec::load(isa::isa_yaml_path("plena"), {});
  double area = 0;
  for (const AddedArea& a : tlmcraft::plena::plena_variant_area(spec_with_overlay(overlay), base, vlen_of(hardware))) {
    if (!a.unpriced.empty()) throw std::invalid_argument(a.unpriced);
    area += a.mm2;
  }
  return area;
}

namespace {

// The gp registers one instruction may write: the most any shipped instruction
// writes (the gp file's write ports); a post-increment uses one of them.
int gp_write_ports() {
  const isa::IsaSpec& spec = plena_spec();
  int most = 0;
  for (const isa::InstructionSpec& ins : spec.instructions()) {
    int n = 0;
    for (const isa::OperandSpec& o : ins.operands) {
      const isa::OperandKind& k = spec.kinds()[o.kind];
      const isa::ValueClass* vc = o.value.empty() ? nullptr : spec.value_class(o.value);
      if (k.type == isa::KindType::Register && spec.register_classes()[k.register_class].name == "gp" &&
          (o.role == isa::Role::Write || o.role == isa::Role::ReadWrite) && !(vc && vc->address))
        ++n;
    }
    most = std::max(most, n);
  }
  return most;
}

// GPW2: the gp register file's second write port. With it one instruction writes two gp
// registers: a row instruction with both its registers' post-increments, or a loop end
// with an update (loop-end fusion).
codesign::HardwareChange second_gp_write_port() {
  codesign::HardwareChange h;
  h.name = "GPW2";
  h.doc = "a second write port on the gp register file (16 x 32 bits): one instruction writes two gp registers";
  h.overlay = {
      {"isa", "plena"},
      {"register_ports", {{{"name", "gp"}, {"write_ports", gp_write_ports() + 1}, {"replace", true}, {"doc", h.doc}}}}};
  h.area_mm2 = tlmcraft::plena::plena_write_ports_area_mm2(plena_spec(), "gp", 1);
  h.max_updates = gp_write_ports() + 1;
  h.loop_end_updates = true;
  return h;
}

}  // namespace

codesign::DataflowAdapter plena_dataflow_adapter() {
  codesign::DataflowAdapter a;
  a.isa = "plena";
  a.parse = static_cast<codesign::KernelDataflow (*)(const std::string&, const std::string&, const nlohmann::json&)>(
      plena_dataflow);
  a.fusable = plena_fusable;
  a.cost = plena_candidate_cost;
  a.overlay_entry = plena_overlay;
  a.use_overlay = plena_use_overlay;
  a.overlay_area = plena_overlay_area;
  a.search_kernel = plena_search_kernel;
  a.search_overlay = plena_search_overlay;
  a.search_memo_dir = set_region_memo_dir;
  // One input per source-register field (rs1..rs3), one output per destination
  // field (rd).
  int reads = 0, writes = 0;
  for (const isa::FieldSpec& f : plena_spec().fields()) {
    if (!f.has_bits()) continue;
    if (f.name.rfind("rs", 0) == 0) ++reads;
    if (f.name == "rd") ++writes;
  }
  a.limits.read_ports = reads;
  a.limits.write_ports = writes;
  a.limits.max_updates = gp_write_ports();
  a.limits.max_ops = 5;
  a.loop_end = plena_loop_end;
  a.hardware_changes = {second_gp_write_port()};
  return a;
}

}  // namespace tlmcraft::agent::search::plena
