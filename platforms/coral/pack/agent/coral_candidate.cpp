// A mined Coral candidate's cost, area and overlay (docs/codesign.md, "Coral").
//
// Cycles: each step costs its unit's latency in the Coral timing model (the config's
// scalar.alu_latency, scalar.mul.latency, scalar.fpu.*, vector.latency.*): a dependent
// chain of steps waits that long for each result. The estimate for the fused
// instruction is its slowest step's latency: it assumes the operators are chained inside
// one pipeline stage of a custom unit, the intermediate values in pipeline registers. An
// assumption, stated in every overlay's `doc`; `codesign explore` measures instead.
// Area: custom_area_mm2 (isa/riscv/custom_area.cpp, per-operator [H14] table).
#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "agent/codesign/overlay_yaml.h"
#include "isa/riscv/load_step.h"
#include "isa/riscv/step_encoder.h"
#include "platforms/coral/coral_area.h"
#include "platforms/coral/coral_config.h"
#include "platforms/coral/pack/agent/coral_dataflow.h"
#include "platforms/coral/pack/agent/coral_kernel_run.h"
#include "platforms/coral/pack/agent/coral_search.h"

namespace tlmcraft::agent::search::coral {
namespace {

namespace df = isa::dataflow;
namespace rv = isa::riscv;

// The platform configuration `hardware` selects, loaded once per selection.
const tlmcraft::coral::CoralConfig& timing_config(const nlohmann::json& hardware) {
  static std::mutex m;
  static std::map<std::string, tlmcraft::coral::CoralConfig> cache;
  std::vector<std::string> overrides;
  if (hardware.contains("overrides") && hardware["overrides"].is_array())
    for (const auto& o : hardware["overrides"]) overrides.push_back(o.get<std::string>());
  const std::string name = hardware.value("platform_config", std::string("default"));
  const std::string key = name + "\n" + nlohmann::json(overrides).dump();
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, tlmcraft::coral::load_coral_config(name, overrides)).first;
  return it->second;
}

// The template of a step with `operands` operands (its class and operand slots).
const rv::StepTemplate* step_template(const std::string& mnemonic, size_t operands) {
  for (const rv::StepTemplate* t : rv::step_templates(mnemonic))
    if (t->slots.size() == operands) return t;
  return nullptr;
}

bool is_vector(rv::OpClass c) { return c >= rv::OpClass::VecConfig && c <= rv::OpClass::VecToScalar; }

bool is_fp(rv::OpClass c) { return c >= rv::OpClass::FpAdd && c <= rv::OpClass::FpStore; }

bool is_output(const df::Pattern& p, const std::string& name) {
  return std::find(p.outputs.begin(), p.outputs.end(), name) != p.outputs.end();
}

// The inputs that take a source field: all but an accumulator (both an input and an
// output), which is read through rd.
std::vector<std::string> source_inputs(const df::Pattern& p) {
  std::vector<std::string> in;
  for (const std::string& n : p.inputs)
    if (!is_output(p, n)) in.push_back(n);
  return in;
}

// Pattern names -> the instruction's operand names: outputs rd (an accumulator too),
// the other inputs rs1.., temps t0..
std::map<std::string, std::string> operand_names(const df::Pattern& p) {
  std::map<std::string, std::string> names;
  for (size_t i = 0; i < p.outputs.size(); ++i) names[p.outputs[i]] = i ? "rd" + std::to_string(i + 1) : "rd";
  const std::vector<std::string> sources = source_inputs(p);
  for (size_t i = 0; i < sources.size(); ++i) names[sources[i]] = "rs" + std::to_string(i + 1);
  for (size_t i = 0; i < p.temps.size(); ++i) names[p.temps[i]] = "t" + std::to_string(i);
  return names;
}

// The register file (x, f, v) of each pattern name, from the step slots that hold it.
std::map<std::string, std::string> value_classes(const df::Pattern& p) {
  std::map<std::string, std::string> cls;
  for (const df::PatternStep& st : p.steps) {
    if (const rv::LoadStepForm* f = rv::load_step_form(st.mnemonic)) {  // dest, offset, address
      cls[st.operands[0].storage] = f->value == rv::ValueClass::F ? "f" : f->value == rv::ValueClass::V ? "v" : "x";
      cls[st.operands[2].storage] = "x";
      continue;
    }
    const rv::StepTemplate* t = step_template(st.mnemonic, st.operands.size());
    for (size_t i = 0; t && i < st.operands.size(); ++i) {
      if (st.operands[i].access == df::Access::Literal) continue;
      const rv::ValueClass c = t->slots[i].cls;
      cls[st.operands[i].storage] = c == rv::ValueClass::F ? "f" : c == rv::ValueClass::V ? "v" : "x";
    }
  }
  return cls;
}

// The unit the fused instruction runs on (the overlay's `timing: unit`).
std::string unit_of(const df::Pattern& p) {
  bool vec = false, fp = false, mul = false;
  for (const df::PatternStep& st : p.steps) {
    const rv::StepTemplate* t = step_template(st.mnemonic, st.operands.size());
    if (const rv::LoadStepForm* f = rv::load_step_form(st.mnemonic)) vec = vec || f->vector;
    if (!t) continue;
    vec = vec || is_vector(t->cls);
    fp = fp || is_fp(t->cls);
    mul = mul || t->cls == rv::OpClass::Mul || t->cls == rv::OpClass::VecMul;
  }
  if (vec) return mul ? "vmul" : "valu";
  if (fp) return "fpu";
  return mul ? "mul" : "alu";
}

// Encodings no two candidates share: R candidates in custom-3 with funct3 4..7 and funct7
// (512); R4 candidates in custom-2 (funct3 0..7 with funct2: 32) and then custom-3
// funct3 0..3 (16), whose bits no R candidate's fixed bits can match.
nlohmann::json encoding_of(bool r4, int ordinal) {
  if (r4) {
    if (ordinal >= 48)
      throw std::invalid_argument("coral: no free R4 encoding left in custom-2/3 for another candidate");
    const bool custom2 = ordinal < 32;
    const int k = custom2 ? ordinal : ordinal - 32;
    return {{"opcode", custom2 ? "custom-2" : "custom-3"}, {"format", "r4"}, {"funct3", k / 4}, {"funct2", k % 4}};
  }
  if (ordinal >= 512) throw std::invalid_argument("coral: no free R encoding left in custom-3 for another candidate");
  return {{"opcode", "custom-3"}, {"format", "r"}, {"funct3", 4 + ordinal / 128}, {"funct7", ordinal % 128}};
}

}  // namespace

