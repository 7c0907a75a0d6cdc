// Which platforms offer a memory layout, and how to build one: each platform pack
// (platforms/<p>/pack/) registers its layout here; shared code looks layouts up by
// platform and never names one.
#pragma once
#include <functional>
#include <memory>

#include "tasks/layout.h"

namespace tlmcraft::tasks {

struct LayoutRegistration {
  // The layout of a supported task configuration.
  std::function<std::unique_ptr<PlatformLayout>(const TaskSpec&, const Params&)> make;
  // Optional: corrects the "unwritten" flags of decoded outputs before checking, for a
  // platform whose poison byte is also a valid value (the expected value decides).
  std::function<void(DecodedOutputs& got, const TensorSet& want)> resolve_unwritten;
};

// Throws std::invalid_argument if `p` already has a layout or `make` is empty.
void register_layout(PlatformId p, LayoutRegistration registration);
// nullptr if no pack registered a layout for `p`.
const LayoutRegistration* find_layout(PlatformId p);

}  // namespace tlmcraft::tasks
