#include "platforms/plena/pack/agent/plena_search.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "agent/codesign/overlay_scope.h"
#include "common/sha256.h"
#include "platforms/plena/pack/agent/plena_candidates.h"
#include "platforms/plena/pack/agent/plena_region_memo.h"
#include "platforms/plena/pack/agent/plena_regions.h"
#include "platforms/plena/pack/agent/plena_transforms.h"
#include "platforms/plena/pack/agent/plena_use_composed.h"

namespace tlmcraft::agent::search::plena {

using nlohmann::json;

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string w;
  in >> w;
  return upper(w);
}

// The mnemonics of the kernel's instructions (the first word of each line outside comments).
std::set<std::string> kernel_mnemonics(const std::string& kernel) {
  std::set<std::string> out;
  std::istringstream in(kernel);
  for (std::string line; std::getline(in, line);) {
    size_t at = std::string::npos;
    for (const std::string& marker : plena_spec().syntax().comments) at = std::min(at, line.find(marker));
    const std::string w = first_word(line.substr(0, at));
    if (!w.empty()) out.insert(w);
  }
  return out;
}

// The search agent's context: get_hardware_config's form (its timing mode beside the config).
SearchContext search_context(const json& hardware) {
  SearchContext ctx;
  ctx.platform = "plena";
  ctx.hardware = hardware;
  ctx.max_instructions = kSearchMaxInstructions;
  const json timing = hardware.value("config", json::object()).value("timing", json::object());
  if (!hardware.contains("timing_mode") && timing.is_object() && timing.contains("mode") && timing["mode"].is_string())
    ctx.hardware["timing_mode"] = timing["mode"];
  return ctx;
}

// Each instruction of `names` in the kernel: its copies and the times they run.
void count_uses(const Block& code, uint64_t times, const std::set<std::string>& names,
                std::map<std::string, codesign::KernelRewrite::Use>& uses) {
  for (const Node& n : code) {
    if (n.is_loop) {
      count_uses(n.body, times * static_cast<uint64_t>(n.count), names, uses);
    } else if (names.count(n.op.mnemonic())) {
      ++uses[n.op.mnemonic()].static_count;
      uses[n.op.mnemonic()].executions += times;
    }
  }
}

// `r` with the uses of `instructions` (an overlay's) in its kernel.
codesign::KernelRewrite with_uses(codesign::KernelRewrite r, const json& instructions) {
  std::set<std::string> names;
  for (const json& ins : instructions) names.insert(ins.value("mnemonic", ""));
  Kernel parsed;
  std::string error;
  if (!names.empty() && parse_kernel(r.kernel, parsed, error)) count_uses(parsed.code, 1, names, r.uses);
  return r;
}

}  // namespace

namespace {

std::atomic<size_t> searches_run{0};

// The search of one region's text: at most kSearchRounds rounds, each the candidate of the
// lowest estimate while it is lower than the region's; no candidate over the region's
// budget (ctx.max_instructions, region_budget).
std::string search_region(const std::string& text, const Surroundings& around, const SearchContext& ctx) {
  ++searches_run;
  Kernel parsed;
  std::string error;
  if (!parse_kernel(text, parsed, error) || static_size(parsed.code) > ctx.max_instructions) return text;
  double best = estimate_cycles(parsed.code, arch_of(ctx.hardware));
  std::string out = text;
  for (int round = 0; round < kSearchRounds; ++round) {
    const std::vector<Candidate> next = generate_plena_candidates(out, ctx, around);
    if (next.empty() || !(next.front().estimate < best)) break;
    best = next.front().estimate;
    out = next.front().text;
  }
  return out;
}

// Everything a region's search depends on, as the memo's digest: the region and its
// surroundings, the instructions of the overlay it can place, the search's settings and
// the hardware configuration the estimate and the transformations read.
std::string region_digest(const std::string& text, const Surroundings& around, const json& overlay,
                          const SearchContext& ctx) {
  const json config = ctx.hardware.value("config", json::object());
  std::ostringstream key;
  key << "plena region search 1\n"
      << surroundings_text(around) << text
      << "\ninstructions: " << plena_search_overlay(text, overlay, ctx.hardware).dump() << "\nrounds " << kSearchRounds
      << ", at most " << ctx.max_instructions << " instructions, seed " << ctx.seed << "\nconfig: " << config.dump()
      << "\ntiming mode: " << ctx.hardware.value("timing_mode", "") << "\n";
  return sha256_hex(key.str());
}

std::string memoised_search(const std::string& text, const Surroundings& around, const json& overlay,
                            const SearchContext& ctx) {
  const std::string digest = region_digest(text, around, overlay, ctx);
  if (std::optional<std::string> hit = region_memo_find(digest)) return *hit;
  const std::string searched = search_region(text, around, ctx);
  region_memo_store(digest, searched);
  return searched;
}

// The mnemonics of the overlay's instructions a search of `text` can place.
std::set<std::string> placeable(const std::string& text, const json& overlay, const json& hardware) {
  std::set<std::string> out;
  for (const json& ins : plena_search_overlay(text, overlay, hardware).value("instructions", json::array()))
    out.insert(ins.value("mnemonic", ""));
  return out;
}

// The static size a region's search may grow to: its own and its share (by size) of what the
// kernel may still grow before kSearchMaxInstructions, so the assembled kernel stays within
// what the whole kernel's search allows (a kernel already over it does not grow).
size_t region_budget(size_t region_size, size_t kernel_size) {
  if (kernel_size == 0 || kernel_size >= kSearchMaxInstructions) return region_size;
  return region_size + (kSearchMaxInstructions - kernel_size) * region_size / kernel_size;
}

// A searched region in the kernel being put together: how many top-level nodes it has and
// the instructions its search could place.
struct Piece {
  size_t nodes = 0;
  std::set<std::string> placeable;
};

// One pass over the regions of `kernel`, the concatenation of `pieces` (none on the first
// pass): a region that is one piece stays; a new one (the first pass's, or pieces merged
// because a search dissolved the loop between them) is searched (memoised), except a merge
// that can place no instruction its pieces could not, whose pieces were each searched
// already. True when a region was searched.
bool search_pass(Kernel& kernel, const json& overlay, const SearchContext& ctx, std::vector<Piece>& pieces) {
  const std::vector<Region> regions = split_regions(kernel, arch_of(ctx.hardware));
  const size_t kernel_size = static_size(kernel.code);
  std::vector<Piece> next;
  Block code;
  bool searched = false;
  size_t piece = 0, piece_end = 0, at = 0;  // the first piece not yet passed, where it ends
  for (const Region& r : regions) {
    const std::string text = region_text(r);
    Piece merged{r.code.size(), {}};
    size_t covered = 0;
    for (; piece < pieces.size() && piece_end < at + r.code.size(); ++piece, ++covered) {
      piece_end += pieces[piece].nodes;
      merged.placeable.insert(pieces[piece].placeable.begin(), pieces[piece].placeable.end());
    }
    at += r.code.size();
    const std::set<std::string> own = placeable(text, overlay, ctx.hardware);
    const bool settled =
        !pieces.empty() && piece_end == at &&
        (covered == 1 || std::includes(merged.placeable.begin(), merged.placeable.end(), own.begin(), own.end()));
    if (settled) {
      code.insert(code.end(), r.code.begin(), r.code.end());
      next.push_back(merged);
      continue;
    }
    SearchContext budgeted = ctx;
    budgeted.max_instructions = region_budget(static_size(r.code), kernel_size);
    Kernel k;
    std::string error;
    if (!parse_kernel(memoised_search(text, r.around, overlay, budgeted), k, error)) k.code = r.code;  // always parses
    searched = true;
    code.insert(code.end(), k.code.begin(), k.code.end());
    next.push_back({k.code.size(), own});
  }
  kernel.code = std::move(code);
  pieces = std::move(next);
  return searched;
}

}  // namespace

