// Readable text forms of a raw run result and of an evaluation report.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "isa/program.h"
#include "platforms/platform.h"

namespace tlmcraft {

std::string format_run_text(const std::string& platform, const isa::Program& prog, const RunResult& r);
std::string format_report_text(const nlohmann::json& report);

}  // namespace tlmcraft
