// mapindex-bench-time: runs a command and prints what it cost, measured from
// outside: wall time, user and system CPU time and peak resident set size of
// the child (wait4's rusage), as one line of key=value pairs on stderr (or
// appended to --out FILE). The child's own output is left alone.
//
//   mapindex-bench-time [--out FILE] -- COMMAND [ARG...]
//
// Exit status: the child's (128 + signal when it was killed).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

double seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc)
      out = argv[++i];
    else if (arg == "--") {
      ++i;
      break;
    } else
      break;
  }
  if (i >= argc) {
    std::fprintf(stderr, "usage: mapindex-bench-time [--out FILE] -- COMMAND [ARG...]\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("mapindex-bench-time: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[i], argv + i);
    std::fprintf(stderr, "mapindex-bench-time: cannot run %s: %s\n", argv[i], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::perror("mapindex-bench-time: wait4");
      return 2;
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  char line[256];
  // Microseconds: a re-run takes about 30 ms, where a millisecond is 3%.
  std::snprintf(line, sizeof line, "wall=%.6f user=%.6f sys=%.6f maxrss_kb=%ld status=%d\n", wall,
                seconds(usage.ru_utime), seconds(usage.ru_stime), usage.ru_maxrss, code);
  if (out.empty()) {
    std::fputs(line, stderr);
  } else if (FILE* f = std::fopen(out.c_str(), "a")) {
    std::fputs(line, f);
    std::fclose(f);
  } else {
    std::fprintf(stderr, "mapindex-bench-time: cannot write %s\n", out.c_str());
    return 2;
  }
  return code;
}
