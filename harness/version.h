// The version of this tlmcraft build (git describe of the source tree at build time, with
// "-dirty" for uncommitted changes). Shards of a Slurm run record it, and a driver refuses
// results written by another version.
#pragma once
#include <string>

namespace tlmcraft::harness {

const std::string& tlmcraft_version();

}  // namespace tlmcraft::harness
