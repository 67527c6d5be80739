#include "app/map_report.h"

#include <algorithm>
#include <iomanip>

#include "decode/datafile/datafile.h"

namespace mapindex {
namespace {

std::string opt(const std::optional<std::string>& s) { return s ? "\"" + *s + "\"" : "-"; }

// What the container of a Teeworlds map that did not open says of itself
// (measure_teeworlds reads nothing past a failed Datafile::open and leaves
// format_version 0, which no opened datafile has).
struct UnopenedContainer {
  std::optional<datafile::HeaderFields> header;  // none: shorter than the header
  std::optional<std::int64_t> described_size;    // when the file is cut short
};

std::optional<UnopenedContainer> unopened_container(const MapStats& s, Bytes file) {
  if (s.format != MapFormat::teeworlds || s.format_version != 0) return std::nullopt;
  UnopenedContainer c;
  c.header = datafile::read_header_fields(file);
  const bool h5 = std::any_of(s.problems.begin(), s.problems.end(),
                              [](const Problem& p) { return p.code == Code::H5; });
  if (c.header && h5 && c.header->described_size() > static_cast<std::int64_t>(file.size()))
    c.described_size = c.header->described_size();
  return c;
}

}  // namespace

void print_map_report(std::ostream& out, const std::string& name, const read::FileDigest& digest,
                      const Measurement& m, Bytes file,
                      const std::vector<audit::Finding>& release_checks) {
  out << name << "\n";
  out << "  sha256 " << digest.sha256_hex() << "  crc32 " << digest.crc32_hex() << "  size "
      << digest.size << "\n";
  if (m.kind == ContentKind::not_a_map) {
    out << "  not a map: " << m.not_map_reason << "\n\n";
    return;
  }
  const MapStats& s = m.stats;
  const auto unopened = unopened_container(s, file);
  out << "  format " << to_string(s.format);
  if (!unopened)
    out << " version " << s.format_version;
  else if (unopened->header)
    out << " version " << unopened->header->version;
  out << "  status " << to_string(s.status) << "\n";
  if (s.teeworlds)
    out << "  loads in Teeworlds 0.6: " << (s.teeworlds->loads_06 ? "yes" : "no")
        << ", 0.7: " << (s.teeworlds->loads_07 ? "yes" : "no")
        << "  (status for --game teeworlds: " << to_string(status_for(s, Game::teeworlds)) << ")\n";
  if (unopened) {
    // Nothing past the header was read: the header's counts, as it states them.
    if (const auto& h = unopened->header)
      out << "  container: " << (h->reversed_magic ? "ATAD" : "DATA") << ", " << h->num_items
          << " items, " << h->num_data << " data items (as the header says; it does not open)\n";
    if (unopened->described_size)
      out << "  cut short: " << file.size() << " of " << *unopened->described_size << " bytes\n";
  } else if (s.format == MapFormat::teeworlds) {
    out << "  container: " << (s.reversed_magic ? "ATAD" : "DATA")
        << (s.crude_header ? ", crude v4 header" : "") << ", " << s.num_items << " items, "
        << s.num_data << " data items";
    for (const auto& u : s.uuid_types) out << ", uuid " << u;
    out << "\n";
    out << "  info: author " << opt(s.author) << ", version " << opt(s.map_version) << ", credits "
        << opt(s.credits) << ", license " << opt(s.license) << ", " << s.settings.size()
        << " settings\n";
    out << "  game layer " << s.game_width << "x" << s.game_height << ", " << s.groups.size()
        << " groups, " << s.layers.size() << " layers, " << s.images.size() << " images, "
        << s.envelopes.size() << " envelopes (" << s.num_envelope_points << " points), "
        << s.sounds.size() << " sounds\n";
  } else {
    out << "  " << s.layers.size() << " layers, " << s.tiles_per_set << " tiles per set\n";
  }
  for (const auto& l : s.layers) {
    out << "  layer " << std::setw(3) << l.layer_index << "  group " << std::setw(2)
        << l.group_index << "  " << std::left << std::setw(10) << to_string(l.kind) << std::right
        << " " << l.width << "x" << l.height << "  non-empty " << l.non_empty;
    if (!l.name.empty()) out << "  \"" << l.name << "\"";
    if (!l.entities.empty()) {
      out << "  entities:";
      for (const auto& e : l.entities) out << " " << e.name << "=" << e.count;
    }
    out << "\n";
  }
  if (!s.ddnet_features.empty()) {
    out << "  ddnet features:";
    for (const auto& f : s.ddnet_features) out << " " << f;
    out << "\n";
  }
  // Errors and warnings in the order found, then the info findings (they
  // cannot break the map), with how many there are.
  std::size_t infos = 0;
  for (const bool info_pass : {false, true})
    for (const auto& p : s.problems) {
      if ((p.severity() == Severity::info) != info_pass) continue;
      if (info_pass && infos++ == 0)
        out << "  info findings ("
            << std::count_if(s.problems.begin(), s.problems.end(),
                             [](const Problem& q) { return q.severity() == Severity::info; })
            << ", harmless in the game):\n";
      out << "  " << to_string(p.severity()) << " " << to_string(p.code) << " "
          << info(p.code).title;
      if (const std::string where = to_string(p.location); !where.empty())
        out << " (" << where << ")";
      out << ": " << p.message << "\n";
    }
  if (m.kind == ContentKind::map) print_release_checks(out, release_checks);
  out << "\n";
}

void print_release_checks(std::ostream& out, const std::vector<audit::Finding>& findings) {
  out << "  release checks of `mapindex audit` (" << findings.size()
      << (findings.empty() ? ": none" : "")
      << "; name.similar compares the names of an archive's maps: only the audit runs it)"
      << (findings.empty() ? "\n" : ":\n");
  for (const auto& f : findings)
    out << "  " << to_string(f.severity) << " " << titled_code(f.rule, f.severity) << ": "
        << f.message << "\n";
}

void write_release_checks_json(JsonWriter& json, const std::vector<audit::Finding>& findings) {
  json.key("release_checks").begin_array();
  for (const auto& f : findings)
    json.begin_object()
        .field("rule", f.rule)
        .field("title", code_title(f.rule, f.severity))
        .field("severity", to_string(f.severity))
        .field("subject", f.subject)
        .field("message", f.message)
        .end_object();
  json.end_array();
}

}  // namespace mapindex

