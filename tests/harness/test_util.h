// Helpers shared by the harness tests: a scratch directory and small file utilities.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/unique_temp_dir.h"

namespace tlmcraft::harness::test {

// A fresh directory under the test temp dir, removed with everything in it at scope end.
class ScratchDir : public ::tlmcraft::test::UniqueTempDir {
 public:
  ScratchDir() : UniqueTempDir("harness") {}
};

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);
// Lines of a file without their newline characters.
std::vector<std::string> read_lines(const std::string& path);

// The hand-made suite results the summary and report tests share (values in test_util.cpp):
// plena: silu C1..C5, gemm C1..C2 (C2 recorded twice), conv2d C1..C2 unsupported, ffn C1..C2;
// coral: relu C1..C3 with five kernel samples each.
std::vector<nlohmann::json> hand_made_records();

// One passing PLENA baseline record of `task` at C1 with every figure the HTML pages show
// (units, memory, energy, roofline), on variant `variant` whose override sets the prefetch
// bandwidth to `bw`.
nlohmann::json run_record(const std::string& task, uint64_t cycles, const std::string& variant, const std::string& bw);

// Occurrences of `what` in `text`.
size_t count(const std::string& text, const std::string& what);

}  // namespace tlmcraft::harness::test
