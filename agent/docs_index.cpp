#include "agent/docs_index.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "common/data_dir.h"
#include "common/platform_catalog.h"
#include "isa/isa_doc.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "isa/isa_tools.h"

namespace tlmcraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The `## title` section of a Markdown file, up to the next `## ` heading ("" if absent).
std::string markdown_section(const std::string& text, const std::string& title) {
  const std::string head = "## " + title + "\n";
  const size_t at = text.rfind(head, 0) == 0 ? 0 : text.find("\n" + head);
  if (at == std::string::npos) return "";
  const size_t begin = at == 0 ? 0 : at + 1;
  const size_t end = text.find("\n## ", begin + head.size());
  return text.substr(begin, end == std::string::npos ? std::string::npos : end + 1 - begin);
}

// What the platform registered about its ISA reference; nullptr when it stated nothing
// (then the reference is its name's YAML if that loads, else its hand-written files).
const PlatformInfo* isa_of(const std::string& platform) {
  const PlatformInfo* info = find_platform_info(platform);
  return info && !info->reference_isa.empty() ? info : nullptr;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Cycle notes per latency class from the configuration's timing section.
std::map<std::string, std::string> latency_notes(const json& config) {
  std::map<std::string, std::string> notes;
  if (!config.contains("timing") || !config["timing"].is_object()) return notes;
  const json& t = config["timing"];
  const json lat = t.value("latency", json::object());
  const json ii = t.value("initiation_interval", json::object());
  for (const auto& [cls, cycles] : lat.items()) {
    if (!cycles.is_number()) continue;
    const long long c = cycles.get<long long>();
    std::string s = std::to_string(c) + (c == 1 ? " cycle" : " cycles");
    if (ii.contains(cls) && ii[cls].is_number() && ii[cls].get<long long>() != 1)
      s += "; pipelined mode: a new one every " + std::to_string(ii[cls].get<long long>()) + " cycles";
    notes[cls] = s;
  }
  return notes;
}

}  // namespace

std::string isa_reference_name(const std::string& platform) {
  const PlatformInfo* p = isa_of(platform);
  return "isa/" + (p ? p->reference_isa : platform) + ".md";
}

namespace {
// With an ISA variant in force (--isa-dir, --isa-ext), the reference of a platform whose
// docs/isa page is generated from its ISA's YAML (AIE-ML) is rendered from the variant, so
// added or changed instructions appear; "" without a variant or a generator.
std::string variant_reference(const PlatformInfo* p) {
  if (!p || isa::current_isa_variant().empty()) return "";
  std::string text;
  for (const auto& name : p->isa_names) {
    const isa::IsaTools* tools = isa::find_isa_tools(name);
    if (!tools || !tools->doc) continue;
    try {
      text += (text.empty() ? "" : "\n") + tools->doc(false);
    } catch (const std::exception&) {
      return "";  // a variant that does not load: the entry point has reported it
    }
  }
  return text;
}
}  // namespace

std::string isa_reference(const std::string& platform, const json& platform_config) {
  const PlatformInfo* p = isa_of(platform);
  const std::string isa = p ? p->reference_isa : platform;
  if (!p || p->reference_from_yaml) {
    try {
      return isa::render_isa_markdown(isa::load_isa_spec(isa), latency_notes(platform_config));
    } catch (const std::exception&) {
      // A plugin's ISA lives beside the plugin, not in the data folder: its registered
      // tools render it (`tlmcraft isa doc` shows the same text).
      if (const isa::IsaTools* tools = isa::find_isa_tools(isa); tools && tools->doc) {
        try {
          return tools->doc(true);
        } catch (const std::exception&) {
        }
      }
      if (p) return "";  // a YAML ISA that does not load: nothing trustworthy to show
    }
  }
  std::string text = variant_reference(p);
  if (text.empty()) {
    // Hand-written references: docs/isa/<isa>*.md in name order.
    const fs::path dir = fs::path(data::data_path("docs/isa"));
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() == ".md" && name.rfind(isa, 0) == 0) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) text += (text.empty() ? "" : "\n") + read_file(f);
  }
  if (p && !p->reference_section.empty()) {
    const std::string section =
        markdown_section(read_file(fs::path(data::data_path("docs/platforms/" + isa + ".md"))), p->reference_section);
    if (!section.empty()) text += "\n" + section;
  }
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<DocMatch> grep_docs(const std::vector<DocFile>& files, const std::string& query, size_t max_results,
                                size_t& total, std::string& mode) {
  if (query.size() > kGrepMaxQuery)
    throw std::invalid_argument("query of " + std::to_string(query.size()) + " characters is longer than the limit of " +
                                std::to_string(kGrepMaxQuery));
  std::vector<std::string> words;
  {
    std::istringstream in(lower(query));
    std::string w;
    while (in >> w) words.push_back(w);
  }
  // The client's pattern runs on RE2 (linear time, bounded memory), within a time budget.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kGrepTimeLimitMs);
  bool out_of_time = false;
  auto collect = [&](auto&& matches_line) {
    std::vector<DocMatch> out;
    total = 0;
    for (const auto& f : files) {
      for (size_t i = 0; i < f.lines.size(); ++i) {
        if ((i & 63) == 0 && std::chrono::steady_clock::now() > deadline) {
          out_of_time = true;
          return out;
        }
        if (!matches_line(f.lines[i])) continue;
        ++total;
        if (out.size() >= max_results) continue;
        DocMatch m{f.name, i + 1, f.lines[i], ""};
        for (size_t j = i + 1; j < f.lines.size() && j <= i + 3; ++j)
          if (f.lines[j].find_first_not_of(" \t") != std::string::npos) {
            m.context = f.lines[j];
            break;
          }
        out.push_back(std::move(m));
      }
    }
    return out;
  };
  auto by_words = [&](const std::string& line) {
    const std::string l = lower(line);
    return !words.empty() && std::all_of(words.begin(), words.end(), [&](const std::string& w) { return l.find(w) != std::string::npos; });
  };
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  options.set_max_mem(kGrepRegexMemory);
  const RE2 re(query, options);
  if (re.ok()) {
    mode = "regex";
    auto out = collect([&](const std::string& line) { return RE2::PartialMatch(line, re); });
    if (out_of_time) mode = "regex (stopped after the time limit; results incomplete)";
    if (total > 0 || words.empty() || out_of_time) return out;
  }
  mode = "words";
  auto out = collect(by_words);
  if (out_of_time) mode = "words (stopped after the time limit; results incomplete)";
  return out;
}

}  // namespace tlmcraft::agent
