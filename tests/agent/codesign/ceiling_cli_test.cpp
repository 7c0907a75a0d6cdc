// `tlmcraft codesign explore --ceiling` end to end on PLENA's silu C1: the mined candidate
// (one, `--top 1`) is evaluated as a variant at its declared latency and in the ceiling at
// latency 1, apart from the variants.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tlmcraft::agent::codesign {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kExe = std::string(TLMCRAFT_BINARY_DIR) + "/harness/tlmcraft";

std::vector<json> lines(const fs::path& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(json::parse(l));
  return out;
}

std::string text(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CeilingCli, SiluCeilingIsItsCandidateOneCycleFasterPerExecution) {
  const fs::path dir = fs::temp_directory_path() / ("tlm_ceiling_cli_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string d = "'" + dir.string() + "'";
  ASSERT_EQ(std::system(("'" + kExe + "' codesign mine --platform plena --tasks silu --configs C1 --top 1 --out " + d +
                         "/mine > /dev/null")
                            .c_str()),
            0);
  const int rc =
      std::system(("'" + kExe + "' codesign explore --platform plena --tasks silu --configs C1 --candidates " + d +
                   "/mine/candidates.yaml --area-budget 25% --set timing.mode=serial --ceiling --out " + d + "/x > " +
                   d + "/stdout 2>&1")
                      .c_str());
  ASSERT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << text(dir / "stdout");

  // The store holds the base and CD0 only; the ceiling is its own line.
  const std::vector<json> variants = lines(dir / "x" / "explore.jsonl");
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[1]["id"], "CD0");
  const std::vector<json> ceiling = lines(dir / "x" / "ceiling.jsonl");
  ASSERT_EQ(ceiling.size(), 1u);
  const json& c = ceiling[0];
  EXPECT_EQ(c["id"], "ceiling-L1");
  EXPECT_EQ(c["latency"], 1);
  EXPECT_TRUE(c["ok"].get<bool>());
  EXPECT_EQ(c["area_mm2"], variants[1]["area_mm2"]);  // the same one candidate

  // PLENA's serial timing charges an instruction its latency class's cycles: each of CD0's
  // executions takes (declared - 1) cycles less in the ceiling, nothing else changes.
  const int declared =
      YAML::LoadFile(
          (dir / "mine" / "candidates.yaml").string())["candidates"][0]["overlay"]["latency_classes"][0]["cycles"]
          .as<int>();
  ASSERT_EQ(declared, 2) << "the mined candidate is declared at its slowest step's 2 cycles";
  const double executions = variants[1]["uses"]["CD0"]["executions"].get<double>();
  EXPECT_EQ(c["uses"]["CD0"]["executions"].get<double>(), executions);
  EXPECT_EQ(c["cycles"]["silu/C1"].get<double>(),
            variants[1]["cycles"]["silu/C1"].get<double>() - (declared - 1) * executions);

  const json summary = json::parse(text(dir / "x" / "summary.json"));
  EXPECT_EQ(summary["variants"].size(), 2u);
  EXPECT_EQ(summary["ceiling"]["area_increase"], summary["variants"][1]["area_increase"]);
  EXPECT_NE(text(dir / "stdout").find("\nceiling (not buildable: every candidate at latency 1, area +"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tlmcraft::agent::codesign
