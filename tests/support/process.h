// Running the real `mapindex` binary from end-to-end tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>

namespace mapindex::testing {

struct ProcessResult {
  int exit_code = -1;  // exit status, or 128 + signal when killed
  std::string out, err;
};

// Runs `program args...`, with standard input from `stdin_file` (or
// /dev/null), and waits for it.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& stdin_file = "/dev/null");

// A process started in the background (output to files in `log_dir`).
class BackgroundProcess {
 public:
  BackgroundProcess(const std::string& program, const std::vector<std::string>& args,
                    const std::filesystem::path& log_dir);
  ~BackgroundProcess();  // kills it if still running
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig);
  // What it has written to its standard error so far.
  std::string err_so_far() const;
  ProcessResult wait();

 private:
  pid_t pid_ = -1;
  std::filesystem::path out_, err_;
  bool waited_ = false;
};

// The mapindex binary under test, and the demo archive generator.
std::string mapindex_binary();
std::string make_demo_binary();

// Runs the mapindex binary with `args` (standard input from `stdin_file`).
ProcessResult run_mapindex(const std::vector<std::string>& args,
                           const std::filesystem::path& stdin_file = "/dev/null");
// `mapindex index --db DB --progress none --quiet EXTRA... INPUT`.
ProcessResult index_archive(const std::filesystem::path& db, const std::filesystem::path& input,
                            const std::vector<std::string>& extra = {});

// Checks on a process's output: `part` occurs in `text`; `line` is one whole
// line of `text`.
bool contains(const std::string& text, const std::string& part);
bool has_line(const std::string& text, const std::string& line);
// The lines of `text`, and how many of them hold `part`.
std::vector<std::string> lines_of(const std::string& text);
std::size_t count_lines_containing(const std::string& text, const std::string& part);

}  // namespace mapindex::testing
