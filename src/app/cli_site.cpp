// `mapindex site [--db FILE] --out DIR [--title TEXT]`: the archive as it is
// now, as a static site (src/site).
#include <boost/program_options.hpp>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "index/index_db.h"
#include "site/site_build.h"

namespace mapindex {
namespace po = boost::program_options;

int site_command(const Args& args) {
  std::string db_path = "mapindex.sqlite", out, title = "Map archive";
  bool quiet = false;
  po::options_description opts(
      "Usage: mapindex site [--db FILE] --out DIR [--title TEXT]\n\n"
      "Writes a static site of the archive as it is now (the maps each source's latest\n"
      "complete run saw) into DIR, to open from the disk or copy to any web host:\n"
      "index.html lists every map entry (thumbnail, name, source and path, status with\n"
      "its worst problem, game layer size, layers, images, DDNet features, size, first\n"
      "and last seen), sortable and filterable in the page (index.html#q=TEXT&feature=\n"
      "TELE_GUN&status=rejected&sort=-size shares a view); maps/SHA256.html shows each\n"
      "map: larger minimaps (all layers and physics only, drawn from the map file read\n"
      "again from its source, or the stored thumbnail when the file is gone), info,\n"
      "settings, layers, tiles, entities, images, envelopes, sounds, problems, the\n"
      "games' verdicts, where it is or was, and its other versions; problems.html lists\n"
      "problems by code; maps.json has the list's data. Nothing is loaded from outside\n"
      "DIR. A re-run rewrites only the files whose content changed and removes the ones\n"
      "no page needs any more (DIR/.mapindex-site lists what the site wrote); it never\n"
      "replaces a file it did not write.\n\n"
      "Documentation: " MAPINDEX_DOC_DIR "/docs/guide.md\n\nOptions");
  opts.add_options()("help,h", "show this help")("db", po::value(&db_path)->default_value(db_path),
                                                 "the SQLite index to read")(
      "out,o", po::value(&out), "the site's folder (made when missing)")(
      "title", po::value(&title)->default_value(title), "the site's title")(
      "quiet,q", po::bool_switch(&quiet), "print nothing but errors");
  const auto parsed = parse_command_args("site", args, opts);
  if (!parsed) return kExitUsage;
  if (parsed->count("help")) {
    std::cout << opts
              << "\nExit status: 0 written, 2 usage error, no index at --db, or DIR cannot be\n"
                 "written (or holds files the site did not write), 3 the index is damaged or\n"
                 "cannot be read.\n";
    return kExitOk;
  }
  if (out.empty()) {
    std::cerr << "mapindex site: --out DIR is required (see mapindex site --help)\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (!std::filesystem::exists(db_path, ec)) {
    std::cerr << "mapindex site: no index at " << db_path << " (mapindex index --db " << db_path
              << " INPUT... makes one)\n";
    return kExitUsage;
  }
  const auto start = std::chrono::steady_clock::now();
  auto db = index::IndexDb::open(db_path, index::OpenMode::read_only);
  if (!db) {
    std::cerr << "mapindex site: " << db.error().message << "\n";
    return exit_status_for(db.error());
  }
  site::SiteOptions options;
  options.out_dir = out;
  options.title = title;
  const auto stats = site::build_site(db->handle(), options);
  if (!stats) {
    std::cerr << "mapindex site: " << stats.error().message << "\n";
    return kExitUsage;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!quiet) {
    std::cout << "mapindex site: " << out << ": " << stats->entries << " map entries, "
              << stats->map_pages << " map pages; " << stats->written << " of " << stats->files
              << " files written, " << stats->removed << " removed";
    if (stats->minimaps_drawn > 0) std::cout << "; " << stats->minimaps_drawn << " maps drawn";
    if (stats->minimaps_missing > 0)
      std::cout << "; " << stats->minimaps_missing
                << " without a minimap (not at their source, or nothing to draw)";
    std::cout << " (" << std::fixed << std::setprecision(2) << seconds << " s)\n";
    std::cout << "  open:     " << (std::filesystem::path(out) / "index.html").string() << "\n";
  }
  return kExitOk;
}

}  // namespace mapindex
