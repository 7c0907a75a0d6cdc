// PLENA kernels as the co-design tools see them
// (agent/codesign/kernel_dataflow.h). A vector instruction's rows are storage
// named by the value-numbered VRAM address its gp operand holds ("VRAM@s3+64":
// unknown value 3 plus 64 elements), so two instructions on the same row meet
// even through different registers; rows of a multi-row access (a prefetch, a
// matrix write-out) are named row by row, and an access the analysis cannot
// bound reads or writes all of VRAM ("VRAM@*"). Executions come from the
// hardware loops' counts (exact: PLENA has no other control flow except
// C_BREAK, which stops the program). Cycles per op are the timing table's
// latency of its class (serial mode, the reference's counts).
#include "platforms/plena/pack/agent/plena_dataflow.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "platforms/plena/pack/agent/plena_analysis.h"
#include "platforms/plena/pack/agent/plena_kernel.h"

namespace tlmcraft::agent::search::plena {
namespace {

namespace df = isa::dataflow;

const nlohmann::json& config_of(const nlohmann::json& hardware) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (hardware.is_object() && hardware.contains("config") && hardware["config"].is_object()) return hardware["config"];
  return empty;
}

int64_t arch_value(const nlohmann::json& hardware, const char* key, int64_t fallback) {
  const nlohmann::json& c = config_of(hardware);
  if (c.contains("arch") && c["arch"].is_object() && c["arch"].contains(key) && c["arch"][key].is_number_integer())
    return c["arch"][key].get<int64_t>();
  return fallback;
}

Arch arch_from(const nlohmann::json& hardware) {
  Arch a;
  a.mlen = arch_value(hardware, "mlen", a.mlen);
  a.vlen = arch_value(hardware, "vlen", a.vlen);
  a.blen = arch_value(hardware, "blen", a.blen);
  a.hlen = arch_value(hardware, "hlen", a.hlen);
  a.prefetch_rows = arch_value(hardware, "v_prefetch_rows", a.prefetch_rows);
  return a;
}

const char* space_name(Space s) {
  switch (s) {
    case Space::Vram:
      return "VRAM";
    case Space::Msram:
      return "MSRAM";
    case Space::FpMem:
      return "FP_MEM";
    case Space::IntMem:
      return "INT_MEM";
    case Space::Hbm:
      return "HBM";
    default:
      return "ALL";
  }
}

std::string row_name(Space s, Val base, int64_t offset) {
  return std::string(space_name(s)) + "@s" + std::to_string(base.sym) + "+" +
         std::to_string((base.off + static_cast<uint64_t>(offset)) & 0xffffffffu);
}

// The storage names one access covers: its rows (VLEN apart) or the whole
// space.
std::vector<std::string> access_names(const MemAccess& a, const Arch& arch) {
  if (a.space == Space::All) return {"VRAM@*", "MSRAM@*", "FP_MEM@*", "INT_MEM@*", "HBM@*"};
  if (a.whole || a.space != Space::Vram || a.lo % arch.vlen != 0 || (a.hi - a.lo) % arch.vlen != 0)
    return {std::string(space_name(a.space)) + "@*"};
  std::vector<std::string> names;
  for (int64_t o = a.lo; o < a.hi; o += arch.vlen) names.push_back(row_name(a.space, a.base, o));
  return names;
}

std::string register_text(const isa::IsaSpec& spec, const isa::OperandSpec& o, int64_t n) {
  const isa::OperandKind& k = spec.kinds()[o.kind];
  return spec.register_classes()[k.register_class].prefix + std::to_string(n);
}

class Flattener {
 public:
  explicit Flattener(const nlohmann::json& hardware) : hardware_(hardware), arch_(arch_from(hardware)) {}

  codesign::KernelDataflow flatten(const Kernel& kernel) {
    walk(kernel.code, 1);
    close_regions();
    return std::move(out_);
  }

 private:
  const nlohmann::json& hardware_;
  Arch arch_;
  Values values_;
  codesign::KernelDataflow out_;

  void walk(const Block& block, uint64_t times) {
    for (const Node& n : block) {
      if (!n.is_loop) {
        add(op_of(n.op), times, cycles_of(n.op));
        continue;
      }
      df::Op start;
      start.mnemonic = "C_LOOP_START";
      start.barrier = true;
      start.implicit_writes = {"gp" + std::to_string(n.counter)};
      add(start, times, 1);
      const size_t body = out_.ops.size();
      const int64_t first_inner = values_.next_symbol();
      values_.enter_loop(n);
      walk(n.body, times * static_cast<uint64_t>(std::max<int64_t>(n.count, 1)));
      values_.leave_loop(n);
      df::Op end;
      end.mnemonic = "C_LOOP_END";
      end.barrier = true;
      end.implicit_reads = end.implicit_writes = {"gp" + std::to_string(n.counter)};
      for (const std::string& row : rows_written_per_iteration(body, first_inner)) end.implicit_reads.push_back(row);
      end.jumps_to = {body};
      add(end, times * static_cast<uint64_t>(std::max<int64_t>(n.count, 1)), 1);
    }
  }

  // Rows the body [body, end of ops) writes at an address that changes between
  // iterations (its symbol is newer than the loop): one name stands for a
  // different row each time, so a later reader cannot be named; the loop's end
  // reads them, keeping them live (never a temporary of a new instruction).
  std::vector<std::string> rows_written_per_iteration(size_t body, int64_t first_inner) const {
    std::set<std::string> rows;
    auto add_if_variant = [&](const std::string& s) {
      const size_t at = s.find("@s");
      if (at == std::string::npos) return;
      const int64_t sym = std::strtoll(s.c_str() + at + 2, nullptr, 10);
      if (sym >= first_inner) rows.insert(s);
    };
    for (size_t i = body; i < out_.ops.size(); ++i) {
      for (const df::Operand& o : out_.ops[i].operands)
        if (o.writes()) add_if_variant(o.storage);
      for (const std::string& s : out_.ops[i].implicit_writes) add_if_variant(s);
    }
    return {rows.begin(), rows.end()};
  }

