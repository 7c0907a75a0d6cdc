// Helpers for PLENA platform tests: assemble + load + run a kernel text.
#pragma once
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "platforms/plena/plena_platform.h"

namespace tlmcraft::plena::testing {

inline PlenaConfig config(const std::string& mode, std::vector<std::string> extra = {}) {
  extra.push_back("timing.mode=" + mode);
  return load_plena_config("default", extra);
}

// Assembles (failing the test on diagnostics) and loads `kernel`.
inline void load(PlenaPlatform& p, const std::string& kernel) {
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
  const bool ok = p.assemble(kernel, "test.asm", prog, diags);
  std::string text;
  for (const auto& d : diags) text += d.format() + "\n";
  ASSERT_TRUE(ok) << text;
  p.load(prog);
}

inline RunResult run(PlenaPlatform& p, const std::string& kernel, RunLimits limits = {}) {
  load(p, kernel);
  if (::testing::Test::HasFatalFailure()) {
    RunResult failed;
    failed.stop = StopReason::Fault;
    failed.message = "assembly failed";
    return failed;
  }
  return p.run(limits, {});
}

inline RunResult run(const std::string& mode, const std::string& kernel, std::vector<std::string> extra = {}) {
  PlenaPlatform p(config(mode, std::move(extra)));
  return run(p, kernel);
}

}  // namespace tlmcraft::plena::testing
