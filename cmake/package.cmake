# `cpack -G DEB` in the build tree (docs/install.md): two Debian packages from the install
# components, installing under /usr (the CLI then finds /usr/share/tlmcraft next to it).
#   tlmcraft      the CLI and its data; shared-library dependencies computed by dpkg-shlibdeps,
#                 plus the tools Coral kernels are built with
#   tlmcraft-dev  libraries, headers and the CMake package, with the -dev packages that
#                 find_package(tlmcraft) looks for
# cpack installs what the build made and never builds: with the default dependency of
# install on `all`, the install tests' cpack relinked tlmcraft under the Slurm tests running
# beside them whenever the tree was out of date (docs/reliability.md). `make install` and
# `make package` build first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_PACKAGE_NAME tlmcraft)
set(CPACK_PACKAGE_VENDOR "tlmcraft")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SystemC/TLM-2.0 co-simulation of AI accelerators with a kernel benchmark and agent harness")
set(CPACK_PACKAGE_CONTACT "tlmcraft maintainers <tlmcraft@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME tlmcraft)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "binutils-riscv64-unknown-elf, clang-16, lld-16")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME tlmcraft-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "tlmcraft (= ${PROJECT_VERSION}), cmake, pkg-config, g++, libsystemc-dev, libyaml-cpp-dev, libboost-program-options-dev, nlohmann-json3-dev, libcurl4-openssl-dev, libre2-dev, zlib1g-dev")

include(CPack)
