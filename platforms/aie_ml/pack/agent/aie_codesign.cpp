#include "platforms/aie_ml/pack/agent/aie_codesign.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "agent/codesign/overlay_scope.h"
#include "isa/aie_ml/bundle_schedule.h"
#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/fused_latency.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_area.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/aie_ml/kernel_file.h"
#include "platforms/aie_ml/pack/agent/aie_candidates.h"
#include "platforms/aie_ml/pack/agent/aie_dataflow.h"
#include "platforms/aie_ml/pack/agent/aie_use_added_ops.h"

namespace tlmcraft::agent::search::aie {

using namespace isa::aie_ml;
namespace df = isa::dataflow;
using nlohmann::json;

namespace {

// Rounds of `aie_search_kernel`: enough for compaction, an unrolling, register
// reallocation and offset addressing to follow one another (each round takes one step).
constexpr int kSearchRounds = 8;

// One phase of a kernel file parsed with whole-file line numbers (blank lines stand in
// for the lines before it).
struct PhaseKernel {
  tlmcraft::aie_ml::PhaseText text;
  AieKernel kernel;
};

// The assembler's first error in a phase, as file:line:col: message ("" when none).
std::string first_assembler_error(const tlmcraft::aie_ml::PhaseText& p, const std::string& file) {
  tlmcraft::aie_ml::KernelParts parts;
  std::vector<isa::Diagnostic> diags;
  tlmcraft::aie_ml::split_kernel(p.source, file, 1024, 1024, parts, diags, p.first_line);
  for (const auto& t : parts.tiles)
    if (diags.empty()) (void)assemble_core(t.text, file, t.first_line, diags);
  return diags.empty() ? "" : diags.front().format();
}

std::vector<PhaseKernel> parse_phases(const std::string& kernel, const std::string& file) {
  std::vector<tlmcraft::aie_ml::PhaseText> phases;
  std::vector<isa::Diagnostic> diags;
  if (!tlmcraft::aie_ml::split_phases(kernel, file, phases, diags))
    throw std::invalid_argument(diags.empty() ? file + ": bad phases" : diags.front().format());
  std::vector<PhaseKernel> out;
  for (auto& p : phases) {
    PhaseKernel k{p, {}};
    std::string error;
    if (!parse_aie_kernel(std::string(p.first_line - 1, '\n') + p.source, k.kernel, error)) {
      const std::string located = first_assembler_error(p, file);
      throw std::invalid_argument(located.empty() ? file + ": " + error : located);
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::string tile_name(const std::string& file, const PhaseKernel& p, size_t tile) {
  const std::string& h = p.kernel.tiles[tile].header;
  return file + " (phase " + p.text.name + (h.empty() ? "" : ", " + h.substr(h.find_first_not_of(" \t"))) + ")";
}

// Executions per source line of one tile, checked not to depend on memory data.
std::map<uint32_t, uint64_t> line_executions(const AieTile& tile, const std::string& where) {
  const std::vector<uint64_t> zeros = bundle_executions(tile, 0x00, where);
  if (bundle_executions(tile, 0x5A, where) != zeros)
    throw std::invalid_argument(where + ": its control flow depends on data in memory (execution counts unknown)");
  std::map<uint32_t, uint64_t> by_line;
  for (size_t l = 0; l < tile.lines.size(); ++l)
    if (tile.lines[l].kind == AieLine::Kind::Bundle) by_line[tile.lines[l].source_line] = zeros[l];
  return by_line;
}

void append_tile(const AieTile& tile, const std::map<uint32_t, uint64_t>& runs, codesign::KernelDataflow& k) {
  const size_t base = k.ops.size();
  TileDataflow t = tile_dataflow(tile);
  for (size_t i = 0; i < t.ops.size(); ++i) {
    df::Op op = std::move(t.ops[i]);
    for (size_t& j : op.jumps_to) j += base;
    const TileDataflow::Place& p = t.places[i];
    const bool real = p.line != SIZE_MAX;
    k.executions.push_back(real ? runs.at(tile.lines[p.line].source_line) : 0);
    k.cycles.push_back(real ? double(AieIsa::get().latency_of(tile.lines[p.line].ops[p.op].op)) : 0.0);
    op.line = real ? tile.lines[p.line].source_line : 0;
    k.ops.push_back(std::move(op));
  }
  df::Op end;  // the core program ends here: nothing flows into the next tile
  end.mnemonic = "tile end";
  end.barrier = true;
  end.falls_through = false;
  k.ops.push_back(end);
  k.executions.push_back(0);
  k.cycles.push_back(0);
}

void close_regions(codesign::KernelDataflow& k) {
  size_t begin = 0;
  for (size_t i = 0; i <= k.ops.size(); ++i) {
    if (i < k.ops.size() && !k.ops[i].barrier) continue;
    if (i > begin) k.regions.push_back({begin, i});
    begin = i + 1;
  }
}

const OpSpec* spec_of(const std::string& dataflow_name) { return AieIsa::get().find(plain_mnemonic(dataflow_name)); }

// The register class a pattern name stands for: the class of the first step operand that
// names it (the mnemonic's decoration, else the operand's shape).
std::string class_of(const df::Pattern& p, const std::string& name) {
  for (const df::PatternStep& st : p.steps)
    for (size_t j = 0; j < st.operands.size(); ++j) {
      if (st.operands[j].storage != name || st.operands[j].access == df::Access::Literal) continue;
      const size_t colon = st.mnemonic.find(':');
      if (colon != std::string::npos) {
        std::vector<std::string> classes;
        std::stringstream ss(st.mnemonic.substr(colon + 1));
        for (std::string c; std::getline(ss, c, ',');) classes.push_back(c);
        if (j < classes.size()) return classes[j];
      }
      const OpSpec* s = spec_of(st.mnemonic);
      if (s && j < s->operands.size()) return s->operands[j];
    }
  return "";
}

RegClass reg_class(const std::string& prefix) {
  for (int c = int(RegClass::R); c <= int(RegClass::CR); ++c)
    if (prefix == reg_class_prefix(RegClass(c))) return RegClass(c);
  return RegClass::None;
}

// The pattern as a chain for the fused-latency rule (isa/aie_ml/fused_latency.h): each
// step's latency, the stage it reads each register operand in and the earlier step that
// wrote it, and whether its result is a pattern output.
std::vector<ChainStep> chain_steps(const df::Pattern& p, const ReadStages& stages) {
  std::vector<ChainStep> chain;
  for (size_t k = 0; k < p.steps.size(); ++k) {
    const OpSpec* s = spec_of(p.steps[k].mnemonic);
    if (!s) throw std::invalid_argument("unknown AIE-ML op '" + plain_mnemonic(p.steps[k].mnemonic) + "' in a pattern");
    ChainStep step;
    const auto lat = AieIsa::get().latency.find(s->latency_class);
    step.result_stage = lat == AieIsa::get().latency.end() ? 1 : lat->second;
    step.output = false;
    const auto& operands = p.steps[k].operands;
    for (size_t i = 0; i < operands.size(); ++i) {
      const df::Operand& o = operands[i];
      if (o.writes() && std::count(p.outputs.begin(), p.outputs.end(), o.storage)) step.output = true;
      if (!o.reads() || o.access == df::Access::Literal) continue;
      ChainStep::Read read{-1, operand_read_stage(*s, i, stages)};
      for (size_t j = k; j-- > 0 && read.from < 0;) {
        const auto& w = p.steps[j].operands;
        if (std::any_of(w.begin(), w.end(), [&](const df::Operand& x) { return x.writes() && x.storage == o.storage; }))
          read.from = int(j);
      }
      step.reads.push_back(read);
    }
    chain.push_back(step);
  }
  return chain;
}

// The platform config of the co-design tools' `hardware` ({platform, config} or the config).
const json& config_of(const json& hardware) {
  return hardware.is_object() && hardware.contains("config") ? hardware["config"] : hardware;
}

// The steps as slot ops (op and slot only: what the area needs) and the temps' classes.
double pattern_area(const df::Pattern& p) {
  std::vector<SlotOp> steps;
  for (const df::PatternStep& st : p.steps) {
    const OpSpec* s = spec_of(st.mnemonic);
    if (!s) throw std::invalid_argument("unknown AIE-ML op '" + plain_mnemonic(st.mnemonic) + "' in a pattern");
    SlotOp op;
    op.op = uint16_t(s - AieIsa::get().ops.data());
    op.code = s->code;
    op.slot = s->slot;
    steps.push_back(op);
  }
  std::vector<RegClass> temps;
  for (const std::string& t : p.temps) temps.push_back(reg_class(class_of(p, t)));
  return tlmcraft::aie_ml::composed_area_mm2(steps, temps);
}

std::string step_text(const df::PatternStep& st) {
  std::string s = plain_mnemonic(st.mnemonic);
  for (size_t i = 0; i < st.operands.size(); ++i)
    s += (i ? ", " : " ") + (st.operands[i].access == df::Access::Literal && st.operands[i].storage.empty()
                                 ? st.operands[i].text
                                 : st.operands[i].storage);
  return s;
}

// The slot of the added op: vec when any step is a vector op (or a vector move), else alu.
std::string slot_of(const df::Pattern& p) {
  for (const df::PatternStep& st : p.steps) {
    const OpSpec* s = spec_of(st.mnemonic);
    if (s && (s->slot == Slot::Vector || s->slot == Slot::Move)) return "vec";
  }
  return "alu";
}

// The overlay in force for the duration of a call (agent/codesign/overlay_scope.h),
// checked to load as the AIE-ML ISA.
class OverlayScope {
 public:
  explicit OverlayScope(const json& overlay) : scope_(overlay, "aie") {
    try {
      (void)AieIsa::get();
    } catch (const std::exception& e) {
      throw std::invalid_argument(std::string("the overlay does not load: ") + e.what());
    }
  }

 private:
  codesign::ScopedOverlay scope_;
};

// The added ops an overlay defines, as loaded (larger patterns first: they save more).
std::vector<const ExtensionOp*> overlay_ops(const json& overlay) {
  std::vector<const ExtensionOp*> ops;
  for (const json& o : overlay.value("ops", json::array())) {
    const OpSpec* s = AieIsa::get().find(o.value("mnemonic", ""));
    if (s && s->extension >= 0) ops.push_back(AieIsa::get().extensions.at(size_t(s->extension)).get());
  }
  std::stable_sort(ops.begin(), ops.end(), [](const ExtensionOp* a, const ExtensionOp* b) {
    return a->pattern_steps().size() > b->pattern_steps().size();
  });
  return ops;
}

// `lines` with lines [first, first + count) (1-based) replaced by the lines of `with`.
void replace_lines(const std::vector<std::string>& lines, size_t first, size_t count, const std::string& with,
                   std::vector<std::string>& out) {
  out.assign(lines.begin(), lines.begin() + long(first - 1));
  std::stringstream ss(with);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  out.insert(out.end(), lines.begin() + long(std::min(lines.size(), first - 1 + count)), lines.end());
}

// The kernel with each phase the analysis reads passed to `change` (which edits its
// tiles and says whether it changed anything); phases it cannot read stay as they are.
std::string rewrite_phases(const std::string& kernel, const std::function<bool(PhaseKernel&)>& change) {
  std::vector<PhaseKernel> phases;
  try {
    phases = parse_phases(kernel, "kernel");
  } catch (const std::invalid_argument&) {
    return kernel;  // not a kernel the analysis reads: left unchanged
  }
  std::vector<std::string> lines = tlmcraft::aie_ml::kernel_lines(kernel);
  bool any = false;
  for (size_t i = phases.size(); i-- > 0;) {  // last phase first: earlier line numbers stay valid
    PhaseKernel& p = phases[i];
    if (!change(p)) continue;
    any = true;
    std::string printed = print_aie_kernel(p.kernel);
    for (uint32_t pad = 1; pad < p.text.first_line; ++pad) printed.erase(0, printed.find('\n') + 1);
    const size_t count = size_t(std::count(p.text.source.begin(), p.text.source.end(), '\n'));
    std::vector<std::string> next;
    replace_lines(lines, p.text.first_line, count, printed, next);
    lines = std::move(next);
  }
  if (!any) return kernel;
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// The uses of `ops` in a kernel: static count and executions (the bundles' counts).
std::map<std::string, codesign::KernelRewrite::Use> added_op_uses(const std::string& kernel,
                                                                  const std::vector<const ExtensionOp*>& ops) {
  std::map<std::string, codesign::KernelRewrite::Use> uses;
  std::vector<PhaseKernel> phases;
  try {
    phases = parse_phases(kernel, "kernel");
  } catch (const std::invalid_argument&) {
    return uses;
  }
  for (const PhaseKernel& p : phases)
    for (size_t t = 0; t < p.kernel.tiles.size(); ++t) {
      const AieTile& tile = p.kernel.tiles[t];
      std::vector<uint64_t> runs;
      try {
        runs = bundle_executions(tile, 0x00, tile_name("kernel", p, t));
      } catch (const std::invalid_argument&) {
        runs.assign(tile.lines.size(), 0);  // counts unknown: static uses only
      }
      for (size_t l = 0; l < tile.lines.size(); ++l)
        for (const AieOp& op : tile.lines[l].ops)
          for (const ExtensionOp* e : ops)
            if (op.mnemonic() == e->mnemonic) {
              ++uses[e->mnemonic].static_count;
              uses[e->mnemonic].executions += runs[l];
            }
    }
  return uses;
}

}  // namespace

codesign::KernelDataflow aie_kernel_dataflow(const std::string& kernel, const std::string& file, const json& hardware) {
  (void)hardware;  // latencies are the ISA's (the platform configuration does not change them)
  codesign::KernelDataflow k;
  for (const PhaseKernel& p : parse_phases(kernel, file))
    for (size_t t = 0; t < p.kernel.tiles.size(); ++t)
      append_tile(p.kernel.tiles[t], line_executions(p.kernel.tiles[t], tile_name(file, p, t)), k);
  close_regions(k);
  return k;
}

bool aie_fusable(const df::Op& op) {
  if (op.barrier) return false;
  const OpSpec* s = spec_of(op.mnemonic);
  if (!s || s->extension >= 0 || s->mnemonic == "VLT.S8" || s->mnemonic == "VSEL.8") return false;
  for (const std::string& r : op.implicit_reads)
    if (r == kMixedViewMark || r == "MEM@*") return false;
  for (const std::string& w : op.implicit_writes)
    if (w == "MEM@*") return false;
  if (s->slot == Slot::Vector || s->slot == Slot::Scalar) return true;
  if (s->slot != Slot::Move) return false;
  for (const df::Operand& o : op.operands) {  // a vector or accumulator move
    const RegClass c = reg_class(std::string(o.text.begin(), std::find_if(o.text.begin(), o.text.end(), ::isdigit)));
    if (o.access == df::Access::Literal || CoreState::view_bytes(c) <= 0) return false;
  }
  return true;
}

codesign::CandidateCost aie_candidate_cost(const df::Pattern& p, const json& hardware) {
  codesign::CandidateCost c;
  const ChainLatency chain = chain_latency(chain_steps(p, ::tlmcraft::aie_ml::read_stages_in(config_of(hardware))));
  c.step_cycles = chain.back_to_back;
  c.fused_cycles = chain.one_pass;
  // On every compute tile, as aie_variant_area prices the op once it is an overlay.
  c.area_mm2 = pattern_area(p) * tlmcraft::aie_ml::compute_tiles(config_of(hardware));
  return c;
}

json aie_overlay(const df::Pattern& p, const std::string& mnemonic, const codesign::CandidateCost& cost, int ordinal) {
  (void)ordinal;  // an AIE-ML op is named, not encoded
  json operands = json::array(), temps = json::array(), steps = json::array();
  for (const std::string& o : p.outputs)
    operands.push_back({{"name", o}, {"class", class_of(p, o)}, {"role", "write"}});
  for (const std::string& i : p.inputs) operands.push_back({{"name", i}, {"class", class_of(p, i)}});
  for (const std::string& t : p.temps) temps.push_back({{"name", t}, {"class", class_of(p, t)}});
  std::string chain;
  for (const df::PatternStep& st : p.steps) {
    steps.push_back(step_text(st));
    chain += (chain.empty() ? "" : " -> ") + plain_mnemonic(st.mnemonic);
  }
  json op = {
      {"mnemonic", mnemonic},
      {"slot", slot_of(p)},
      {"latency", int64_t(cost.fused_cycles)},
      {"doc",
       "Mined: " + chain +
           ". Latency: the chain in one pass of the datapath (isa/aie_ml/fused_latency.h; docs/codesign.md, AIE-ML)."},
      {"operands", operands},
      {"compose", {{"temps", temps}, {"steps", steps}}}};
  if (temps.empty()) op["compose"].erase("temps");
  return {{"isa", "aie_ml"}, {"ops", {op}}};
}

namespace {

// On the exposed pipeline a kernel's NOP waits belong to the ops they wait for: they are
// dropped before a rewrite (which matches ops in program order) and put back after it, for
// the new op's latency. Only for a phase that already waits wherever a result is read or
// overwritten in flight (insert_waits adds nothing): one that reads old values on purpose
// is left as it is (false). As aie_candidates.cpp does for the search's candidates.
bool drop_waits_if_complete(AieKernel& k, const ReadStages& stages) {
  AieKernel check = k;
  WaitStats added;
  try {
    insert_waits(check, stages, &added);
  } catch (const std::invalid_argument&) {
    return false;
  }
  if (added.nops_added > 0) return false;
  remove_waits(k);
  return true;
}

}  // namespace

codesign::KernelRewrite aie_use_overlay(const std::string& kernel, const json& overlay, const json& hardware) {
  codesign::KernelRewrite out{kernel, {}};
  OverlayScope scope(overlay);
  const std::vector<const ExtensionOp*> ops = overlay_ops(overlay);
  const json config = hardware.is_object() ? hardware.value("config", json::object()) : json::object();
  const bool exposed = ::tlmcraft::aie_ml::exposed_pipeline_in(config);
  const ReadStages stages = ::tlmcraft::aie_ml::read_stages_in(config);
  out.kernel = rewrite_phases(kernel, [&](PhaseKernel& p) {
    // Execution counts by source line, before the waits are dropped (the other lines keep
    // their source lines); a tile whose counts are unknown is left as it is.
    std::vector<std::optional<std::map<uint32_t, uint64_t>>> runs(p.kernel.tiles.size());
    for (size_t t = 0; t < p.kernel.tiles.size(); ++t) {
      try {
        runs[t] = line_executions(p.kernel.tiles[t], tile_name("kernel", p, t));
      } catch (const std::invalid_argument&) {
      }
    }
    if (exposed && !drop_waits_if_complete(p.kernel, stages)) return false;
    bool changed = false;
    for (size_t t = 0; t < p.kernel.tiles.size(); ++t) {
      if (!runs[t]) continue;
      const std::map<uint32_t, uint64_t>& tile_runs = *runs[t];
      changed = use_added_ops(p.kernel.tiles[t], ops,
                              [&](const std::string& m, uint32_t line) {
                                ++out.uses[m].static_count;
                                out.uses[m].executions += tile_runs.count(line) ? tile_runs.at(line) : 0;
                              }) > 0 ||
                changed;
    }
    if (changed && exposed) insert_waits(p.kernel, stages);
    return changed;
  });
  if (out.uses.empty()) out.kernel = kernel;
  return out;
}

codesign::KernelRewrite aie_search_kernel(const std::string& kernel, const json& overlay, const json& hardware) {
  std::unique_ptr<OverlayScope> scope;
  if (!overlay.value("ops", json::array()).empty()) scope = std::make_unique<OverlayScope>(overlay);
  SearchContext ctx;
  ctx.platform = "aie_ml";
  ctx.hardware = hardware;
  codesign::KernelRewrite out{kernel, {}};
  AieKernel parsed;
  std::string error;
  // A file the search agent's transformations cannot parse stays as it is.
  if (parse_aie_kernel(kernel, parsed, error)) {
    double best = estimate_cycles(parsed);
    for (int round = 0; round < kSearchRounds; ++round) {
      const std::vector<Candidate> next = generate_aie_candidates(out.kernel, ctx);
      if (next.empty() || !(next.front().estimate < best)) break;
      best = next.front().estimate;
      out.kernel = next.front().text;
    }
  }
  if (scope) out.uses = added_op_uses(out.kernel, overlay_ops(overlay));
  return out;
}

double aie_overlay_area(const json& overlay, const json& hardware) {
  OverlayScope scope(overlay);
  for (const json& o : overlay.value("ops", json::array())) {
    const OpSpec* s = AieIsa::get().find(o.value("mnemonic", ""));
    if (!s || s->extension < 0)
      throw std::invalid_argument("op '" + o.value("mnemonic", std::string("?")) + "' is not an op added by data");
  }
  // The one pricing of a variant (aie_area.h): every compute tile of the array gets the ops.
  double area = 0;
  for (const AddedArea& a :
       tlmcraft::aie_ml::aie_variant_area(AieIsa::get(), tlmcraft::aie_ml::compute_tiles(config_of(hardware)))) {
    if (!a.unpriced.empty()) throw std::invalid_argument(a.unpriced);
    area += a.mm2;
  }
  return area;
}

codesign::DataflowAdapter aie_dataflow_adapter() {
  codesign::DataflowAdapter a;
  a.isa = "aie_ml";
  a.parse = aie_kernel_dataflow;
  a.fusable = aie_fusable;
  a.cost = aie_candidate_cost;
  a.overlay_entry = aie_overlay;
  a.use_overlay = aie_use_overlay;
  a.search_kernel = aie_search_kernel;
  a.overlay_area = aie_overlay_area;
  a.limits.max_ops = 5;
  a.limits.read_ports = a.limits.write_ports = 0;  // none declared: nothing is proposed
  try {
    bool first = true;
    for (Slot slot : {Slot::Vector, Slot::Scalar}) {
      const auto it = AieIsa::get().added_op_ports.find(slot);
      const SlotPorts ports = it == AieIsa::get().added_op_ports.end() ? SlotPorts{} : it->second;
      a.limits.read_ports = first ? ports.reads : std::min(a.limits.read_ports, ports.reads);
      a.limits.write_ports = first ? ports.writes : std::min(a.limits.write_ports, ports.writes);
      first = false;
    }
  } catch (const std::exception&) {
    // The ISA does not load here; every command that parses a kernel reports why.
  }
  return a;
}

}  // namespace tlmcraft::agent::search::aie
