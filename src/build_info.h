// Which build this binary is: the commit it was built from, for bsde --version and the records that bench and
// study write (their results name the build they came from).
#pragma once
#include <string>

namespace bsde {

// `git describe --always --dirty` of the tree the binary was built from ("-dirty": with uncommitted changes), or
// "unknown" where the tree was no git checkout (the Makefile passes it to build_info.cpp alone).
std::string build_commit();

// bsde --version: the build's commit and the backends this binary runs on this machine.
std::string version_text();

}  // namespace bsde
