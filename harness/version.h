// The version of this tlmcraft build: "<project version> (commit <git commit>)", with
// ", modified" when tracked files differed from the commit (harness/build_info.h). `tlmcraft
// --version` prints it; shards of a Slurm run record it, and a driver refuses results
// written by another version.
#pragma once
#include <string>

namespace tlmcraft::harness {

const std::string& tlmcraft_version();

}  // namespace tlmcraft::harness