double coral_load_cycles(const nlohmann::json& hardware) {
  const tlmcraft::coral::CoralConfig& c = timing_config(hardware);
  return c.scalar.lsu_operand_read + 1 + c.scalar.load_tail;  // a DTCM load: its address read, one block, its tail
}

double coral_step_cycles(const std::string& mnemonic, const nlohmann::json& hardware) {
  const tlmcraft::coral::CoralConfig& c = timing_config(hardware);
  const auto templates = rv::step_templates(mnemonic);
  if (templates.empty()) return 1;
  using C = rv::OpClass;
  switch (templates.front()->cls) {
    case C::Mul:
      return c.scalar.mul_latency;
    case C::FpAdd:
    case C::FpMove:
      return c.scalar.fp_add;
    case C::FpMul:
      return c.scalar.fp_mul;
    case C::FpFma:
      return c.scalar.fp_fma;
    case C::FpCvt:
      return c.scalar.fp_cvt;
    case C::FpCmp:
      return c.scalar.fp_cmp;
    case C::VecAlu:
      return c.vector.alu;
    case C::VecMul:
      return c.vector.mul;
    case C::VecFixedPoint:
      return c.vector.fixed_point;
    default:
      return c.scalar.alu_latency;
  }
}

std::shared_ptr<const rv::CustomExtensions> load_overlay_json(const nlohmann::json& overlay) {
  auto ext = std::make_shared<rv::CustomExtensions>();
  try {
    rv::parse_custom_overlay(codesign::to_yaml(overlay), "overlay", *ext);
  } catch (const rv::CustomExtError& e) {
    throw std::invalid_argument(e.what());
  }
  return ext;
}

codesign::CandidateCost coral_candidate_cost(const df::Pattern& p, const nlohmann::json& hardware) {
  codesign::CandidateCost c;
  bool vec = false, scalar = false;
  double load = 0;  // a load step costs what the plain load does, fused or not
  for (const df::PatternStep& st : p.steps) {
    if (const rv::LoadStepForm* f = rv::load_step_form(st.mnemonic)) {
      load = coral_load_cycles(hardware);
      (f->vector ? vec : scalar) = true;
      continue;
    }
    const double cyc = coral_step_cycles(st.mnemonic, hardware);
    c.step_cycles += cyc;
    c.fused_cycles = std::max(c.fused_cycles, cyc);
    if (st.mnemonic == "vsetvli") continue;  // a vtype change: part of a vector chain
    const rv::StepTemplate* t = step_template(st.mnemonic, st.operands.size());
    (t && is_vector(t->cls) ? vec : scalar) = true;
  }
  // A scalar step feeding a vector one (or back) is not one unit's datapath: no estimate.
  if (vec && scalar) c.fused_cycles = c.step_cycles;
  c.step_cycles += load;
  c.fused_cycles += load;
  try {
    c.area_mm2 = coral_overlay_area(coral_overlay(p, "cdarea", c, 0), hardware);  // as its overlay is priced
  } catch (const std::exception&) {
    c.fused_cycles = c.step_cycles;  // not expressible as a custom instruction: never proposed
  }
  return c;
}

