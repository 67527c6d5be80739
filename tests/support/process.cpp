#include "tests/support/process.h"

#include "tests/support/corpus.h"
#include "tests/support/test_kind.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <random>
#include <sstream>
#include <stdexcept>

namespace mapindex::testing {
namespace {

pid_t spawn(const std::string& program, const std::vector<std::string>& args,
            const std::filesystem::path& in, const std::filesystem::path& out,
            const std::filesystem::path& err) {
  require_processes_allowed(program);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int fd_in = ::open(in.c_str(), O_RDONLY);
    const int fd_out = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fd_err = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd_in < 0 || fd_out < 0 || fd_err < 0) ::_exit(127);
    ::dup2(fd_in, 0);
    ::dup2(fd_out, 1);
    ::dup2(fd_err, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::filesystem::path unique_log_dir() {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() /
             ("mapindex-proc-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::filesystem::path& stdin_file) {
  const auto dir = unique_log_dir();
  const pid_t pid = spawn(program, args, stdin_file, dir / "out", dir / "err");
  ProcessResult r;
  r.exit_code = wait_status(pid);
  r.out = read_text_file(dir / "out");
  r.err = read_text_file(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

BackgroundProcess::BackgroundProcess(const std::string& program,
                                     const std::vector<std::string>& args,
                                     const std::filesystem::path& log_dir)
    : out_(log_dir / "bg.out"), err_(log_dir / "bg.err") {
  pid_ = spawn(program, args, "/dev/null", out_, err_);
}

BackgroundProcess::~BackgroundProcess() {
  if (!waited_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait_status(pid_);
  }
}

void BackgroundProcess::signal(int sig) { ::kill(pid_, sig); }

std::string BackgroundProcess::err_so_far() const { return read_text_file(err_); }

ProcessResult BackgroundProcess::wait() {
  ProcessResult r;
  r.exit_code = wait_status(pid_);
  waited_ = true;
  r.out = read_text_file(out_);
  r.err = read_text_file(err_);
  return r;
}

std::string mapindex_binary() { return MAPINDEX_BINARY_FOR_FIXTURES; }

ProcessResult run_mapindex(const std::vector<std::string>& args,
                           const std::filesystem::path& stdin_file) {
  return run_process(mapindex_binary(), args, stdin_file);
}

ProcessResult index_archive(const std::filesystem::path& db, const std::filesystem::path& input,
                            const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"index", "--db", db.string(), "--progress", "none", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(input.string());
  return run_mapindex(args);
}
std::string make_demo_binary() { return MAPINDEX_MAKE_DEMO_FOR_FIXTURES; }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::size_t count_lines_containing(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (const auto& l : lines_of(text)) n += contains(l, part);
  return n;
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  return false;
}

}  // namespace mapindex::testing
