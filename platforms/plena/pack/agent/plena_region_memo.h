// The memo of PLENA's region searches (plena_search.h): a searched region's text by the
// digest of everything its search depends on (the region's text and surroundings, the
// instructions it can place, the search's settings, the hardware configuration). Kept in
// memory (at most kRegionMemoEntries, the oldest dropped first) and, once a directory is
// given (`codesign explore`: DIR/search_cache/regions/), on disk as <digest>.asm, at most
// kRegionMemoFiles files (beyond that results are kept in memory only). Shared by the
// threads of one process.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace tlmcraft::agent::search::plena {

constexpr size_t kRegionMemoEntries = 8192;
constexpr size_t kRegionMemoFiles = 65536;

// Where the memo keeps its files from now on ("" for memory only); made when missing. The
// entries in memory are dropped.
void set_region_memo_dir(const std::string& dir);
std::optional<std::string> region_memo_find(const std::string& digest);
void region_memo_store(const std::string& digest, const std::string& searched);

}  // namespace tlmcraft::agent::search::plena
