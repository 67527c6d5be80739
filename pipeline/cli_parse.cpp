#include "pipeline/cli_parse.h"

#include <iostream>

namespace mapindex {
namespace po = boost::program_options;

std::optional<po::variables_map> parse_command_args(const std::string& command, const Args& args,
                                                    const po::options_description& options,
                                                    std::vector<std::string>* positional) {
  po::options_description all;
  all.add(options);
  po::positional_options_description pos;
  if (positional) {
    all.add_options()("positional-args", po::value(positional));
    pos.add("positional-args", -1);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "mapindex " << command << ": " << e.what() << " (see mapindex " << command
              << " --help)\n";
    return std::nullopt;
  }
  return vm;
}

}  // namespace mapindex
