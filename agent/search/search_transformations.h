// The search agent's transformations register themselves per kernel format: each platform
// pack (platforms/<p>/pack/agent/) or plugin (platforms/plugins.h) registers a candidate
// generator, the transformations (and whatever analysis they need) of its own kernels,
// and the search policy asks this registry which one handles the kernel at hand. Nothing
// here knows a platform, an ISA or a kernel language: a generator reads what it needs
// from the context (the hardware configuration as the get_hardware_config tool gives it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::agent::search {

// What a generator knows of the kernel it transforms.
struct SearchContext {
  std::string platform;               // the platform the kernel runs on (get_hardware_config "platform")
  std::string language;               // the kernel's language ("c" for C kernels), "" for assembly
  nlohmann::json hardware;            // get_hardware_config's result (platform, timing_mode, config, ...)
  size_t max_instructions = 4096;     // static size limit of any candidate
  uint64_t seed = 1;                  // tie-break order among equally ranked candidates
  // The parent's hottest source lines (line, cycles) from the profile tool, for
  // generators that use a profile (uses_profile below). Empty: no profile.
  std::vector<std::pair<int, double>> hot_lines;
};

struct Candidate {
  std::string name;    // "unroll L2 x4 + simplify"
  std::string text;    // the kernel
  double estimate = 0; // the generator's static cost estimate: lower is tried first
};

// One kernel format's transformations.
struct CandidateGeneratorRegistration {
  std::string name;                                              // for messages ("plena assembly")
  std::function<bool(const SearchContext&)> applies;             // this generator handles the kernel
  // Every transformation of `parent` that passes its legality check, as distinct texts
  // different from the parent, best first (end with order_by_estimate).
  std::function<std::vector<Candidate>(const std::string& parent, const SearchContext&)> generate;
  // The generator ranks by the parent's profile: the agent calls the profile tool after
  // each evaluation (when the run offers it) and fills SearchContext::hot_lines.
  bool uses_profile = false;
};

// Registers a generator after the built-in ones (a plugin's registration comes after the
// packs', so it cannot take a built-in name). Throws std::invalid_argument if the name,
// applies or generate is empty, or the name is registered already.
void register_candidate_generator(CandidateGeneratorRegistration registration);

// The first registered generator that applies to `context` (built-in packs first, in
// folder order, then plugins in load order); nullptr when none does.
const CandidateGeneratorRegistration* find_candidate_generator(const SearchContext& context);
// The generator registered under `name` (to reuse another format's transformations, as a
// variant platform does); nullptr when there is none.
const CandidateGeneratorRegistration* find_candidate_generator(const std::string& name);
// Every registered generator's name, in registration order.
std::vector<std::string> candidate_generator_names();

// Calls register_<p>_agent_pack() of every platform folder with a pack/agent/ (generated
// by agent/CMakeLists.txt into every executable linking tlm_agent_packs). The registry
// calls it once, before its first registration or lookup.
void register_agent_packs();

// Best estimate first; equal estimates in an order drawn from `seed` (deterministic per
// seed). Every generator ends with it.
std::vector<Candidate> order_by_estimate(std::vector<Candidate> candidates, uint64_t seed);

}  // namespace tlmcraft::agent::search
