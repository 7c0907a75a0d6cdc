// A directory of its own for one test process (mkdtemp under gtest's TempDir()), removed
// with its contents at scope end. Tests that ctest runs in parallel, and the same test run
// from two build trees at once, must never share a path: a fixed name let one test truncate
// a file another was reading (docs/reliability.md, "Tests under load").
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace tlmcraft::test {

class UniqueTempDir {
 public:
  explicit UniqueTempDir(const std::string& tag) {
    std::string pattern = ::testing::TempDir() + "tlmcraft-" + tag + "-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~UniqueTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  UniqueTempDir(const UniqueTempDir&) = delete;
  UniqueTempDir& operator=(const UniqueTempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `text` to file(name) and returns that path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }

 private:
  std::string path_;
};

}  // namespace tlmcraft::test