size_t plena_region_searches() { return searches_run.load(); }

codesign::KernelRewrite plena_search_kernel(const std::string& kernel, const json& overlay, const json& hardware) {
  std::unique_ptr<codesign::ScopedOverlay> scope;
  const json instructions = overlay.value("instructions", json::array());
  if (!instructions.empty()) scope = std::make_unique<codesign::ScopedOverlay>(overlay, "plena");
  const SearchContext ctx = search_context(hardware);
  codesign::KernelRewrite out{kernel, {}};
  Kernel current;
  std::string error;
  if (!parse_kernel(kernel, current, error)) return out;  // the suite run reports why
  const double before = estimate_cycles(current.code, arch_of(ctx.hardware));
  // A pass whose searches dissolve a region's loop merges it with the next region, which
  // the next pass may search whole (what the whole kernel's search would see there).
  std::vector<Piece> pieces;
  size_t first_regions = 0;
  for (int pass = 0; pass < kRegionPasses; ++pass) {
    const bool searched = search_pass(current, overlay, ctx, pieces);
    if (pass == 0) first_regions = pieces.size();
    if (!searched) break;
  }
  // Across the regions: a set-up one region repeats from another, one no region reads any
  // more; then scheduled in the pipelined mode, as every candidate is.
  if (first_regions > 1) {
    simplify(current);
    if (is_pipelined(ctx.hardware)) schedule_prefetch_first(current, arch_of(ctx.hardware));
  }
  if (estimate_cycles(current.code, arch_of(ctx.hardware)) < before) out.kernel = print_kernel(current);
  return with_uses(out, instructions);
}

json plena_search_overlay(const std::string& kernel, const json& overlay, const json& hardware) {
  (void)hardware;
  std::set<std::string> present = kernel_mnemonics(kernel);
  std::map<std::string, std::vector<std::string>> steps;  // by mnemonic: the steps' mnemonics
  for (const ComposedDefinition& d : composed_definitions(overlay))
    for (const std::string& s : d.steps) steps[upper(d.mnemonic)].push_back(first_word(s));
  const json instructions = overlay.value("instructions", json::array());
  std::vector<bool> kept(instructions.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < instructions.size(); ++i) {
      const std::string m = upper(instructions[i].value("mnemonic", ""));
      const auto def = steps.find(m);
      bool placeable = present.count(m) || def == steps.end();
      if (!placeable) {
        placeable = true;
        for (const std::string& s : def->second) placeable = placeable && present.count(s);
      }
      if (kept[i] || !placeable) continue;
      kept[i] = grew = true;
      present.insert(m);
    }
  }
  json out = overlay;
  out["instructions"] = json::array();
  std::set<std::string> classes;
  for (size_t i = 0; i < instructions.size(); ++i)
    if (kept[i]) {
      out["instructions"].push_back(instructions[i]);
      classes.insert(instructions[i].value("latency_class", ""));
    }
  if (out["instructions"].empty()) return json::object();
  if (overlay.contains("latency_classes")) {
    out["latency_classes"] = json::array();
    for (const json& c : overlay["latency_classes"])
      if (classes.count(c.value("name", ""))) out["latency_classes"].push_back(c);
  }
  return out;
}

}  // namespace tlmcraft::agent::search::plena
