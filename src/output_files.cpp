#include "output_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "../algorithms/core/errors.h"

namespace bsde {
namespace {

// What a signal that ends the run (SIGINT, SIGTERM, SIGHUP: Ctrl-C, a time limit, a closed terminal) removes before its
// default action, so that a stopped run leaves nothing of its own behind. Each slot records one entry by the descriptor
// of its folder and its name there, so that a folder renamed during the run takes its records along. The handler makes
// only async-signal-safe calls (kill, waitpid, fstatat, unlinkat, sigaction, raise) on these fixed records, and reads
// the slots' states through lock-free atomics, which a signal on any thread (omp's too) sees after the record they
// publish; a signal the process ignores (nohup) stays ignored.
constexpr int max_removals = 64;
constexpr std::size_t max_removal_name = 4096;
// claimed: being written, skipped by the handler. own_file, own_folder: made by the run, removed only while the name
// still holds the same device and inode (a folder also only while empty). file_in_own_folder: a file another program
// (gnuplot) writes into a folder the run made, all of whose entries are the run's: removed by its name.
enum SlotState : int { free_slot, claimed_slot, own_file, own_folder, file_in_own_folder };
struct Removal {
    int parent;  // a descriptor, or AT_FDCWD
    char name[max_removal_name];
    dev_t device;
    ino_t inode;
};
Removal removals[max_removals];
std::atomic<int> removal_states[max_removals];
std::atomic<pid_t> running_child{0};  // the program run_in_folder runs, 0: none
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free,
              "the signal handler reads them");

const int stopping_signals[] = {SIGINT, SIGTERM, SIGHUP};

// Whether `name` in `parent` still holds the entry the run made. Async-signal-safe.
bool still_made(int parent, const char* name, dev_t device, ino_t inode) {
    struct stat now;
    return ::fstatat(parent, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == device && now.st_ino == inode;
}

// Removes the entry the run made, if `name` still holds it (a folder only when empty). Async-signal-safe.
bool remove_made(int parent, const char* name, dev_t device, ino_t inode, bool folder) {
    return still_made(parent, name, device, inode) && ::unlinkat(parent, name, folder ? AT_REMOVEDIR : 0) == 0;
}

extern "C" void remove_own_paths_then_stop(int signal_number) {
    remove_own_paths();
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    ::sigaction(signal_number, &default_action, nullptr);
    ::raise(signal_number);
}

// The handler, installed before the first record is taken; while it runs the other stopping signals wait.
void install_removing_handler() {
    static const bool installed = [] {
        for (const int signal_number : stopping_signals) {
            struct sigaction current {};
            if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
            struct sigaction removing {};
            removing.sa_handler = remove_own_paths_then_stop;
            sigemptyset(&removing.sa_mask);
            for (const int other : stopping_signals) sigaddset(&removing.sa_mask, other);
            ::sigaction(signal_number, &removing, nullptr);
        }
        return true;
    }();
    static_cast<void>(installed);
}

// A slot recording the entry for the handler, or -1 where none is free (more than 64 at once, or a longer name): that
// entry is then left by a signal.
int record_removal(int parent, const std::string& name, dev_t device, ino_t inode, SlotState state) {
    install_removing_handler();
    if (name.size() >= max_removal_name) return -1;
    for (int k = 0; k < max_removals; ++k) {
        int expected = free_slot;
        if (!removal_states[k].compare_exchange_strong(expected, claimed_slot)) continue;
        Removal& r = removals[k];
        r.parent = parent;
        std::memcpy(r.name, name.c_str(), name.size() + 1);
        r.device = device;
        r.inode = inode;
        removal_states[k].store(state, std::memory_order_release);
        return k;
    }
    return -1;
}

// The slot's entry is no longer the handler's: renamed into place, removed, or kept.
void release_removal(int slot) {
    if (slot >= 0) removal_states[slot].store(free_slot, std::memory_order_release);
}

// The stopping signals held on this thread while an entry is made and recorded, so that a signal finds it recorded or
// not made. (Before the first solve this is the only thread; later an idle omp thread may take the signal in that
// instant and leave the entry.)
class StoppingSignalsHeld {
public:
    StoppingSignalsHeld() {
        sigset_t stopping;
        sigemptyset(&stopping);
        for (const int signal_number : stopping_signals) sigaddset(&stopping, signal_number);
        ::pthread_sigmask(SIG_BLOCK, &stopping, &previous_);
    }
    ~StoppingSignalsHeld() {
        const int saved = errno;
        ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
        errno = saved;
    }
    StoppingSignalsHeld(const StoppingSignalsHeld&) = delete;
    StoppingSignalsHeld& operator=(const StoppingSignalsHeld&) = delete;
    const sigset_t& previous() const { return previous_; }

private:
    sigset_t previous_;
};

// The file that `path` names once its symbolic links are followed: the path that rename() must replace for the links
// to stay. A dangling link gives the file it points to, which is then created, as the shell's > creates it.
std::string followed_links(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p = path;
    std::error_code error;
    for (int links = 0; links < 40 && fs::is_symlink(fs::symlink_status(p, error)); ++links) {  // 40: Linux's limit
        const fs::path target = fs::read_symlink(p, error);
        if (error) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    return p.string();
}

// A new entry's name in `folder`: NAME.partial.XXXXXX with six random letters, the name cut where the suffix would take
// it past the folder's longest name (a 250-byte name is legal).
std::string partial_name(int folder, const std::string& name) {
    static std::mt19937_64 generator(std::random_device{}() ^ (std::uint64_t(::getpid()) << 32));
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::string suffix = ".partial.";
    for (int k = 0; k < 6; ++k) suffix += letters[generator() % (sizeof letters - 1)];
    const long longest = ::fpathconf(folder, _PC_NAME_MAX);  // -1 where unknown: Linux's usual 255
    const std::size_t room = (longest > long(suffix.size()) ? std::size_t(longest) : 255) - suffix.size();
    return name.substr(0, std::min(name.size(), room)) + suffix;
}

// A new file NAME.partial.XXXXXX in `folder` (its name in `made`, its device and inode), recorded for the handler in
// `slot`; its descriptor, or -1 with errno set.
int make_temporary_file(int folder, const std::string& name, std::string& made, dev_t& device, ino_t& inode,
                        int& slot) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        made = partial_name(folder, name);
        const StoppingSignalsHeld held;
        const int descriptor =
            ::openat(folder, made.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
        if (descriptor < 0 && errno == EEXIST) continue;
        if (descriptor < 0) return -1;
        struct stat info;
        if (::fstat(descriptor, &info) != 0) {
            const int failure = errno;
            ::unlinkat(folder, made.c_str(), 0);
            ::close(descriptor);
            errno = failure;
            return -1;
        }
        device = info.st_dev;
        inode = info.st_ino;
        slot = record_removal(folder, made, device, inode, own_file);
        return descriptor;
    }
    errno = EEXIST;
    return -1;
}

// The permissions a new file gets from open(): 0666 less the umask.
unsigned new_file_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// A folder, opened for the *at calls (O_PATH: no read permission needed).
int open_folder(int parent, const char* name, int flags = 0) {
    return ::openat(parent, name, O_PATH | O_DIRECTORY | O_CLOEXEC | flags);
}

}  // namespace

void prepare_process_for_output() {
    for (int descriptor = 0; descriptor <= 2; ++descriptor) {
        if (::fcntl(descriptor, F_GETFD) != -1 || errno != EBADF) continue;
        // open() takes the lowest free descriptor: this one, those below it being open
        if (::open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY) != descriptor) {
            static const char message[] = "bsde: error: a standard descriptor is closed and /dev/null cannot be opened\n";
            if (::write(2, message, sizeof message - 1) < 0) {
            }
            std::_Exit(4);
        }
    }
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
}

