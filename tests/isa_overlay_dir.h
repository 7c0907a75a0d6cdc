// An ISA folder for one test: the shipped description of an ISA with ops appended to its
// op list (the overlay form of docs/isa-extensions.md), and TLMCRAFT_ISA_DIR pointing at it
// while the object lives (descriptions are cached per folder, so every object gets its own).
#pragma once
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "isa/isa_spec.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::test {

// The shipped YAML text of `isa` (with no TLMCRAFT_ISA_DIR in effect).
inline std::string shipped_isa_yaml(const std::string& isa) {
  unsetenv("TLMCRAFT_ISA_DIR");
  std::ifstream in(isa::isa_yaml_path(isa));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class IsaOverlayDir {
 public:
  IsaOverlayDir(const std::string& isa, const std::string& ops, const std::string& tag) : unique_("isa-" + tag) {
    const std::string text = shipped_isa_yaml(isa) + ops;
    ::mkdir((unique_.path() + "/" + isa).c_str(), 0755);
    std::ofstream(unique_.path() + "/" + isa + "/" + isa + ".yaml") << text;
    setenv("TLMCRAFT_ISA_DIR", unique_.path().c_str(), 1);
  }
  ~IsaOverlayDir() { unsetenv("TLMCRAFT_ISA_DIR"); }
  const std::string& path() const { return unique_.path(); }

 private:
  UniqueTempDir unique_;
};

}  // namespace tlmcraft::test
