#include "platforms/plena/pack/agent/plena_matrix_rows.h"

#include <optional>
#include <set>
#include <vector>

namespace tlmcraft::agent::search::plena {
namespace {

constexpr uint64_t kMask32 = 0xffffffffull;
constexpr uint64_t kMaxImm18 = 262143;

Val plus(Val v, uint64_t d) { return Val{v.sym, (v.off + d) & kMask32}; }
bool same(Val a, Val b) { return a.sym == b.sym && (a.off & kMask32) == (b.off & kMask32); }

bool opens_mm(const std::string& m) { return m == "M_MM" || m == "M_TMM"; }
bool opens_mv(const std::string& m) { return m == "M_MV" || m == "M_TMV"; }

}  // namespace

bool accumulations_closed(const Block& block) {
  bool mm = false, mv = false;
  for (const Node& n : block) {
    if (n.is_loop) {
      if (mm || mv || !accumulations_closed(n.body)) return false;
      continue;
    }
    const std::string& m = n.op.mnemonic();
    if (opens_mm(m)) mm = true;
    if (m == "M_MM_WO") mm = false;
    if (opens_mv(m)) mv = true;
    if (m == "M_MV_WO") mv = false;
  }
  return !mm && !mv;
}

namespace {

// One accumulation: M_MM steps (weight slice, activation block) closed by an M_MM_WO.
struct Group {
  size_t first = 0, last = 0;  // block indices of the first M_MM and of the M_MM_WO
  std::vector<std::pair<Val, Val>> steps;
  Val dest;
  std::optional<uint64_t> stride;  // empty when not a known constant
  bool clear_at_start = false;
  Values after;  // register values after the M_MM_WO
};

struct Rewrite {
  size_t first, last;
  Block code;  // replaces block[first..last]
};

// A block walked in order: the groups of the current straight-line run, the group being
// accumulated, and whether an accumulation is open (a run must start with both clear).
struct Scan {
  std::vector<Group> run;
  std::optional<Group> open;
  bool mm_open = false, mv_open = false;

  void note_accumulators(const std::string& m) {
    if (opens_mm(m)) mm_open = true;
    if (m == "M_MM_WO") mm_open = false;
    if (opens_mv(m)) mv_open = true;
    if (m == "M_MV_WO") mv_open = false;
  }
};

// Each rewrite keeps its window's set-up in order, then its new code (from the back, so
// earlier indices stay valid).
void apply_rewrites(Block& block, const std::vector<Rewrite>& rewrites) {
  for (auto it = rewrites.rbegin(); it != rewrites.rend(); ++it) {
    Block replaced;
    for (size_t i = it->first; i <= it->last; ++i)
      if (is_pure_setup(block[i].op)) replaced.push_back(block[i]);
    replaced.insert(replaced.end(), it->code.begin(), it->code.end());
    block.erase(block.begin() + std::ptrdiff_t(it->first), block.begin() + std::ptrdiff_t(it->last) + 1);
    block.insert(block.begin() + std::ptrdiff_t(it->first), replaced.begin(), replaced.end());
  }
}

class RowRewriter {
 public:
  RowRewriter(const Arch& arch, int tmp_a, int tmp_x) : arch_(arch), tmp_a_(tmp_a), tmp_x_(tmp_x) {}

  int rewrite(Block& block, Values& values) {
    Scan scan;
    std::vector<Rewrite> rewrites;
    auto end_run = [&] {
      collect(block, scan.run, rewrites);
      scan.run.clear();
      scan.open.reset();
    };
    int done = 0;
    for (size_t i = 0; i < block.size(); ++i) {
      Node& n = block[i];
      if (n.is_loop) {
        end_run();
        values.enter_loop(n);
        done += rewrite(n.body, values);
        values.leave_loop(n);
        continue;
      }
      const std::string& m = n.op.mnemonic();
      if (m == "M_MM") {
        add_step(scan, n.op, i, values);
      } else if (m == "M_MM_WO" && scan.open) {
        values.apply(n.op);
        close_group(scan, n.op, i, values);
        continue;
      } else if (!is_pure_setup(n.op)) {
        end_run();
        scan.note_accumulators(m);
      }
      values.apply(n.op);
    }
    end_run();
    apply_rewrites(block, rewrites);
    return done + int(rewrites.size());
  }

 private:
  const Arch& arch_;
  int tmp_a_, tmp_x_;
  std::set<int> written_;  // registers the window being emitted writes

  void add_step(Scan& scan, const Op& op, size_t index, Values& values) const {
    if (!scan.open) {
      scan.open = Group{};
      scan.open->first = index;
      scan.open->clear_at_start = !scan.mm_open && !scan.mv_open;
    }
    scan.open->steps.push_back(
        {values.get(reg_key_gp(int(op.operand("rs1")))), values.get(reg_key_gp(int(op.operand("rs2"))))});
    scan.mm_open = true;
  }

  // An M_MM_WO ends the open group; `values` are those after it.
  void close_group(Scan& scan, const Op& op, size_t index, Values& values) const {
    Group& g = *scan.open;
    g.last = index;
    g.dest = plus(values.get(reg_key_gp(int(op.operand("rd")))), uint64_t(op.operand("imm")));
    const int stride_reg = int(op.operand("rs1"));
    const Val stride = values.get(reg_key_gp(stride_reg));
    if (stride_reg == 0)
      g.stride = uint64_t(arch_.vlen);
    else if (stride.is_const())
      g.stride = stride.off;
    g.after = values;
    scan.mm_open = false;
    scan.run.push_back(std::move(g));
    scan.open.reset();
  }

  size_t groups_per_tile() const { return size_t(arch_.mlen / arch_.blen); }