nlohmann::json coral_overlay(const df::Pattern& p, const std::string& mnemonic, const codesign::CandidateCost& cost,
                             int ordinal) {
  std::string lower = mnemonic;
  for (char& ch : lower) ch = char(std::tolower(uint8_t(ch)));
  const auto names = operand_names(p);
  const auto cls = value_classes(p);
  static const char* const fields[] = {"rs1", "rs2", "rs3"};
  nlohmann::json operands = nlohmann::json::array();
  const std::vector<std::string> sources = source_inputs(p);
  for (const std::string& o : p.outputs) {
    const bool accumulates = std::find(p.inputs.begin(), p.inputs.end(), o) != p.inputs.end();
    operands.push_back(
        {{"name", names.at(o)}, {"field", "rd"}, {"role", accumulates ? "readwrite" : "write"}, {"value", cls.at(o)}});
  }
  for (size_t i = 0; i < sources.size() && i < 3; ++i)
    operands.push_back(
        {{"name", names.at(sources[i])}, {"field", fields[i]}, {"role", "read"}, {"value", cls.at(sources[i])}});
  nlohmann::json steps = nlohmann::json::array();
  std::vector<std::string> temps;
  for (const std::string& t : p.temps) temps.push_back(names.at(t));
  std::string doc = "Mined:";
  bool loads = false;
  for (const df::PatternStep& st : p.steps) {
    if (rv::load_step_form(st.mnemonic)) {
      loads = true;
      steps.push_back(rv::load_step_text(st.mnemonic, names.at(st.operands[0].storage), st.operands[1].text,
                                         names.at(st.operands[2].storage)));
    } else {
      steps.push_back(step_text(st, names));
    }
    doc += " " + st.mnemonic;
  }
  doc += loads ? ". Latency estimate: the slowest step's after the load, which is timed as the plain load "
                 "(docs/codesign.md, Coral)."
               : ". Latency estimate: the slowest step's (docs/codesign.md, Coral).";
  const int latency = std::max(1, int(cost.fused_cycles - (loads ? coral_load_cycles(nlohmann::json::object()) : 0)));
  nlohmann::json compose = {{"steps", steps}};
  if (!temps.empty()) compose["temps"] = temps;
  nlohmann::json ins = {{"mnemonic", lower},
                        {"encoding", encoding_of(sources.size() > 2, ordinal)},
                        {"operands", operands},
                        {"compose", compose},
                        {"timing", {{"unit", unit_of(p)}, {"latency", latency}, {"ii", 1}}},
                        {"doc", doc}};
  return {{"isa", "riscv"}, {"instructions", {ins}}};
}

double coral_overlay_area(const nlohmann::json& overlay, const nlohmann::json& /*hardware*/) {
  double area = 0;
  // The one pricing of a variant (platforms/coral/coral_area.h): `isa check`'s and a run's.
  for (const AddedArea& a : tlmcraft::coral::coral_variant_area(*load_overlay_json(overlay))) {
    if (!a.unpriced.empty()) throw std::invalid_argument(a.unpriced);
    area += a.mm2;
  }
  return area;
}

codesign::KernelRewrite coral_use_overlay(const std::string& kernel, const nlohmann::json& overlay,
                                          const nlohmann::json& hardware) {
  codesign::KernelRewrite out;
  out.kernel = kernel;  // the peephole pass rewrites the compiled assembly at build time
  const auto ext = load_overlay_json(overlay);
  CoralKernelRun run;
  try {
    run = run_coral_kernel(kernel, hardware.value("file", std::string("kernel.c")), hardware, ext, overlay);
  } catch (const std::invalid_argument&) {
    return out;  // does not build with the variant: the suite run records the failing kernel
  }
  for (const auto& [mnemonic, use] : run.added)  // the run lists every added one: keep those placed
    if (use.static_count > 0) out.uses[mnemonic] = {int(use.static_count), use.executions};
  return out;
}

codesign::DataflowAdapter coral_dataflow_adapter() {
  codesign::DataflowAdapter a;
  a.isa = "riscv";
  a.parse = coral_dataflow;
  a.fusable = coral_fusable;
  a.cost = coral_candidate_cost;
  a.overlay_entry = coral_overlay;
  a.use_overlay = coral_use_overlay;
  a.overlay_area = coral_overlay_area;
  a.search_kernel = coral_search_kernel;
  a.rewrites_at_build = true;  // the peephole pass of the toolchain places them
  // The custom formats' register fields (isa/riscv: R rs1 rs2, R4 rs1..rs3, one rd).
  for (const rv::CustomFormatFields& f : rv::custom_format_fields()) {
    a.limits.read_ports = std::max(a.limits.read_ports, f.sources);
    a.limits.write_ports = std::max(a.limits.write_ports, f.destinations);
  }
  a.limits.max_ops = 4;
  a.limits.accumulators = true;  // an accumulator is rd with role readwrite (coral_overlay)
  a.limits.admissible = [](const std::vector<df::Op>& ops, const std::vector<size_t>& g) {
    return coral_vtype_window(ops, g) && coral_load_address_is_input(ops, g);
  };
  // The ISA's memory port for an added instruction (isa/riscv/load_step.h): loads read the
  // dataflow's "mem" (coral_dataflow.cpp).
  a.limits.memory = "mem";
  a.limits.max_memory_reads = rv::custom_memory_ports().loads;
  return a;
}

}  // namespace tlmcraft::agent::search::coral
