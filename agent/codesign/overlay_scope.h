// An overlay document in force for the duration of a call: written as YAML to a file of
// this process and thread (overlays are files to the ISA loaders), added to the ISA
// variant of this thread (isa/isa_variant.h), removed again at the end. The co-design
// adapters use it to run a platform's own code (its search transformations, its
// assembler) under a variant without a file of the user's.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "isa/isa_variant.h"

namespace tlmcraft::agent::codesign {

class ScopedOverlay {
 public:
  // `tag` names the file (tlmcraft-<tag>-overlay-...yaml) for whoever finds one left
  // after a crash.
  ScopedOverlay(const nlohmann::json& overlay, const std::string& tag);
  ~ScopedOverlay();
  ScopedOverlay(const ScopedOverlay&) = delete;
  ScopedOverlay& operator=(const ScopedOverlay&) = delete;

 private:
  std::string path_;
  std::unique_ptr<isa::ScopedIsaVariant> scope_;
};

}  // namespace tlmcraft::agent::codesign
