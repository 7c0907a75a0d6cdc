#include "platforms/plena/pack/agent/plena_region_memo.h"

#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

namespace tlmcraft::agent::search::plena {

namespace fs = std::filesystem;

namespace {

struct Memo {
  std::mutex mu;
  std::map<std::string, std::string> entries;
  std::deque<std::string> order;  // digests, oldest first
  std::string dir;
  size_t files = 0;  // in dir

  void remember(const std::string& digest, const std::string& text) {
    if (!entries.emplace(digest, text).second) return;
    order.push_back(digest);
    if (order.size() > kRegionMemoEntries) {
      entries.erase(order.front());
      order.pop_front();
    }
  }
};

Memo& memo() {
  static Memo m;
  return m;
}

}  // namespace

void set_region_memo_dir(const std::string& dir) {
  Memo& m = memo();
  std::lock_guard<std::mutex> lock(m.mu);
  m.entries.clear();  // what another directory held is not this one's
  m.order.clear();
  m.dir = dir;
  m.files = 0;
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) ++m.files;
}

std::optional<std::string> region_memo_find(const std::string& digest) {
  Memo& m = memo();
  std::lock_guard<std::mutex> lock(m.mu);
  const auto hit = m.entries.find(digest);
  if (hit != m.entries.end()) return hit->second;
  if (m.dir.empty()) return std::nullopt;
  std::ifstream in(fs::path(m.dir) / (digest + ".asm"));
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  m.remember(digest, text.str());
  return text.str();
}

void region_memo_store(const std::string& digest, const std::string& searched) {
  Memo& m = memo();
  std::lock_guard<std::mutex> lock(m.mu);
  m.remember(digest, searched);
  if (m.dir.empty() || m.files >= kRegionMemoFiles) return;
  // Written whole under a temporary name, then renamed: a reader never sees half a file.
  const fs::path file = fs::path(m.dir) / (digest + ".asm");
  const fs::path part = fs::path(m.dir) / (digest + ".part");
  {
    std::ofstream out(part);
    out << searched;
    if (!out) return;
  }
  std::error_code ec;
  fs::rename(part, file, ec);
  if (!ec) ++m.files;
}

}  // namespace tlmcraft::agent::search::plena
