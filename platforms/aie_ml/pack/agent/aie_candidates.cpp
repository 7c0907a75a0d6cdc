#include "platforms/aie_ml/pack/agent/aie_candidates.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

#include "platforms/aie_ml/pack/agent/aie_offsets.h"
#include "platforms/aie_ml/pack/agent/aie_regalloc.h"
#include "platforms/aie_ml/pack/agent/aie_unroll.h"
#include "platforms/aie_ml/pack/agent/aie_use_added_ops.h"
#include "isa/aie_ml/bundle_schedule.h"
#include "isa/aie_ml/control_flow.h"
#include "isa/aie_ml/program_text.h"
#include "isa/aie_ml/wait_insertion.h"
#include "platforms/aie_ml/aie_config.h"

namespace tlmcraft::agent::search::aie {

using isa::aie_ml::AieLine;
using isa::aie_ml::AieKernel;
using isa::aie_ml::parse_aie_kernel;
using isa::aie_ml::print_aie_kernel;
using isa::aie_ml::TileStructure;
using isa::aie_ml::analyse_structure;
using isa::aie_ml::compact;
using isa::aie_ml::estimate_cycles;

namespace {

// The waits the exposed pipeline needs (no interlocks) put into `k`, for the hardware's
// read stages; false when the program cannot be analysed for them (calls, indirect jumps).
bool with_waits(AieKernel& k, const isa::aie_ml::ReadStages& stages, int* added = nullptr) {
  isa::aie_ml::WaitStats stats;
  try {
    isa::aie_ml::insert_waits(k, stages, &stats);
  } catch (const std::invalid_argument&) {
    return false;
  }
  if (added) *added = stats.nops_added;
  return true;
}

}  // namespace

std::vector<Candidate> generate_aie_candidates(const std::string& parent_text, const SearchContext& ctx) {
  AieKernel parent;
  std::string error;
  if (!parse_aie_kernel(parent_text, parent, error)) return {};
  std::set<std::string> seen = {parent_text, print_aie_kernel(parent)};
  // The transformations keep program order. On the exposed pipeline that is what a kernel
  // computes only if it already waits wherever a result is read or overwritten in flight
  // (insert_waits adds nothing): a kernel that reads old values on purpose would change
  // meaning. Its wait bundles are dropped (the transformations then see what they see with
  // interlocks) and each candidate gets its waits back.
  const nlohmann::json config =
      ctx.hardware.is_object() ? ctx.hardware.value("config", nlohmann::json::object()) : nlohmann::json::object();
  const bool exposed = ::tlmcraft::aie_ml::exposed_pipeline_in(config);
  const isa::aie_ml::ReadStages stages = ::tlmcraft::aie_ml::read_stages_in(config);
  if (exposed) {
    AieKernel check = parent;
    int added = 0;
    if (!with_waits(check, stages, &added) || added > 0) return {};
    isa::aie_ml::remove_waits(parent);
  }
  std::vector<Candidate> out;
  auto fits = [](const AieKernel& k) {
    for (const auto& t : k.tiles) {
      size_t n = 0;
      for (const auto& l : t.lines) n += l.kind == AieLine::Kind::Bundle;
      if (n > kProgramBundles) return false;
    }
    return true;
  };
  auto push = [&](const std::string& name, AieKernel k) {
    if (exposed && !with_waits(k, stages)) return;
    if (!fits(k)) return;
    std::string text = print_aie_kernel(k);
    if (!seen.insert(text).second) return;
    out.push_back({name, std::move(text), estimate_cycles(k)});
  };
  // Each structural transformation (none, or an unrolling; single-iteration loops then
  // inlined) is followed by compaction in program order and critical path first, with
  // and without register reallocation first, and each of those once more with offset
  // addressing: the estimate picks among them.
  auto add = [&](const std::string& name, const std::function<bool(AieKernel&)>& transform) {
    AieKernel base = parent;
    if (!transform(base)) return;
    inline_single_trip_loops(base);
    for (bool realloc : {false, true}) {
      AieKernel r = base;
      std::string label = name.empty() ? "" : name + " + ";
      if (realloc) {
        if (reallocate_registers(r) == 0) continue;
        label += "reallocate registers + ";
      }
      for (bool critical : {false, true}) {
        AieKernel k = r;
        const std::string l = label + (critical ? "compact (critical path first)" : "compact");
        compact(k, nullptr, critical);
        push(l, k);
        if (offset_addressing(k) > 0) {
          compact(k, nullptr, critical);
          push(l + " + offset addressing", k);
        }
      }
    }
  };
  add("", [](AieKernel&) { return true; });
  // Ops added to the ISA by data (`compose:`), matched on their dataflow and used.
  add("use added ops", [](AieKernel& k) { return use_composed_ops(k) > 0; });

  // Zero-overhead loops unrolled with renaming (by 2, 3, 4, 8 when they divide the trip
  // count; a loop of at most 16 iterations also fully).
  std::vector<std::vector<int64_t>> counts;  // per tile, per loop
  for (const auto& t : parent.tiles) {
    TileStructure s;
    std::string why;
    counts.emplace_back();
    if (analyse_structure(t, s, why))
      for (const auto& l : s.loops) counts.back().push_back(l.count);
  }
  for (size_t t = 0; t < counts.size(); ++t)
    for (size_t l = 0; l < counts[t].size(); ++l) {
      std::set<int64_t> factors;
      for (int64_t f : {int64_t{2}, int64_t{3}, int64_t{4}, int64_t{8}, counts[t][l]})
        if (f >= 2 && f <= 16 && counts[t][l] % f == 0) factors.insert(f);
      for (int64_t f : factors)
        add("unroll tile " + std::to_string(t) + " loop " + std::to_string(l) + " x" + std::to_string(f),
            [&](AieKernel& k) {
              std::string why;
              return unroll_loop(k, t, l, static_cast<int>(f), true, why);
            });
    }
  for (int f : {2, 4}) {
    add("unroll every loop x" + std::to_string(f), [&](AieKernel& k) {
      int done = 0;
      for (size_t t = 0; t < counts.size(); ++t)
        for (size_t l = 0; l < counts[t].size(); ++l) {
          std::string why;
          // Loop indices stay valid: unrolling keeps the loops and their order.
          if (counts[t][l] >= f && counts[t][l] % f == 0 && unroll_loop(k, t, l, f, true, why)) ++done;
        }
      return done > 0;
    });
  }

  return order_by_estimate(std::move(out), ctx.seed);
}

}  // namespace tlmcraft::agent::search::aie