namespace mapindex {

namespace {

// "format_version" and "status": of an unopened container, its header's version.
void write_format_json(JsonWriter& json, const MapStats& s,
                       const std::optional<UnopenedContainer>& unopened) {
  const auto& header = unopened ? unopened->header : std::nullopt;
  json.field("kind", "map").field("format", to_string(s.format)).key("format_version");
  if (!unopened)
    json.value(s.format_version);
  else if (header)
    json.value(header->version);
  else
    json.null();
  json.field("status", to_string(s.status));
  if (s.teeworlds)
    json.field("loads_teeworlds_06", s.teeworlds->loads_06)
        .field("loads_teeworlds_07", s.teeworlds->loads_07)
        .field("teeworlds_status", to_string(status_for(s, Game::teeworlds)));
}

// "container": as opened, or as an unopened container's header states it.
void write_container_json(JsonWriter& json, const MapStats& s,
                          const std::optional<UnopenedContainer>& unopened, Bytes file) {
  const auto& header = unopened ? unopened->header : std::nullopt;
  json.key("container").begin_object();
  const bool reversed = header ? header->reversed_magic : s.reversed_magic;
  json.field("magic", s.format == MapFormat::teeworlds ? (reversed ? "ATAD" : "DATA") : "")
      .field("opened", !unopened)
      .field("crude_header", s.crude_header);
  if (!unopened)
    json.field("items", s.num_items).field("data_items", s.num_data);
  else if (header)
    json.field("items", header->num_items).field("data_items", header->num_data);
  else
    json.key("items").null().key("data_items").null();
  json.key("cut_short");
  if (unopened && unopened->described_size)
    json.begin_object()
        .field("size", static_cast<std::int64_t>(file.size()))
        .field("described_size", *unopened->described_size)
        .end_object();
  else
    json.null();
  json.key("uuid_types").begin_array();
  for (const auto& u : s.uuid_types) json.value(u);
  json.end_array().end_object();
}

void write_info_json(JsonWriter& json, const MapStats& s) {
  json.key("info").begin_object();
  json.field("author", s.author)
      .field("version", s.map_version)
      .field("credits", s.credits)
      .field("license", s.license);
  json.key("settings").begin_array();
  for (const auto& setting : s.settings) json.value(setting);
  json.end_array().end_object();
}

void write_groups_json(JsonWriter& json, const MapStats& s) {
  json.key("groups").begin_array();
  for (const auto& g : s.groups) {
    json.begin_object()
        .field("index", g.group_index)
        .field("name", g.name)
        .field("game_group", g.game_group)
        .field("start_layer", g.start_layer)
        .field("num_layers", g.num_layers)
        .end_object();
  }
  json.end_array();
}

void write_layers_json(JsonWriter& json, const MapStats& s) {
  json.key("layers").begin_array();
  for (const auto& l : s.layers) {
    json.begin_object()
        .field("index", l.layer_index)
        .field("group", l.group_index)
        .field("kind", to_string(l.kind))
        .field("name", l.name)
        .field("width", l.width)
        .field("height", l.height)
        .field("non_empty", l.non_empty)
        .field("image", l.image)
        .field("detail", l.detail)
        .field("quads", l.num_quads)
        .field("sound_sources", l.num_sources);
    json.key("tile_counts").begin_array();
    for (const auto& t : l.tile_counts)
      json.begin_object().field("tile", t.tile).field("count", t.count).end_object();
    json.end_array();
    json.key("entities").begin_object();
    for (const auto& e : l.entities) json.field(e.name, e.count);
    json.end_object();
    json.key("numbers").begin_array();
    for (const auto n : l.numbers) json.value(n);
    json.end_array().end_object();
  }
  json.end_array();
}

// "images", "envelopes" and "sounds".
void write_resources_json(JsonWriter& json, const MapStats& s) {
  json.key("images").begin_array();
  for (const auto& i : s.images) {
    json.begin_object()
        .field("index", i.image_index)
        .field("name", i.name)
        .field("width", i.width)
        .field("height", i.height)
        .field("external", i.external)
        .field("rgba", i.rgba)
        .field("data_size", i.data_size)
        .end_object();
  }
  json.end_array();
  json.key("envelopes").begin_array();
  for (const auto& e : s.envelopes) {
    json.begin_object()
        .field("index", e.envelope_index)
        .field("name", e.name)
        .field("kind", to_string(e.kind))
        .field("channels", e.channels)
        .field("synchronized", e.synchronized)
        .field("points", e.num_points)
        .end_object();
  }
  json.end_array();
  json.key("sounds").begin_array();
  for (const auto& sound : s.sounds) {
    json.begin_object()
        .field("index", sound.sound_index)
        .field("name", sound.name)
        .field("external", sound.external)
        .field("data_size", sound.data_size)
        .end_object();
  }
  json.end_array();
}

void write_problems_json(JsonWriter& json, const MapStats& s) {
  json.key("problems").begin_array();
  for (const auto& p : s.problems) {
    json.begin_object()
        .field("severity", to_string(p.severity()))
        .field("code", to_string(p.code))
        .field("title", info(p.code).title)
        .field("location", to_string(p.location))
        .field("message", p.message)
        .end_object();
  }
  json.end_array();
}

}  // namespace

void write_map_json(JsonWriter& json, const read::FileDigest& digest, const Measurement& m,
                    Bytes file) {
  json.field("sha256", digest.sha256_hex())
      .field("crc32", digest.crc32_hex())
      .field("size", static_cast<std::int64_t>(digest.size));
  if (m.kind == ContentKind::not_a_map) {
    json.field("kind", "not_a_map").field("not_map_reason", m.not_map_reason);
    return;
  }
  const MapStats& s = m.stats;
  const auto unopened = unopened_container(s, file);
  write_format_json(json, s, unopened);
  write_container_json(json, s, unopened, file);
  write_info_json(json, s);
  json.field("game_width", s.game_width)
      .field("game_height", s.game_height)
      .field("tiles_per_set", s.tiles_per_set);
  write_groups_json(json, s);
  write_layers_json(json, s);
  write_resources_json(json, s);
  json.key("ddnet_features").begin_array();
  for (const auto& f : s.ddnet_features) json.value(f);
  json.end_array();
  write_problems_json(json, s);
}

}  // namespace mapindex
