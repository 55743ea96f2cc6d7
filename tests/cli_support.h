// Runs the bsde command line in-process for the CLI, fault, study and bench tests.
#pragma once
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "../src/cli.h"

namespace bsde::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = bsde::run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

// "bsde arg1 arg2 ...", for messages.
inline std::string joined(const std::vector<std::string>& args) {
    std::string s = "bsde";
    for (const std::string& a : args) s += " " + a;
    return s;
}

inline bool exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

// /tmp/bsde_test_<suite>_<pid>/ with the files and folders a test case names there; all removed at the end.
class ScratchDir {
public:
    explicit ScratchDir(const std::string& suite) : dir_("/tmp/bsde_test_" + suite + "_" + std::to_string(::getpid())) {
        ::mkdir(dir_.c_str(), 0700);
        BOOST_REQUIRE_MESSAGE(exists(dir_), "cannot create the scratch directory " << dir_);
    }
    ~ScratchDir() {
        for (const std::string& f : files_) {
            std::remove(f.c_str());
            std::remove((f + ".partial").c_str());
        }
        for (auto d = dirs_.rbegin(); d != dirs_.rend(); ++d) ::rmdir(d->c_str());
        ::rmdir(dir_.c_str());
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    // A path in the directory, removed (with its .partial) at the end; the file is not created.
    std::string path(const std::string& name) {
        files_.push_back(dir_ + "/" + name);
        return files_.back();
    }
    // A file with the given contents, byte for byte.
    std::string write(const std::string& name, const std::string& contents) {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << contents;
        return p;
    }
    // A folder in the directory, removed at the end.
    std::string directory(const std::string& name) {
        dirs_.push_back(dir_ + "/" + name);
        ::mkdir(dirs_.back().c_str(), 0700);
        return dirs_.back();
    }

private:
    std::string dir_;
    std::vector<std::string> files_, dirs_;
};

}  // namespace bsde::test