  void add(df::Op op, uint64_t times, double cycles) {
    out_.ops.push_back(std::move(op));
    out_.executions.push_back(times);
    out_.cycles.push_back(cycles);
  }

  double cycles_of(const Op& op) const {
    const nlohmann::json& c = config_of(hardware_);
    const std::string& cls = op.spec->latency_class;
    if (c.contains("timing") && c["timing"].contains("latency") && c["timing"]["latency"].contains(cls))
      return c["timing"]["latency"][cls].get<double>();
    const int64_t d = plena_spec().default_cycles(cls);
    return d > 0 ? double(d) : 1.0;
  }

  // One instruction: row operands by the access they make, registers by their
  // roles, zero registers and immediates as literals.
  df::Op op_of(const Op& op) {
    const isa::IsaSpec& spec = plena_spec();
    std::vector<MemAccess> mem = memory_effects(op, values_, arch_);
    std::vector<char> used(mem.size(), 0);
    const isa::Accesses acc = spec.accesses(op.to_instruction());
    df::Op d;
    d.mnemonic = op.mnemonic();
    for (size_t i = 0; i < op.spec->operands.size(); ++i) d.operands.push_back(operand(op, i, mem, used, acc, d));
    for (uint16_t r : op.spec->implicit_reads) d.implicit_reads.push_back(spec.resources()[r].name);
    for (uint16_t r : op.spec->implicit_writes) d.implicit_writes.push_back(spec.resources()[r].name);
    for (size_t k = 0; k < mem.size(); ++k) {
      if (used[k]) continue;
      d.barrier = true;  // memory the operands do not name: not part of any new
                         // instruction
      for (const std::string& s : access_names(mem[k], arch_))
        (mem[k].write ? d.implicit_writes : d.implicit_reads).push_back(s);
    }
    if (op.spec->cls == 'C' || op.spec->cls == 'H' || op.spec->cls == 'M') d.barrier = true;
    values_.apply(op);
    return d;
  }

  df::Operand operand(const Op& op, size_t i, const std::vector<MemAccess>& mem, std::vector<char>& used,
                      const isa::Accesses& acc, df::Op& d) {
    const isa::IsaSpec& spec = plena_spec();
    const isa::OperandSpec& o = op.spec->operands[i];
    const isa::OperandKind& kind = spec.kinds()[o.kind];
    const int64_t v = op.operands[i];
    df::Operand out;
    if (kind.type != isa::KindType::Register) {
      out.text = std::to_string(v);
      return out;  // a literal
    }
    out.text = register_text(spec, o, v);
    const isa::RegisterClass& rc = spec.register_classes()[kind.register_class];
    if (rc.zero_register == v) return out;  // reads a constant: a literal
    if (rc.name == "gp") {
      const Val addr = values_.get(reg_key_gp(static_cast<int>(v)));
      const bool dest = o.name == "rd";
      for (size_t k = 0; k < mem.size(); ++k) {
        const MemAccess& a = mem[k];
        if (used[k] || a.whole || a.space != Space::Vram || a.lo != 0 || a.hi != arch_.vlen || a.base != addr) continue;
        if (a.write != dest) continue;
        used[k] = 1;
        out.access = a.write ? df::Access::Write : df::Access::Read;
        out.storage = row_name(Space::Vram, addr, 0);
        out.address = out.text;  // the address register (gp registers are named by their text)
        d.implicit_reads.push_back(out.text);
        return out;
      }
    }
    const isa::RegisterRef ref{static_cast<uint8_t>(kind.register_class), static_cast<uint8_t>(v)};
    const bool r = std::find(acc.reads.begin(), acc.reads.end(), ref) != acc.reads.end();
    const bool w = std::find(acc.writes.begin(), acc.writes.end(), ref) != acc.writes.end();
    out.access = r && w ? df::Access::ReadWrite : w ? df::Access::Write : df::Access::Read;
    out.storage = out.text;
    return out;
  }

  void close_regions() {
    size_t begin = 0;
    for (size_t i = 0; i <= out_.ops.size(); ++i) {
      if (i < out_.ops.size() && !out_.ops[i].barrier) continue;
      if (i > begin) out_.regions.push_back({begin, i});
      begin = i + 1;
    }
  }
};

}  // namespace

codesign::KernelDataflow plena_dataflow(const std::string& kernel_text, const std::string& file,
                                        const nlohmann::json& hardware) {
  Kernel kernel;
  std::string error;
  if (!parse_kernel(kernel_text, kernel, error)) throw std::invalid_argument(file + ": " + error);
  return Flattener(hardware).flatten(kernel);
}

codesign::KernelDataflow plena_dataflow(const Kernel& kernel, const nlohmann::json& hardware) {
  return Flattener(hardware).flatten(kernel);
}

bool plena_fusable(const isa::dataflow::Op& op) {
  const isa::InstructionSpec* s = plena_spec().find(op.mnemonic);
  if (!s || op.barrier) return false;
  if (s->cls == 'V') return true;
  // Scalar floating-point arithmetic: every register operand is an f register.
  if (s->cls != 'S') return false;
  for (const auto& o : s->operands) {
    const isa::OperandKind& k = plena_spec().kinds()[o.kind];
    if (k.type == isa::KindType::Register && plena_spec().register_classes()[k.register_class].name != "fp")
      return false;
  }
  return true;
}

}  // namespace tlmcraft::agent::search::plena
