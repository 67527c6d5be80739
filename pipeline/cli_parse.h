// Parsing a subcommand's arguments with Boost.Program_options, the same way
// for every command: options, then positional arguments, and a usage error
// that names the command.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

#include "pipeline/commands.h"

namespace mapindex {

// Parses `args` against `options`. Positional arguments go to `positional`
// (none are accepted when it is null). On a usage error prints
// "mapindex COMMAND: <what> (see mapindex COMMAND --help)" and returns
// nullopt: the caller exits with kExitUsage.
std::optional<boost::program_options::variables_map> parse_command_args(
    const std::string& command, const Args& args,
    const boost::program_options::options_description& options,
    std::vector<std::string>* positional = nullptr);

}  // namespace mapindex
