// Kernel paths must be regular files of bounded size (no endless read of /dev/zero, no
// wait on a FIFO), and diagnostics are capped with a count of the rest.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "isa/input_limits.h"

namespace tlmcraft::isa {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& path) {
  try {
    read_kernel_file(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

class KernelFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("input_limits_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(KernelFiles, RegularFilesAreRead) {
  std::ofstream(path("k.asm")) << "S_ADDI_INT gp1, gp0, 1\n";
  EXPECT_EQ(read_kernel_file(path("k.asm")), "S_ADDI_INT gp1, gp0, 1\n");
}

TEST_F(KernelFiles, DevicesFifosAndDirectoriesAreRefused) {
  EXPECT_EQ(error_of("/dev/zero"), "/dev/zero: a kernel must be a regular file, this is a character device");
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(error_of(path("fifo")), path("fifo") + ": a kernel must be a regular file, this is a FIFO (named pipe)");
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": a kernel must be a regular file, this is a directory");
  EXPECT_EQ(error_of(path("missing")), path("missing") + ": cannot open kernel file: No such file or directory");
}

TEST_F(KernelFiles, FilesOverTheSizeLimitAreRefused) {
  { std::ofstream(path("big.asm")); }
  fs::resize_file(path("big.asm"), 5u << 20);  // sparse: no 5 MB written
  EXPECT_EQ(error_of(path("big.asm")), path("big.asm") +
                                           ": the kernel file is 5242880 bytes, over the kernel size limit of 4194304 "
                                           "bytes (raise it with TLMCRAFT_MAX_KERNEL_BYTES)");
  setenv("TLMCRAFT_MAX_KERNEL_BYTES", "8388608", 1);
  EXPECT_EQ(read_kernel_file(path("big.asm")).size(), 5u << 20);
  unsetenv("TLMCRAFT_MAX_KERNEL_BYTES");
}

TEST(Diagnostics, AreCappedWithACountOfTheRest) {
  std::vector<Diagnostic> d(250);
  for (auto& x : d) x.file = "k.asm";
  cap_diagnostics(d, 100);
  ASSERT_EQ(d.size(), 101u);
  EXPECT_EQ(d.back().severity, Severity::Note);
  EXPECT_EQ(d.back().format(), "k.asm: note: ... and 150 more diagnostics (hint: fix these first; TLMCRAFT_MAX_DIAGNOSTICS "
                               "raises the limit of 100)");
  cap_diagnostics(d, 100);  // capping again keeps the count of the first cap
  ASSERT_EQ(d.size(), 101u);
  EXPECT_EQ(d.back().message, "... and 150 more diagnostics");
  std::vector<Diagnostic> few(3);
  cap_diagnostics(few, 100);
  EXPECT_EQ(few.size(), 3u);
}

}  // namespace
}  // namespace tlmcraft::isa
