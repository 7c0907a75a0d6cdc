#include "tasks/docs_table.h"

#include <sstream>

namespace tlmcraft::tasks {

std::string markdown_task_table(const Registry& registry) {
  std::ostringstream o;
  o << "| # | task | level | params | PLENA | AIE-ML | Coral |\n";
  o << "|---|---|---|---|---|---|---|\n";
  int row = 0;
  int supported[3] = {0, 0, 0};
  for (const auto& t : registry.tasks()) {
    o << "| " << ++row << " | " << t.name << " | " << t.level << " | (";
    for (size_t i = 0; i < t.params.size(); ++i) o << (i ? ", " : "") << t.params[i];
    o << ") |";
    for (PlatformId p : all_platforms()) {
      const PlatformSpec& ps = t.platform(p);
      if (!ps.supported) {
        o << " unsupported |";
        continue;
      }
      supported[int(p)] += int(ps.configs.size());
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
  o << "| | **configurations** | | | " << supported[0] << " | " << supported[1] << " | " << supported[2] << " |\n";
  o << "\n`*` interpolated between the paper's endpoints; `+` chosen here (the paper gives no values).\n";
  if (!registry.cpu_programs().empty()) {
    o << "\nCPU group (names only for now): ";
    for (size_t i = 0; i < registry.cpu_programs().size(); ++i) o << (i ? ", " : "") << registry.cpu_programs()[i].name;
    o << ".\n";
  }
  return o.str();
}

}  // namespace tlmcraft::tasks
