// mapindex-bench-pack: packs the files of a folder (recursively, sorted by
// path) whose names end in a suffix into one zip or tar, streamed: how the
// benchmark turns the map corpus into archive inputs.
//
//   mapindex-bench-pack [--suffix .map] [--store] OUT.zip|OUT.tar FOLDER
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "benchmarks/archive_writer.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string suffix = ".map";
  bool store = false;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--suffix" && i + 1 < argc)
      suffix = argv[++i];
    else if (arg == "--store")
      store = true;
    else
      args.push_back(arg);
  }
  if (args.size() != 2) {
    std::fprintf(stderr,
                 "usage: mapindex-bench-pack [--suffix .map] [--store] OUT.zip|OUT.tar FOLDER\n");
    return 2;
  }
  try {
    const fs::path folder = args[1];
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(folder))
      if (e.is_regular_file() && e.path().string().ends_with(suffix)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    mapindex::bench::ArchiveWriter out(args[0], store);
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
      if (!in.good() && !in.eof())
        throw std::runtime_error(std::string("cannot read ") + f.string());
      out.add(fs::relative(f, folder).generic_string(), bytes);
    }
    out.close();
    std::printf("entries=%llu bytes=%llu\n", static_cast<unsigned long long>(out.members()),
                static_cast<unsigned long long>(out.bytes()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapindex-bench-pack: %s\n", e.what());
    return 1;
  }
  return 0;
}
