#include "platforms/plena/pack/agent/plena_regions.h"

#include <set>
#include <sstream>

#include "platforms/plena/pack/agent/plena_double_buffer.h"
#include "platforms/plena/pack/agent/plena_matrix_rows.h"
#include "platforms/plena/pack/agent/plena_transforms.h"

namespace tlmcraft::agent::search::plena {

namespace {

// [begin, end) of each region over the top-level nodes: a region ends after each loop.
std::vector<std::pair<size_t, size_t>> region_bounds(const Block& code) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t begin = 0;
  for (size_t k = 0; k < code.size(); ++k)
    if (code[k].is_loop) {
      out.push_back({begin, k + 1});
      begin = k + 1;
    }
  if (begin < code.size() || out.empty()) out.push_back({begin, code.size()});
  return out;
}

template <typename T>
std::set<T> union_outside(const std::vector<std::set<T>>& per_node, size_t begin, size_t end) {
  std::set<T> out;
  for (size_t k = 0; k < per_node.size(); ++k)
    if (k < begin || k >= end) out.insert(per_node[k].begin(), per_node[k].end());
  return out;
}

}  // namespace

std::vector<Region> split_regions(const Kernel& kernel, const Arch& arch) {
  const auto bounds = region_bounds(kernel.code);
  if (bounds.size() == 1) return {Region{kernel.code, kernel.around}};
  const std::vector<std::set<int>> live = live_before_each(kernel);
  std::vector<std::set<int>> gp(kernel.code.size());
  for (size_t k = 0; k < kernel.code.size(); ++k) gp[k] = gp_registers_used(Block{kernel.code[k]});
  std::vector<std::set<int64_t>> tiles;
  const bool tiles_known = kernel.around.msram_tiles_known && msram_tiles_of_each(kernel.code, arch, tiles);
  const bool closed = kernel.around.accumulations_closed && accumulations_closed(kernel.code);
  std::vector<Region> out;
  for (const auto& [begin, end] : bounds) {
    Region r;
    r.code.assign(kernel.code.begin() + static_cast<std::ptrdiff_t>(begin),
                  kernel.code.begin() + static_cast<std::ptrdiff_t>(end));
    r.around.is_region = true;
    r.around.live_out = live[end];
    r.around.gp_outside = union_outside(gp, begin, end);
    r.around.gp_outside.insert(kernel.around.gp_outside.begin(), kernel.around.gp_outside.end());
    r.around.msram_tiles_known = tiles_known;
    if (tiles_known) {
      r.around.msram_tiles_outside = union_outside(tiles, begin, end);
      r.around.msram_tiles_outside.insert(kernel.around.msram_tiles_outside.begin(),
                                          kernel.around.msram_tiles_outside.end());
    }
    r.around.accumulations_closed = closed;
    out.push_back(std::move(r));
  }
  return out;
}

std::string surroundings_text(const Surroundings& a) {
  if (!a.is_region) return "whole kernel\n";
  std::ostringstream s;
  s << "region; live after:";
  for (int k : a.live_out) s << ' ' << key_name(k);
  s << "; gp outside:";
  for (int g : a.gp_outside) s << ' ' << g;
  s << "; MSRAM tiles outside:";
  if (!a.msram_tiles_known) s << " unknown";
  for (int64_t t : a.msram_tiles_outside) s << ' ' << t;
  s << "; accumulations closed: " << (a.accumulations_closed ? "yes" : "no") << '\n';
  return s.str();
}

std::string region_text(const Region& region) {
  Kernel k;
  k.code = region.code;
  return print_kernel(k);
}

}  // namespace tlmcraft::agent::search::plena
