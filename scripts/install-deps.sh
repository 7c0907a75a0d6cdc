#!/usr/bin/env bash
# Installs the Debian packages tlmcraft needs, only those that are missing.
# Runs as root on Debian bookworm (or via sudo when available).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libsystemc-dev libyaml-cpp-dev
      libboost-program-options-dev nlohmann-json3-dev libgtest-dev libgmock-dev
      libcurl4-openssl-dev libre2-dev zlib1g-dev
      binutils-riscv64-unknown-elf clang-16 lld-16)
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