void remove_own_paths() {
    const pid_t child = running_child.exchange(0);
    if (child > 0) {  // it writes no file after those removed below
        ::kill(child, SIGKILL);
        while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    for (int k = 0; k < max_removals; ++k) {
        const int state = removal_states[k].load(std::memory_order_acquire);
        const Removal& r = removals[k];
        if (state == own_file) remove_made(r.parent, r.name, r.device, r.inode, false);
        if (state == file_in_own_folder) ::unlinkat(r.parent, r.name, 0);
    }
    // the folders, each once empty: a pass removes the deepest that are, until one removes none
    for (bool removed = true; removed;) {
        removed = false;
        for (int k = 0; k < max_removals; ++k) {
            const Removal& r = removals[k];
            if (removal_states[k].load(std::memory_order_acquire) == own_folder &&
                remove_made(r.parent, r.name, r.device, r.inode, true))
                removed = true;
        }
    }
}

void Descriptor::reset(int descriptor) {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = descriptor;
}

int Descriptor::release() {
    const int descriptor = descriptor_;
    descriptor_ = -1;
    return descriptor;
}

DescriptorBuffer::DescriptorBuffer() : buffer_(1 << 16) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

DescriptorBuffer::~DescriptorBuffer() { close(); }

void DescriptorBuffer::open(int descriptor) {
    close();
    descriptor_ = descriptor;
    failure_ = 0;
}

bool DescriptorBuffer::drain() {
    const char* next = pbase();
    std::size_t left = pptr() - pbase();
    while (left > 0 && failure_ == 0) {
        const ssize_t written = ::write(descriptor_, next, left);
        if (written > 0) {
            next += written;
            left -= std::size_t(written);
        } else if (written < 0 && errno != EINTR) {
            failure_ = errno;
        } else if (written == 0) {
            failure_ = EIO;
        }
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return failure_ == 0;
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type c) {
    if (descriptor_ < 0 || !drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

int DescriptorBuffer::sync() { return descriptor_ >= 0 && drain() ? 0 : -1; }

int DescriptorBuffer::close() {
    if (descriptor_ < 0) return failure_;
    drain();
    if (::close(descriptor_) != 0 && errno != EINTR && failure_ == 0) failure_ = errno;  // NFS reports a full disk here
    descriptor_ = -1;
    return failure_;
}

AtomicOutputFile::AtomicOutputFile(const std::string& path, const std::string& option)
    : where_(option + " '" + path + "': "), stream_(&buffer_) {
    // Opened before it is looked at, neither created nor truncated, so that what it is decides how it is written
    // even if it is replaced meanwhile. Opening it for writing also checks its permission: a read-only file stays,
    // as the shell's > leaves it (the rename would replace it).
    Descriptor existing(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC));
    if (existing.get() < 0 && errno == EISDIR) throw InputError(where_ + "is a directory");
    if (existing.get() < 0 && errno != ENOENT)
        throw InputError(where_ + "cannot write there (" + std::strerror(errno) + ")");
    struct stat info {};
    if (existing.get() >= 0 && ::fstat(existing.get(), &info) != 0)
        throw InputError(where_ + "cannot write there (" + std::strerror(errno) + ")");
    if (existing.get() >= 0 && !S_ISREG(info.st_mode)) {  // a FIFO or a device, which a rename would replace
        buffer_.open(existing.release());
        return;
    }
    mode_ = existing.get() >= 0 ? info.st_mode & 07777 : new_file_mode();
    open_temporary(path);
}

void AtomicOutputFile::open_temporary(const std::string& path) {
    const std::filesystem::path target = followed_links(path);
    const std::string folder = target.has_parent_path() ? target.parent_path().string() : ".";
    target_name_ = target.filename().string();
    if (target_name_.empty() || target_name_ == "." || target_name_ == "..")
        throw InputError(where_ + "is a directory");
    folder_.reset(open_folder(AT_FDCWD, folder.c_str()));
    const int descriptor = folder_.get() < 0 ? -1
                                             : make_temporary_file(folder_.get(), target_name_, temporary_name_,
                                                                   device_, inode_, signal_slot_);
    if (descriptor < 0)  // a missing folder, a read-only one, one where no file can be made (/proc)
        throw InputError(where_ + "cannot write there: no file can be created in '" + folder + "' (" +
                         std::strerror(errno) + ")");
    buffer_.open(descriptor);
}

AtomicOutputFile::~AtomicOutputFile() {
    if (!committed_) {
        buffer_.close();
        if (!temporary_name_.empty())
            remove_made(folder_.get(), temporary_name_.c_str(), device_, inode_, false);
    }
    release_removal(signal_slot_);
}

void AtomicOutputFile::finish() {
    if (!buffer_.is_open()) return;
    stream_.flush();
    const int permissions = temporary_name_.empty() || ::fchmod(buffer_.descriptor(), mode_) == 0 ? 0 : errno;
    const int writing = buffer_.close();
    if (writing != 0 || permissions != 0)
        throw InputError(where_ + "writing the file failed (" + std::strerror(writing ? writing : permissions) + ")");
}

void AtomicOutputFile::commit() {
    finish();
    if (!temporary_name_.empty() &&
        ::renameat(folder_.get(), temporary_name_.c_str(), folder_.get(), target_name_.c_str()) != 0)
        throw InputError(where_ + "writing the file failed (" + std::strerror(errno) + ")");
    committed_ = true;
    release_removal(signal_slot_);
    signal_slot_ = -1;
}

void commit_together(std::initializer_list<AtomicOutputFile*> files) {
    for (AtomicOutputFile* file : files) file->finish();
    for (AtomicOutputFile* file : files) file->commit();
}

OutputFolder::OutputFolder(const std::string& path) : path_(path) {
    const auto fail = [this, &path](const std::string& why) {
        remove_created();
        return InputError("--out '" + path + "': " + why);
    };
    // Level by level, each made by mkdir and recorded at once; one that exists (EEXIST), whoever made it, is not the
    // run's to remove.
    std::filesystem::path level;
    for (const std::filesystem::path& part : std::filesystem::path(path)) {
        level /= part;
        if (part.empty()) continue;  // after a trailing '/'
        const StoppingSignalsHeld held;
        if (::mkdir(level.c_str(), 0777) == 0) {
            struct stat info;
            if (::lstat(level.c_str(), &info) == 0)
                created_.push_back({AT_FDCWD, level.string(), info.st_dev, info.st_ino,
                                    record_removal(AT_FDCWD, level.string(), info.st_dev, info.st_ino, own_folder)});
        } else if (errno != EEXIST) {
            throw fail(std::string("cannot create the folder (") + std::strerror(errno) + ")");
        }
    }
    folder_.reset(open_folder(AT_FDCWD, path.c_str()));
    if (folder_.get() < 0) {
        const int failure = errno;
        struct stat info;
        if (::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode) && ::stat(path.c_str(), &info) != 0)
            throw fail("cannot create the folder: a symbolic link to a missing folder has its name");
        if (failure == ENOTDIR) throw fail("cannot create the folder: a file has its name");
        throw fail(std::string("cannot create the folder (") + std::strerror(failure) + ")");
    }
}

OutputFolder::~OutputFolder() { remove_created(); }

void OutputFolder::remove_created() {
    for (auto level = created_.rbegin(); level != created_.rend(); ++level) {  // the deepest first
        remove_made(level->parent, level->name.c_str(), level->device, level->inode, true);
        release_removal(level->signal_slot);
    }
    created_.clear();
}

std::unique_ptr<AtomicOutputFile> OutputFolder::file(const std::string& name) const {
    return std::make_unique<AtomicOutputFile>(path_ + "/" + name, "--out");
}

TemporaryFolder::TemporaryFolder(int parent, const std::string& stem, const std::vector<std::string>& names)
    : own_{parent, "", 0, 0, -1}, names_(names) {
    int failure = EEXIST;
    for (int attempt = 0; attempt < 100 && failure == EEXIST; ++attempt) {
        const std::string name = partial_name(parent, stem);
        const StoppingSignalsHeld held;
        if (::mkdirat(parent, name.c_str(), 0700) != 0) {
            failure = errno;
            continue;
        }
        folder_.reset(open_folder(parent, name.c_str(), O_NOFOLLOW));
        struct stat info;
        if (folder_.get() < 0 || ::fstat(folder_.get(), &info) != 0) {
            failure = errno;
            ::unlinkat(parent, name.c_str(), AT_REMOVEDIR);
            folder_.reset();
            break;
        }
        own_ = {parent, name, info.st_dev, info.st_ino,
                record_removal(parent, name, info.st_dev, info.st_ino, own_folder)};
        failure = 0;
    }
    if (failure != 0) throw InputError(std::string("cannot make a folder for them (") + std::strerror(failure) + ")");
    for (const std::string& name : names_)
        name_slots_.push_back(record_removal(folder_.get(), name, 0, 0, file_in_own_folder));
}

TemporaryFolder::~TemporaryFolder() {
    // every file in it, the names it was told of and any other the program wrote
    if (DIR* entries = ::fdopendir(::openat(folder_.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC))) {
        std::vector<std::string> found;
        while (const dirent* entry = ::readdir(entries)) found.emplace_back(entry->d_name);
        for (const std::string& name : found) ::unlinkat(::dirfd(entries), name.c_str(), 0);  // not . and ..: folders
        ::closedir(entries);
    }
    for (const int slot : name_slots_) release_removal(slot);
    remove_made(own_.parent, own_.name.c_str(), own_.device, own_.inode, true);
    release_removal(own_.signal_slot);
}

bool TemporaryFolder::move_out(const std::string& name) const {
    return ::renameat(folder_.get(), name.c_str(), own_.parent, name.c_str()) == 0;
}

int run_in_folder(int folder, const std::string& program, const std::vector<std::string>& arguments,
                  std::string& output) {
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int pipe_ends[2];
    if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return -1;
    pid_t child;
    {
        const StoppingSignalsHeld held;  // so that the handler knows the child from its start
        child = ::fork();
        if (child == 0) {  // async-signal-safe calls only, until exec
            for (const int signal_number : stopping_signals) {
                struct sigaction current {};
                if (::sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler != SIG_IGN)
                    ::signal(signal_number, SIG_DFL);
            }
            ::signal(SIGPIPE, SIG_DFL);  // as a program run from a shell has them
            ::signal(SIGXFSZ, SIG_DFL);
            ::pthread_sigmask(SIG_SETMASK, &held.previous(), nullptr);
            const int input = ::open("/dev/null", O_RDONLY);
            if (::fchdir(folder) != 0 || input < 0 || ::dup2(input, 0) < 0 || ::dup2(pipe_ends[1], 1) < 0 ||
                ::dup2(pipe_ends[1], 2) < 0)
                ::_exit(127);
            ::execv(program.c_str(), argv.data());
            ::_exit(127);
        }
        if (child > 0) running_child.store(child);
    }
    const int failure = errno;
    ::close(pipe_ends[1]);
    if (child < 0) {
        ::close(pipe_ends[0]);
        errno = failure;
        return -1;
    }
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipe_ends[0], buffer, sizeof buffer)) != 0;)
        if (n > 0) output.append(buffer, std::size_t(n)).erase(0, output.size() > 65536 ? output.size() - 65536 : 0);
        else if (errno != EINTR) break;
    ::close(pipe_ends[0]);
    int status = 0;
    pid_t waited;
    while ((waited = ::waitpid(child, &status, 0)) < 0 && errno == EINTR) {
    }
    running_child.store(0);
    return waited == child ? status : -1;
}

}  // namespace bsde
