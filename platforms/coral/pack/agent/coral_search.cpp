#include "platforms/coral/pack/agent/coral_search.h"

#include <map>
#include <stdexcept>
#include <vector>

#include "agent/search/candidates.h"
#include "platforms/coral/pack/agent/coral_dataflow.h"
#include "platforms/coral/pack/agent/coral_kernel_run.h"

namespace tlmcraft::agent::search::coral {

using nlohmann::json;

codesign::KernelRewrite coral_search_kernel(const std::string& kernel, const json& overlay, const json& hardware) {
  codesign::KernelRewrite out{kernel, {}};
  const std::string file = hardware.value("file", std::string("kernel.c"));
  if (file.size() < 2 || file.compare(file.size() - 2, 2, ".c") != 0) return out;  // transformations of C only
  const bool custom = !overlay.value("instructions", json::array()).empty();
  const auto extensions = custom ? load_overlay_json(overlay) : nullptr;
  auto evaluated = [&](const std::string& text) {
    Evaluated e;
    e.text = text;
    try {
      const CoralKernelRun run = run_coral_kernel(text, file, hardware, extensions, overlay);
      e.correct = run.status == "pass";
      e.cycles = run.cycles;
      e.hot_lines = run.hot_lines;
    } catch (const std::invalid_argument&) {
      e.correct = false;  // does not build: never a parent, never chosen
    }
    return e;
  };
  std::vector<Evaluated> done = {evaluated(kernel)};
  if (!done.front().correct) return out;  // the suite run reports why
  SearchContext ctx;
  ctx.platform = "coral";
  ctx.language = "c";
  ctx.hardware = hardware;
  std::map<std::string, std::vector<Candidate>> generated;
  for (int round = 0; round < kSearchRounds; ++round) {
    const std::vector<Candidate> batch = next_batch(done, ctx, kSearchBatch, &generated);
    if (batch.empty()) break;
    for (const Candidate& c : batch) done.push_back(evaluated(c.text));
  }
  out.kernel = best_correct(done)->text;
  if (custom) out.uses = coral_use_overlay(out.kernel, overlay, hardware).uses;
  return out;
}

}  // namespace tlmcraft::agent::search::coral
