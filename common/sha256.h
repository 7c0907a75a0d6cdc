// SHA-256 (FIPS 180-4), for content hashes that name a file in provenance (an ISA
// overlay): a digest others can recompute with sha256sum.
#pragma once
#include <string>

namespace tlmcraft {

// The digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(const std::string& bytes);

}  // namespace tlmcraft
