#include "search.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "simd_config.h"  // kPlatformName

namespace simd_accel {

namespace search = tlmcraft::agent::search;

namespace {

// The line without its comment (';' to the end).
std::string code_of(const std::string& line) { return line.substr(0, line.find(';')); }

bool is_instruction(const std::string& line) {
  return code_of(line).find_first_not_of(" \t\r") != std::string::npos;
}

const std::regex& loop_start() {
  static const std::regex re(R"(^\s*LOOP\s+(s\d+)\s*,\s*(\d+)\s*$)");
  return re;
}

const std::regex& loop_end() {
  static const std::regex re(R"(^\s*LOOP_END\s+(s\d+)\s*$)");
  return re;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Instructions executed: each line times the counts of the loops around it.
double executed_instructions(const std::vector<std::string>& lines) {
  std::vector<int64_t> counts;
  double total = 0, weight = 1;
  std::smatch m;
  for (const auto& line : lines) {
    const std::string code = code_of(line);
    if (!is_instruction(line)) continue;
    if (std::regex_match(code, m, loop_end()) && !counts.empty()) {
      total += weight;
      weight /= static_cast<double>(counts.back());
      counts.pop_back();
      continue;
    }
    total += weight;
    if (std::regex_match(code, m, loop_start())) {
      counts.push_back(std::max<int64_t>(1, std::stoll(m[2].str())));
      weight *= static_cast<double>(counts.back());
    }
  }
  return total;
}

}  // namespace

std::vector<InnermostLoop> innermost_loops(const std::vector<std::string>& lines) {
  std::vector<InnermostLoop> out;
  std::vector<InnermostLoop> open;  // innermost last
  std::vector<bool> has_inner;
  std::smatch m;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string code = code_of(lines[i]);
    if (std::regex_match(code, m, loop_start())) {
      if (!has_inner.empty()) has_inner.back() = true;
      open.push_back({i, 0, m[1].str(), std::stoll(m[2].str())});
      has_inner.push_back(false);
    } else if (std::regex_match(code, m, loop_end())) {
      if (open.empty() || open.back().counter != m[1].str()) return {};  // not a kernel we understand
      open.back().end = i;
      if (!has_inner.back()) out.push_back(open.back());
      open.pop_back();
      has_inner.pop_back();
    }
  }
  return open.empty() ? out : std::vector<InnermostLoop>{};
}

bool unroll_loop(const std::vector<std::string>& lines, const InnermostLoop& loop, int64_t factor,
                 size_t max_instructions, std::string& out, std::string& why) {
  if (factor < 2 || factor >= loop.count || loop.count % factor != 0) {
    why = "factor " + std::to_string(factor) + " does not divide the " + std::to_string(loop.count) + " iterations";
    return false;
  }
  const std::regex counter("\\b" + loop.counter + "\\b");
  for (size_t i = loop.start + 1; i < loop.end; ++i)
    if (std::regex_search(code_of(lines[i]), counter)) {
      why = "the body names the counter " + loop.counter + " (line " + std::to_string(i + 1) + ")";
      return false;
    }
  std::vector<std::string> result(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(loop.start));
  result.push_back("LOOP " + loop.counter + ", " + std::to_string(loop.count / factor));
  for (int64_t copy = 0; copy < factor; ++copy)
    result.insert(result.end(), lines.begin() + static_cast<std::ptrdiff_t>(loop.start + 1),
                  lines.begin() + static_cast<std::ptrdiff_t>(loop.end));
  result.insert(result.end(), lines.begin() + static_cast<std::ptrdiff_t>(loop.end), lines.end());
  const size_t size = static_cast<size_t>(std::count_if(result.begin(), result.end(), is_instruction));
  if (size > max_instructions) {
    why = std::to_string(size) + " instructions, more than the limit " + std::to_string(max_instructions);
    return false;
  }
  out.clear();
  for (const auto& line : result) out += line + "\n";
  return true;
}

std::vector<search::Candidate> simd_candidates(const std::string& parent, const search::SearchContext& context) {
  const std::vector<std::string> lines = split_lines(parent);
  std::vector<search::Candidate> out;
  const std::vector<InnermostLoop> loops = innermost_loops(lines);
  for (size_t l = 0; l < loops.size(); ++l)
    for (int64_t factor : {2, 4, 8}) {
      std::string text, why;
      if (!unroll_loop(lines, loops[l], factor, context.max_instructions, text, why)) continue;
      out.push_back({"unroll loop " + std::to_string(l) + " x" + std::to_string(factor), text,
                     executed_instructions(split_lines(text))});
    }
  return search::order_by_estimate(std::move(out), context.seed);
}

void register_search_transformations() {
  search::register_candidate_generator(
      {"simd_accel assembly",
       [](const search::SearchContext& ctx) { return ctx.platform == kPlatformName && ctx.language.empty(); },
       simd_candidates});
}

}  // namespace simd_accel
