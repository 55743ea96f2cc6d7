// The files the command line writes, each whole or not at all, and what a run that fails or is stopped leaves behind:
// nothing of its own, and nothing it did not make.
#pragma once
#include <sys/types.h>

#include <initializer_list>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace bsde {

// Makes the process safe to write files from; main calls it before anything is opened. Descriptors 0, 1 and 2 are
// opened on /dev/null where closed (`2>&-`), so that no file of the run takes one of them and receives what is written
// to the standard streams; SIGPIPE and SIGXFSZ are ignored, so that a closed pipe or a file-size limit (`ulimit -f`)
// fails the write (EPIPE, EFBIG) and the run ends by its documented exit code, its temporary files removed, instead of
// being killed with them left behind.
void prepare_process_for_output();

// Removes what the run made and has not committed, as a stopping signal does: the program it runs (gnuplot), then the
// temporary files, then the folders it created, each only while it holds no file. Async-signal-safe; for an end that
// runs no destructors (std::terminate).
void remove_own_paths();

// A descriptor closed with its owner.
class Descriptor {
public:
    explicit Descriptor(int descriptor = -1) : descriptor_(descriptor) {}
    ~Descriptor() { reset(); }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return descriptor_; }
    void reset(int descriptor = -1);
    int release();  // the descriptor, no longer closed here

private:
    int descriptor_;
};

// A stream buffer that writes to a descriptor and keeps the first failure of a write or of the close (errno: ENOSPC on
// a full disk, EFBIG beyond a file-size limit, EPIPE from a FIFO whose reader left), after which it writes nothing.
class DescriptorBuffer : public std::streambuf {
public:
    DescriptorBuffer();
    ~DescriptorBuffer() override;
    void open(int descriptor);       // takes the descriptor over
    bool is_open() const { return descriptor_ >= 0; }
    int descriptor() const { return descriptor_; }
    int close();                     // writes what is buffered and closes; returns the first failure's errno, 0: none

protected:
    int_type overflow(int_type c) override;
    int sync() override;

private:
    bool drain();  // writes the buffered bytes; false after a failure
    int descriptor_ = -1;
    int failure_ = 0;
    std::vector<char> buffer_;
};

// A file written under a temporary name and renamed when complete, so an interrupted run never leaves a truncated file.
// Opening checks the path is writable before any work starts. A symbolic link is followed (its target is replaced and
// the link stays a link); what is not a regular file (a FIFO, /dev/null) is written directly, as the shell's > writes
// it, since renaming would replace it. The temporary file is made, renamed and removed relative to its folder's opened
// descriptor, so that a folder renamed during the run takes it along: the file is committed into that folder wherever
// it went, and removed from there when the run fails or is stopped; only the file the run made is removed.
class AtomicOutputFile {
public:
    // option: the option that named the file, for the messages ("--output 'y0.csv': is a directory").
    // Throws InputError when the path is not writable.
    explicit AtomicOutputFile(const std::string& path, const std::string& option = "--output");
    ~AtomicOutputFile();  // removes the temporary unless committed
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
    std::ostream& stream() { return stream_; }
    void finish();  // closes; throws InputError when a write or the close failed
    void commit();  // finishes and renames into place

private:
    void open_temporary(const std::string& path);
    std::string where_;          // "--output 'FILE': ", the start of every message
    Descriptor folder_;          // the target's folder; -1 when writing directly
    std::string target_name_;    // the name replaced there: the path's with its links followed
    std::string temporary_name_;  // the new file's name there
    dev_t device_ = 0;           // the new file's, to remove it only while the name holds it
    ino_t inode_ = 0;
    unsigned mode_ = 0;     // the permissions the target gets: the replaced file's, else as umask leaves them
    int signal_slot_ = -1;  // the temporary's slot among the paths a signal removes (output_files.cpp), -1: none
    DescriptorBuffer buffer_;
    std::ostream stream_;
    bool committed_ = false;
};

// Commits the files of one run together: each is finished before any is renamed into place, so that a failure to
// write one of them (a full disk) leaves none behind.
void commit_together(std::initializer_list<AtomicOutputFile*> files);

// A folder the run made, recorded by its device and inode: removed (rmdir) only while its name still holds that folder
// and it is empty, so that a folder put in its place, or one holding files, stays. The record a signal reads is taken
// with it (-1: none free).
struct OwnFolder {
    int parent;  // the descriptor `name` is relative to, or AT_FDCWD
    std::string name;
    dev_t device;
    ino_t inode;
    int signal_slot;
};

// The --out folder of bsde study and bsde bench: created with its missing parents before any work, so that an
// unwritable path fails at once, and its files opened there. The folders the run created (mkdir succeeded, not one
// found there) are removed again when it goes out of scope still empty, or when a signal stops the run: a run that
// fails or stops before committing a file leaves nothing behind, and a folder it did not make, or that was renamed
// away, stays. Declare it before its files, so that they are removed first.
class OutputFolder {
public:
    explicit OutputFolder(const std::string& path);  // throws InputError when it cannot be created
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;
    std::unique_ptr<AtomicOutputFile> file(const std::string& name) const;  // throws InputError when not writable
    int descriptor() const { return folder_.get(); }  // the folder, opened: its files' names are relative to it

private:
    void remove_created();
    std::string path_;
    std::vector<OwnFolder> created_;  // the outermost first
    Descriptor folder_;
};

// A new folder of the run's own inside an opened one (STEM.partial.XXXXXX), for the files another program writes there
// (gnuplot's plots): everything in it is the run's and is removed with it, unless moved out into the parent; a signal
// removes the names it is told of. Throws InputError when it cannot be made.
class TemporaryFolder {
public:
    TemporaryFolder(int parent, const std::string& stem, const std::vector<std::string>& names);
    ~TemporaryFolder();
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    int descriptor() const { return folder_.get(); }
    std::string name() const { return own_.name; }
    bool move_out(const std::string& name) const;  // into the parent, replacing what is there; false on failure

private:
    OwnFolder own_;
    Descriptor folder_;
    std::vector<std::string> names_;
    std::vector<int> name_slots_;
};

// Runs `program` (a path) with `arguments` in the opened `folder`, standard input /dev/null, standard output and
// error read into `output` (its last 64 KiB); returns its wait status, or -1 with errno where it could not run. A stopping signal meanwhile
// ends it (SIGKILL) before the run's files are removed, so that it writes none after them.
int run_in_folder(int folder, const std::string& program, const std::vector<std::string>& arguments,
                  std::string& output);

}  // namespace bsde
