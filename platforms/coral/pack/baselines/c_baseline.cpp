#include "platforms/coral/pack/baselines/c_baseline.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "common/data_dir.h"
#include "tasks/cpu/cpu_programs.h"
#include "platforms/coral/pack/layout_coral.h"

namespace tlmcraft::tasks::coral {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the Coral baseline template");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `#include "x.c"` -> the fragment name, else "".
std::string fragment_of(const std::string& line) {
  const std::string prefix = "#include \"";
  if (line.compare(0, prefix.size(), prefix) != 0) return "";
  const size_t end = line.find('"', prefix.size());
  if (end == std::string::npos) return "";
  const std::string name = line.substr(prefix.size(), end - prefix.size());
  return name.size() > 2 && name.compare(name.size() - 2, 2, ".c") == 0 ? name : "";
}

void expand(const std::string& dir, const std::string& rel, std::set<std::string>& seen, std::ostringstream& out) {
  std::istringstream in(read_file(dir + "/" + rel));
  const std::string sub = rel.find('/') == std::string::npos ? "" : rel.substr(0, rel.rfind('/') + 1);
  std::string line;
  while (std::getline(in, line)) {
    const std::string frag = fragment_of(line);
    if (frag.empty()) {
      out << line << "\n";
      continue;
    }
    // Fragments are looked up next to the including file, then in the top folder.
    std::string path = sub + frag;
    if (!sub.empty() && !std::ifstream(dir + "/" + path)) path = frag;
    if (seen.insert(path).second) expand(dir, path, seen, out);
  }
}

}  // namespace

std::string templates_dir() {
  return data::data_path_or_env("TLMCRAFT_CORAL_TEMPLATES", "platforms/coral/pack/baselines/templates");
}

std::string template_file(const std::string& task) {
  return cpu::is_cpu_program(task) ? "cpu/" + task + ".c" : task + ".c";
}

bool has_c_baseline(const std::string& task) {
  if (task.empty() || task.find('/') != std::string::npos) return false;
  return bool(std::ifstream(templates_dir() + "/" + template_file(task)));
}

std::string expand_template(const std::string& relative_path) {
  std::set<std::string> seen{relative_path};
  std::ostringstream out;
  expand(templates_dir(), relative_path, seen, out);
  return out.str();
}

std::string c_baseline(const Instance& inst) {
  if (inst.platform() != PlatformId("coral") || !has_c_baseline(inst.task().name))
    throw TaskError("no Coral C baseline for task '" + inst.task().name + "' on " + platform_name(inst.platform()));
  const CoralLayout layout(inst.task(), inst.params());
  std::ostringstream o;
  o << "/* tlmcraft Coral baseline: " << inst.task().name << " " << inst.config().name
    << " (generated from platforms/coral/pack/baselines/templates/" << template_file(inst.task().name) << ") */\n";
  o << layout.c_defines() << "\n" << expand_template(template_file(inst.task().name));
  return o.str();
}

}  // namespace tlmcraft::tasks::coral