  // Windows of MLEN/BLEN groups in a run that form whole tile rows, first come first served.
  void collect(const Block& block, const std::vector<Group>& run, std::vector<Rewrite>& out) {
    const size_t g = groups_per_tile();
    for (size_t j = 0; j + g <= run.size();) {
      Block code;
      written_.clear();
      for (size_t i = run[j].first; i <= run[j + g - 1].last; ++i)
        for (int key : reg_effects(block[i].op).writes) written_.insert(key);
      if (forms_tile_rows(run, j) && emit(run, j, code)) {
        out.push_back({run[j].first, run[j + g - 1].last, std::move(code)});
        j += g;
      } else {
        ++j;
      }
    }
  }

  bool forms_tile_rows(const std::vector<Group>& run, size_t j) const {
    const Group& g0 = run[j];
    if (!g0.clear_at_start || !g0.stride || *g0.stride < uint64_t(arch_.mlen)) return false;
    for (size_t g = 0; g < groups_per_tile(); ++g) {
      const Group& grp = run[j + g];
      const uint64_t col = g * uint64_t(arch_.blen);
      if (grp.steps.size() != g0.steps.size() || grp.stride != g0.stride || !same(grp.dest, plus(g0.dest, col)))
        return false;
      for (size_t k = 0; k < grp.steps.size(); ++k)
        if (!same(grp.steps[k].first, plus(g0.steps[k].first, col)) || !same(grp.steps[k].second, g0.steps[k].second))
          return false;
    }
    // The output rows must not overwrite activation rows the window still reads.
    const MemAccess out{Space::Vram, true, false, g0.dest, 0, int64_t(*g0.stride) * (arch_.blen - 1) + arch_.mlen};
    for (const auto& step : g0.steps) {
      const MemAccess in{Space::Vram, false, false, step.second, 0, arch_.vlen * (arch_.blen - 1) + arch_.mlen};
      if (may_conflict(out, in)) return false;
    }
    return true;
  }

  // A register holding `v` minus an immediate in 0..kMaxImm18 at the end of the window.
  // Constants come from gp0 and registers the window does not write are preferred, so
  // the window's own set-up can become dead.
  bool base_of(Values values, Val v, int& reg, uint64_t& imm) const {
    if (v.is_const()) {
      reg = 0;
      imm = v.off & kMask32;
      return imm <= kMaxImm18;
    }
    return base_among(values, v, true, reg, imm) || base_among(values, v, false, reg, imm);
  }

  bool base_among(Values& values, Val v, bool unwritten_only, int& reg, uint64_t& imm) const {
    bool found = false;
    for (int r = 0; r < 16; ++r) {
      if (r == tmp_a_ || r == tmp_x_ || (unwritten_only && written_.count(reg_key_gp(r)))) continue;
      const Val held = values.get(reg_key_gp(r));
      if (held.sym != v.sym) continue;
      const uint64_t d = (v.off - held.off) & kMask32;
      if (d <= kMaxImm18 && (!found || d < imm)) {
        reg = r;
        imm = d;
        found = true;
      }
    }
    return found;
  }

  // The register operand for value `v`: a register holding it, or `tmp` set from a base.
  bool operand(const Values& values, Val v, int tmp, Block& code, int& reg) const {
    uint64_t imm = 0;
    if (!base_of(values, v, reg, imm)) return false;
    if (imm == 0) return true;
    Node n;
    n.op = make_op("S_ADDI_INT", {tmp, reg, int64_t(imm)});
    code.push_back(n);
    reg = tmp;
    return true;
  }

  bool emit(const std::vector<Group>& run, size_t j, Block& code) const {
    const Group& g0 = run[j];
    const Values& at_end = run[j + groups_per_tile() - 1].after;
    for (int64_t r = 0; r < arch_.blen; ++r) {
      for (const auto& step : g0.steps) {
        int a = 0, x = 0;
        if (!operand(at_end, step.first, tmp_a_, code, a) ||
            !operand(at_end, plus(step.second, uint64_t(r * arch_.vlen)), tmp_x_, code, x))
          return false;
        Node mv;
        mv.op =
            make_op("M_MV", {0, a, x}, r == 0 && &step == &g0.steps.front() ? "row products: tile reused per row" : "");
        code.push_back(mv);
      }
      int y = 0;
      uint64_t imm = 0;
      if (!base_of(at_end, plus(g0.dest, uint64_t(r) * *g0.stride), y, imm)) return false;
      Node wo;
      wo.op = make_op("M_MV_WO", {y, 0, int64_t(imm)}, "output row " + std::to_string(r) + " of the block");
      code.push_back(wo);
    }
    return true;
  }
};

}  // namespace

int matmul_rows_to_matrix_vector(Kernel& kernel, const Arch& arch, std::string& why) {
  if (arch.blen <= 0 || arch.mlen % arch.blen != 0 || arch.mlen != arch.vlen) {
    why = "needs MLEN = VLEN, a multiple of BLEN";
    return 0;
  }
  if (!accumulations_closed(kernel.code) || !kernel.around.accumulations_closed) {
    why = "an accumulation spans a loop boundary";
    return 0;
  }
  const std::set<int> used = gp_registers_named(kernel);
  std::vector<int> free_regs;
  for (int r = 1; r < 16; ++r)
    if (!used.count(r)) free_regs.push_back(r);
  if (free_regs.size() < 2) {
    why = "needs two unused gp registers";
    return 0;
  }
  Values values;
  RowRewriter rewriter(arch, free_regs[0], free_regs[1]);
  const int n = rewriter.rewrite(kernel.code, values);
  if (n == 0) why = "no run of MLEN/BLEN accumulations covering whole weight tiles";
  return n;
}

}  // namespace tlmcraft::agent::search::plena
