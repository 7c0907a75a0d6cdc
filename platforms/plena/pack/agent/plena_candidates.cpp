#include "platforms/plena/pack/agent/plena_candidates.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

#include "platforms/plena/pack/agent/plena_double_buffer.h"
#include "platforms/plena/pack/agent/plena_matrix_rows.h"
#include "platforms/plena/pack/agent/plena_transforms.h"
#include "platforms/plena/pack/agent/plena_use_composed.h"

namespace tlmcraft::agent::search::plena {

Arch arch_of(const nlohmann::json& hardware) {
  Arch arch;
  if (!hardware.is_object() || !hardware.contains("config")) return arch;
  const nlohmann::json& config = hardware["config"];
  if (!config.is_object() || !config.contains("arch") || !config["arch"].is_object()) return arch;
  const nlohmann::json& a = config["arch"];
  auto get = [&](const char* key, int64_t& out) {
    if (a.contains(key) && a[key].is_number_integer() && a[key].get<int64_t>() > 0) out = a[key].get<int64_t>();
  };
  get("mlen", arch.mlen);
  get("vlen", arch.vlen);
  get("blen", arch.blen);
  get("hlen", arch.hlen);
  get("v_prefetch_rows", arch.prefetch_rows);
  return arch;
}

int64_t msram_elements_of(const nlohmann::json& hardware) {
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& c = hardware.is_object() && hardware.contains("config") ? hardware["config"] : empty;
  const nlohmann::json msram = c.value("/memory/msram"_json_pointer, empty);
  return msram.is_object() && msram.value("elements", 0) > 0 ? msram.value("elements", int64_t(0)) : 16384;
}

bool is_pipelined(const nlohmann::json& hardware) {
  return hardware.is_object() && hardware.value("timing_mode", "") == "pipelined";
}

double estimate_cycles(const Block& code, const Arch& arch) {
  double total = 0;
  for (const Node& n : code) {
    if (n.is_loop) {
      total += 1 + static_cast<double>(n.count) * (1 + estimate_cycles(n.body, arch));
      continue;
    }
    const std::string& c = n.op.spec->latency_class;
    if (c == "matrix_mm")
      total += static_cast<double>(arch.mlen);
    else if (c == "map_v_fp")
      total += static_cast<double>(arch.vlen);
    else if (c == "vector_reci")
      total += 2;
    else if (c == "vector_max")
      total += 4;
    else if (c == "vector_sum")
      total += 8;
    else if (c == "hbm")
      total += n.op.mnemonic() == "H_PREFETCH_M" ? 600 : 40;
    else if (n.op.spec->is_fused() || !n.op.spec->semantics.empty())
      total += static_cast<double>(std::max<int64_t>(1, plena_spec().default_cycles(c)));  // an added one: its class
    else
      total += 1;
  }
  return total;
}

namespace {

// Loop ids innermost first (post-order), so inner loops are tried before outer ones.
void post_order(const Block& block, int& next, std::vector<int>& out) {
  for (const Node& n : block) {
    if (!n.is_loop) continue;
    const int id = next++;
    post_order(n.body, next, out);
    out.push_back(id);
  }
}

std::vector<int> loops_inner_first(const Block& code) {
  int next = 0;
  std::vector<int> ids;
  post_order(code, next, ids);
  return ids;
}

bool is_innermost(const Node& loop) {
  return std::none_of(loop.body.begin(), loop.body.end(), [](const Node& n) { return n.is_loop; });
}

int hoist_everywhere(Kernel& k) {
  int total = 0;
  for (int id : loops_inner_first(k.code)) total += hoist_invariants(k, id);
  return total;
}

// Fully unrolls innermost loops (those `wanted` accepts) while legal and within the size
// limit; returns how many.
int unroll_innermost(Kernel& k, size_t limit, const std::function<bool(const Node&)>& wanted = {}) {
  int done = 0;
  for (bool again = true; again;) {
    again = false;
    for (int id : loops_inner_first(k.code)) {
      const Node* loop = find_loop(k.code, id);
      if (!loop || !is_innermost(*loop) || (wanted && !wanted(*loop))) continue;
      std::string why;
      if (unroll(k, id, loop->count, why, limit)) {
        ++done;
        again = true;
        break;  // ids changed
      }
    }
  }
  return done;
}

// Times the body of loop `id` runs (its count times the enclosing loops' counts).
double loop_executions(const Block& block, int& next, int id, double outer) {
  for (const Node& n : block) {
    if (!n.is_loop) continue;
    if (next++ == id) return outer * double(n.count);
    const double inner = loop_executions(n.body, next, id, outer * double(n.count));
    if (inner > 0) return inner;
  }
  return 0;
}

// What double-buffering loop `id` can hide per the serial estimate: per iteration, the
// smaller of its prefetches and the rest of its body.
double double_buffer_overlap(const Block& code, int id, const Arch& arch) {
  const Node* loop = find_loop(code, id);
  if (!loop) return 0;
  Block prefetches, rest;
  for (const Node& n : loop->body) (!n.is_loop && n.op.mnemonic() == "H_PREFETCH_M" ? prefetches : rest).push_back(n);
  int next = 0;
  return loop_executions(code, next, id, 1) * std::min(estimate_cycles(prefetches, arch), estimate_cycles(rest, arch));
}

bool writes_out_matmul(const Node& loop) {
  return std::any_of(loop.body.begin(), loop.body.end(),
                     [](const Node& n) { return !n.is_loop && n.op.mnemonic() == "M_MM_WO"; });
}

}  // namespace

std::vector<Candidate> generate_plena_candidates(const std::string& parent_text, const SearchContext& ctx) {
  return generate_plena_candidates(parent_text, ctx, Surroundings{});
}

std::vector<Candidate> generate_plena_candidates(const std::string& parent_text, const SearchContext& ctx,
                                                 const Surroundings& around) {
  const Arch arch = arch_of(ctx.hardware);
  const bool pipelined = is_pipelined(ctx.hardware);
  Kernel parent;
  std::string error;
  if (!parse_kernel(parent_text, parent, error)) return {};
  parent.around = around;
  std::vector<Candidate> out;
  std::set<std::string> seen = {parent_text};
  // `overlap`: cycles the pipelined mode is expected to hide, which the serial estimate misses.
  auto add = [&](const std::string& name, const std::function<bool(Kernel&)>& transform, double overlap = 0) {
    Kernel k = parent;
    if (!transform(k)) return;
    simplify(k);
    std::string label = name;
    if (pipelined && schedule_prefetch_first(k, arch)) label += " + schedule";
    if (static_size(k.code) > ctx.max_instructions) return;
    std::string text = print_kernel(k);
    if (!seen.insert(text).second) return;
    out.push_back({label, std::move(text), estimate_cycles(k.code, arch) - overlap});
  };

  add("simplify", [](Kernel&) { return true; });
  // Composed instructions of the active ISA and `semantics:` ones with `replaces:` (an ISA
  // folder or overlay may add them), placed by the shared matcher (plena_use_composed.h).
  for (const ComposedDefinition& def : composed_definitions(plena_spec())) {
    add("use " + def.mnemonic, [&](Kernel& k) {
      try {
        return place_composed(k, def, ctx.hardware) > 0;
      } catch (const std::invalid_argument&) {
        return false;  // steps the dataflow adapter cannot express: not offered
      }
    });
  }
  add("hoist invariants", [](Kernel& k) { return hoist_everywhere(k) > 0; });
  // Tiling to the matrix unit: whole-tile row products instead of BLEN x BLEN blocks.
  add("matrix rows (M_MV)", [&](Kernel& k) {
    std::string why;
    return matmul_rows_to_matrix_vector(k, arch, why) > 0;
  });
  add("unroll matmul loops + matrix rows (M_MV)", [&](Kernel& k) {
    // The column blocks of a matmul, so their accumulations become one straight-line run.
    if (unroll_innermost(k, ctx.max_instructions, writes_out_matmul) == 0) return false;
    simplify(k);
    std::string why;
    if (matmul_rows_to_matrix_vector(k, arch, why) == 0) return false;
    simplify(k);
    hoist_everywhere(k);
    return true;
  });
  const int loops = count_loops(parent.code);
  for (int id = 0; id < loops; ++id) {
    const Node* loop = find_loop(parent.code, id);
    const std::string l = "L" + std::to_string(id);
    add("unroll " + l + " fully", [&](Kernel& k) {
      std::string why;
      return unroll(k, id, loop->count, why, ctx.max_instructions);
    });
    // Only the pipelined mode overlaps a prefetch with compute (serial: nothing overlaps).
    if (pipelined)
      add(
          "double buffer " + l,
          [&](Kernel& k) {
            std::string why;
            return double_buffer_prefetch(k, id, arch, msram_elements_of(ctx.hardware), why);
          },
          double_buffer_overlap(parent.code, id, arch));
    for (int64_t f : {2, 4, 8}) {
      if (f >= loop->count || loop->count % f != 0) continue;
      add("unroll " + l + " x" + std::to_string(f), [&](Kernel& k) {
        std::string why;
        return unroll(k, id, f, why, ctx.max_instructions);
      });
    }
  }
  add("unroll innermost loops + hoist", [&](Kernel& k) {
    const int n = unroll_innermost(k, ctx.max_instructions);
    simplify(k);
    return hoist_everywhere(k) + n > 0;
  });
  add("unroll all loops", [&](Kernel& k) {
    int n = 0;
    while (unroll_innermost(k, ctx.max_instructions) > 0) {
      simplify(k);
      ++n;
    }
    return n > 0;
  });

  return order_by_estimate(std::move(out), ctx.seed);
}

}  // namespace tlmcraft::agent::search::plena
