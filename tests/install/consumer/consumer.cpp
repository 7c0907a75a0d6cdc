// Built against an installed tlmcraft: lists the registered platforms, then evaluates a
// task's baseline kernel on one of them through the library, as `tlmcraft run` does.
#include <iostream>
#include <string>

#include "harness/evaluate.h"
#include "platforms/registry.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: consumer PLATFORM TASK CONFIG\n";
    return 2;
  }
  for (const std::string& name : tlmcraft::platform_names()) std::cout << name << "\n";
  try {
    auto platform = tlmcraft::make_platform(argv[1]);
    tlmcraft::EvalOptions options;
    options.platform = argv[1];
    options.task = argv[2];
    options.config = argv[3];
    options.use_baseline = true;
    options.seed = 1;
    const nlohmann::json report = tlmcraft::evaluate(*platform, options);
    std::cout << report["status"].get<std::string>() << " " << report["cycles"].dump() << "\n";
    return report["status"] == "pass" ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "consumer: " << e.what() << "\n";
    return 2;
  }
}
