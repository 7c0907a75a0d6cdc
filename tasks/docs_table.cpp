#include "tasks/docs_table.h"

#include <sstream>
#include <vector>

#include "common/platform_catalog.h"

namespace tlmcraft::tasks {

std::string markdown_task_table(const Registry& registry) {
  std::ostringstream o;
  const std::vector<PlatformId> platforms = all_platforms();
  o << "| # | task | level | params |";
  for (const PlatformId& p : platforms) {
    const PlatformInfo* info = find_platform_info(p.name());
    o << " " << (info && !info->display_name.empty() ? info->display_name : p.name()) << " |";
  }
  o << "\n|---|---|---|---|";
  for (size_t col = 0; col < platforms.size(); ++col) o << "---|";
  o << "\n";
  int row = 0;
  std::vector<int> supported(platforms.size(), 0);
  for (const auto& t : registry.tasks()) {
    o << "| " << ++row << " | " << t.name << " | " << t.level << " | (";
    for (size_t i = 0; i < t.params.size(); ++i) o << (i ? ", " : "") << t.params[i];
    o << ") |";
    for (size_t col = 0; col < platforms.size(); ++col) {
      const PlatformSpec& ps = t.platform(platforms[col]);
      if (!ps.supported) {
        o << " unsupported |";
        continue;
      }
      supported[col] += int(ps.configs.size());
      o << " ";
      for (size_t k = 0; k < ps.configs.size(); ++k) {
        const ConfigSpec& c = ps.configs[k];
        if (k) o << "<br>";
        o << c.name << " ";
        if (t.params.size() > 1) o << "(";
        for (size_t i = 0; i < t.params.size(); ++i) o << (i ? "," : "") << c.params.at(t.params[i]);
        if (t.params.size() > 1) o << ")";
        if (c.provenance == Provenance::Interpolated) o << "*";
        if (c.provenance == Provenance::Chosen) o << "+";
      }
      o << " |";
    }
    o << "\n";
  }
  o << "| | **configurations** | | |";
  for (int n : supported) o << " " << n << " |";
  o << "\n";
  o << "\n`*` interpolated between the paper's endpoints; `+` chosen here (the paper gives no values).\n";
  if (!registry.cpu_programs().empty()) {
    o << "\nCPU group (names only for now): ";
    for (size_t i = 0; i < registry.cpu_programs().size(); ++i) o << (i ? ", " : "") << registry.cpu_programs()[i].name;
    o << ".\n";
  }
  return o.str();
}

}  // namespace tlmcraft::tasks
