// `mapindex render MAP [--out FILE.png] [--layers physics|all] [--scale N]`
// and `mapindex render --from-index SHA256|NAME [--db FILE] [--out FILE.png]`:
// a minimap of a map file, a SpriteTile level or an archive entry
// (ARCHIVE::path/in/archive.map: read::read_named_entry, drawn by draw_map of
// src/extract), or the thumbnail the index stored for a map.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>
#include <tuple>
#include <variant>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "extract/draw_map.h"
#include "index/entry_record.h"
#include "index/index_db.h"
#include "read/named_entry.h"
#include "render/png.h"
#include "sqlite/statement.h"

namespace mapindex {
namespace po = boost::program_options;
namespace {

// Not the user's fault: the map is read but cannot be drawn (exit 1), or
// the user's (exit 2).
struct Failure {
  int status;
  std::string message;
};

// At most this many stored names are suggested for a name with no thumbnail.
constexpr std::size_t kMaxSuggestions = 3;

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The fewest edits that turn `key` into some stretch of `text` (where the
// stretch starts and ends is free): 0 when `text` holds `key`.
std::size_t edits_to_a_part(std::string_view key, std::string_view text) {
  std::vector<std::size_t> row(text.size() + 1, 0);  // key[0..0) ends anywhere for free
  for (std::size_t i = 1; i <= key.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= text.size(); ++j) {
      const std::size_t above = row[j];
      row[j] =
          std::min({row[j] + 1, row[j - 1] + 1, diagonal + (key[i - 1] == text[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return *std::min_element(row.begin(), row.end());
}

// The names among `names` closest to `typed`, best first, at most
// kMaxSuggestions, case aside: those holding it or held by it, then those
// holding it but for a few edits (at most a quarter of its length, at least
// 1), the fewest edits and then the fewest extra characters first. Names
// carry prefixes (an archive's "2089195bfab1_BlmapChill"), so a name is
// compared part by part, not as a whole.
std::vector<std::string> closest_names(const std::string& typed,
                                       const std::vector<std::string>& names) {
  std::string key = lower(typed);
  if (key.size() > 4 && key.ends_with(".map")) key.resize(key.size() - 4);  // names have none
  const std::size_t max_edits = std::max<std::size_t>(1, key.size() / 4);
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> found;  // edits, extra, name
  for (const auto& name : names) {
    const std::string candidate = lower(name);
    const std::size_t extra = candidate.size() > key.size() ? candidate.size() - key.size()
                                                            : key.size() - candidate.size();
    if (key.find(candidate) != std::string::npos) {
      found.emplace_back(0, extra, name);
    } else if (const std::size_t d = edits_to_a_part(key, candidate); d <= max_edits) {
      found.emplace_back(d, extra, name);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> best;
  for (const auto& [edits, extra, name] : found) {
    if (best.size() == kMaxSuggestions) break;
    best.push_back(name);
  }
  return best;
}

// Why `key` has no stored thumbnail: the map is indexed without one, or no
// map has that SHA-256 or name (then the closest stored names, if any).
std::string no_thumbnail_reason(index::IndexDb& db, const std::string& key) {
  sqlite::Statement known(db.handle(),
                          "SELECT EXISTS (SELECT 1 FROM maps WHERE sha256 = lower(?1)) OR "
                          "EXISTS (SELECT 1 FROM map_names WHERE name = ?1)");
  known.bind_all(key);
  if (known.single_int().value_or(0) != 0)
    return "the map is in the index without one (indexed with --no-thumbnails, or it has "
           "nothing to draw)";
  // The start of a SHA-256: the contents it starts, then the closest names.
  std::vector<std::string> near;
  if (key.size() >= 4 && key.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos) {
    sqlite::Statement prefix(db.handle(),
                             "SELECT sha256 FROM map_thumbnails WHERE substr(sha256, 1, ?2) = "
                             "lower(?1) ORDER BY map_id DESC LIMIT ?3");
    prefix.bind_all(key, static_cast<std::int64_t>(key.size()),
                    static_cast<std::int64_t>(kMaxSuggestions));
    while (prefix.step()) near.push_back(prefix.column_text(0));
  }
  std::vector<std::string> names;
  sqlite::Statement all(db.handle(),
                        "SELECT DISTINCT name FROM map_thumbnails WHERE name IS NOT NULL");
  while (all.step()) names.push_back(all.column_text(0));
  for (auto& name : closest_names(key, names))
    if (near.size() < kMaxSuggestions) near.push_back(std::move(name));
  std::string reason = "no map of that SHA-256 or name";
  for (std::size_t i = 0; i < near.size(); ++i)
    reason += (i == 0 ? "; did you mean '" : "', '") + near[i];
  if (!near.empty()) reason += "'?";
  return reason;
}

// The thumbnail stored for a SHA-256 or a map name (the newest map of that
// name when several contents had it).
std::variant<std::pair<std::string, std::string>, Failure> stored_thumbnail(
    const std::string& db_path, const std::string& key) {
  std::error_code ec;
  if (!std::filesystem::exists(db_path, ec)) return Failure{kExitUsage, "no index at " + db_path};
  auto db = index::IndexDb::open(db_path, index::OpenMode::read_only);
  if (!db) return Failure{exit_status_for(db.error()), db.error().to_string()};
  sqlite::Statement select(db->handle(),
                           "SELECT name, png, sha256 FROM map_thumbnails "
                           "WHERE sha256 = lower(?1) OR name = ?1 ORDER BY map_id DESC");
  select.bind_all(key);
  if (!select.step())
    return Failure{kExitFindings,
                   db_path + ": no thumbnail for '" + key + "': " + no_thumbnail_reason(*db, key)};
  std::string name = select.column_text(0);
  std::string png(select.column_blob(1));
  const std::string sha256 = select.column_text(2);
  int more = 0;
  while (select.step()) ++more;
  if (more > 0)
    std::cerr << "mapindex render: " << more + 1 << " maps are named '" << key
              << "': writing the newest (" << sha256 << ")\n";
  if (name.empty()) name = sha256;
  return std::make_pair(name, png);
}

struct RenderCommandOptions {
  std::vector<std::string> maps;
  std::string out, layers = "physics", from_index, db = "mapindex.sqlite";
  std::int32_t scale = 1;
  unsigned max_map_mb = 64;
  bool quiet = false;
};

int fail(const Failure& f) {
  std::cerr << "mapindex render: " << f.message << "\n";
  return f.status;
}

// Writes the PNG to c.out and says so (the size read back from the PNG).
int write_png(const RenderCommandOptions& c, const std::vector<std::uint8_t>& png) {
  auto written = render::write_file(c.out, png);
  if (!written) return fail({kExitUsage, written.error().message});
  if (!c.quiet) {
    std::cout << "wrote " << c.out;
    if (const auto size = render::png_size(Bytes(png.data(), png.size())))
      std::cout << " (" << size->first << "x" << size->second << ")";
    std::cout << "\n";
  }
  return kExitOk;
}

// --from-index: the stored thumbnail, byte for byte.
int render_from_index(RenderCommandOptions& c, const po::variables_map& vm) {
  if (!c.maps.empty()) return fail({kExitUsage, "give either MAP or --from-index, not both"});
  if (vm.count("layers") && !vm["layers"].defaulted())
    return fail({kExitUsage, "--layers does not apply to --from-index (thumbnails are fixed)"});
  if (c.scale != 1)
    return fail({kExitUsage, "--scale does not apply to --from-index (thumbnails are fixed)"});
  auto found = stored_thumbnail(c.db, c.from_index);
  if (auto* f = std::get_if<Failure>(&found)) return fail(*f);
  const auto& [name, png] = std::get<std::pair<std::string, std::string>>(found);
  if (c.out.empty()) c.out = index::entry_name(name) + ".png";
  return write_png(c, std::vector<std::uint8_t>(png.begin(), png.end()));
}

// MAP: read, drawn and encoded.
int render_map(RenderCommandOptions& c) {
  if (c.maps.size() != 1)
    return fail({kExitUsage, c.maps.empty()
                                 ? "no MAP given (see mapindex render --help)"
                                 : "one MAP at a time, not " + std::to_string(c.maps.size())});
  const std::string& map = c.maps.front();
  auto bytes = read::read_named_entry(map, static_cast<std::uint64_t>(c.max_map_mb) << 20);
  if (!bytes) return fail({kExitUsage, bytes.error().message});
  auto drawn = draw_map(Bytes(bytes->data(), bytes->size()), c.layers == "all");
  if (!drawn) return fail({kExitFindings, map + ": " + drawn.error().message});
  if (drawn->tiles_per_pixel > 1)
    std::cerr << "mapindex render: " << map << ": over " << render::kMaxPixels
              << " pixels at one per tile: drawn at one pixel per " << drawn->tiles_per_pixel << "x"
              << drawn->tiles_per_pixel << " tiles\n";
  auto png = render::encode_png(drawn->image, c.scale);
  if (!png) {
    const bool size = png.error().code == Code::render_size;
    return fail({kExitUsage, map + ": " + png.error().message +
                                 (size ? "; use a smaller --scale" : std::string())});
  }
  if (c.out.empty()) {
    const auto sep = map.find("::");
    c.out = index::entry_name(sep == std::string::npos ? map : map.substr(sep + 2)) + ".png";
  }
  return write_png(c, *png);
}

}  // namespace

int render_command(const Args& args) {
  RenderCommandOptions c;
  po::options_description opts(
      "Usage: mapindex render [OPTIONS] MAP\n"
      "       mapindex render --from-index SHA256|NAME [--db FILE] [--out FILE.png]\n\n"
      "Draws a minimap of MAP as a PNG: one pixel (or NxN with --scale) per tile,\n"
      "each tile coloured by its class (air, solid, unhookable, death, freeze,\n"
      "deep freeze, start, finish, checkpoints, teleporters, speedups, switches,\n"
      "spawns, other entities). MAP is\n"
      "a .map file, a SpriteTile level (.bytes), or an entry of an archive written\n"
      "ARCHIVE::path/in/archive.map (read from the archive, nothing extracted).\n"
      "A SpriteTile level draws its colliders solid and its tiles by tile set. A\n"
      "map over 2^26 pixels is drawn downscaled (said on stderr).\n\n"
      "--from-index writes the thumbnail `mapindex index` stored for the map of\n"
      "that SHA-256 or name (the view map_thumbnails), byte for byte; a name\n"
      "with none gets the closest stored names suggested.\n\n"
      "On success it prints one line, `wrote FILE (WIDTHxHEIGHT)` (-q: nothing).\n\n"
      "The palette: " MAPINDEX_DOC_DIR "/docs/guide.md, \"Pictures\".\n\nOptions");
  opts.add_options()("help,h", "show this help")(
      "out,o", po::value(&c.out),
      "the PNG to write (default: the map's name with .png, in the current folder)")(
      "layers", po::value(&c.layers)->default_value(c.layers),
      "physics: the game, front, tele, speedup and switch layers; all: also the design tile "
      "layers, in grey under the physics")("from-index", po::value(&c.from_index),
                                           "write the stored thumbnail of this SHA-256 or name")(
      "db", po::value(&c.db)->default_value(c.db), "the index for --from-index")(
      "quiet,q", po::bool_switch(&c.quiet), "print nothing on success");
  add_number_option(opts, "scale", &c.scale, 1, 64, "pixels per tile side");
  add_number_option(opts, "max-map-size", &c.max_map_mb, 1u, 4096u,
                    "a MAP larger than this many MB is refused", "MB");
  const auto vm = parse_command_args("render", args, opts, &c.maps);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts
              << "\nExit status: 0 the PNG is written, 1 MAP is not a map or has nothing to\n"
                 "draw (no game layer), or the index has no thumbnail for it, 2 usage error\n"
                 "(MAP missing or unreadable, no such archive entry, a bad option, an image\n"
                 "over the limit at that --scale, the PNG cannot be written), 3 the index is\n"
                 "damaged or cannot be read.\n";
    return kExitOk;
  }
  if (c.layers != "physics" && c.layers != "all")
    return fail({kExitUsage, "--layers must be physics or all, not '" + c.layers + "'"});
  if (!c.from_index.empty()) return render_from_index(c, *vm);
  return render_map(c);
}

}  // namespace mapindex
