#include "build_info.h"

#include "../algorithms/backends/backend.h"

#ifndef BSDE_BUILD_COMMIT
#define BSDE_BUILD_COMMIT "unknown"
#endif

namespace bsde {

std::string build_commit() { return BSDE_BUILD_COMMIT; }

std::string version_text() {
    return "bsde, the multistep scheme for BSDEs, built from commit " + build_commit() + "\nbackends: " +
           available_backends_text() + "\n";
}

}  // namespace bsde
