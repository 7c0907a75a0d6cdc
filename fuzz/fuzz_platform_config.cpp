// libFuzzer harness: the platform-config YAML readers of all three platforms
// (load_plena_config, load_coral_config, load_aie_config). The first byte picks the
// platform; the rest is the YAML file. A bad file must end in tlmcraft::InputError naming
// the file; any other exception escaping the loader, a crash, a leak or UB is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/coral/coral_config.h"
#include "platforms/platform.h"
#include "platforms/plena/plena_config.h"

using namespace tlmcraft;

namespace {

// Loads `path` as the config of platform `which` (0 PLENA, 1 Coral, 2 AIE-ML).
void load_config(uint8_t which, const std::string& path) {
  switch (which % 3) {
    case 0: (void)plena::load_plena_config(path); break;
    case 1: (void)coral::load_coral_config(path); break;
    default: (void)aie_ml::load_aie_config(path); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static fuzz::MemoryFile file;
  const std::string& path = file.write(data + 1, size - 1);
  try {
    load_config(data[0], path);
  } catch (const InputError& e) {
    // Expected for bad input: the message must name the file.
    if (std::string(e.what()).find(path) == std::string::npos) {
      std::fprintf(stderr, "fuzz_platform_config: error does not name the file: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
