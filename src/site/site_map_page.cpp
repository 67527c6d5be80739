// map_page() of site_html.h: a map content's page, one function per section.
#include <algorithm>
#include <map>

#include "audit/render_util.h"
#include "common/problem_codes.h"
#include "site/site_html.h"
#include "site/site_html_parts.h"

namespace mapindex::site {
namespace {

using audit::detail::human_bytes;
using namespace detail;

std::string table_html(const Table& t, std::string_view empty = "None.") {
  if (t.rows.empty()) return "<p class=\"none\">" + std::string(empty) + "</p>\n";
  std::string out = "<div class=\"scroll\"><table><thead><tr>";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const bool number = !t.rows.empty() && t.rows.front()[c].number;
    out += std::string(number ? "<th class=\"n\">" : "<th>") + h(t.columns[c]) + "</th>";
  }
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& cell : row)
      out += std::string(cell.number ? "<td class=\"n\">" : "<td>") + h(cell.text) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

// The tiles table with a bar per row (relative to the largest count of its layer kind).
std::string tiles_html(const Table& t) {
  if (t.rows.empty()) return "<p class=\"none\">No tiles (or no physics layer).</p>\n";
  std::map<std::string, double> largest;
  for (const auto& r : t.rows)
    largest[r[0].text] = std::max(largest[r[0].text], std::stod(r[3].text));
  std::string out =
      "<div class=\"scroll\"><table class=\"tiles\"><thead><tr><th>layer</th><th "
      "class=\"n\">tile</th><th>name</th><th class=\"n\">count</th><th></th></tr></thead><tbody>\n";
  for (const auto& r : t.rows) {
    const int width = static_cast<int>(100.0 * std::stod(r[3].text) / largest[r[0].text] + 0.5);
    out += "<tr><td>" + h(r[0].text) + "</td><td class=\"n\">" + h(r[1].text) + "</td><td>" +
           (r[2].text.empty() ? "<span class=\"none\">unknown</span>" : code(r[2].text)) +
           "</td><td class=\"n\">" + h(r[3].text) +
           "</td><td><span class=\"bar\" style=\"width:" + std::to_string(std::max(1, width)) +
           "px\"></span></td></tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

std::string change(std::string_view label, std::int64_t from, std::int64_t to, bool bytes = false) {
  if (from == to) return "";
  const auto show = [&](std::int64_t v) { return bytes ? human_bytes(v) : std::to_string(v); };
  return std::string(label) + " " + show(from) + " → " + show(to);
}

// What differs from this content to `other`: "game 90 x 95 → 100 x 95, layers 12 → 14".
std::string changes(const Counts& self, const Counts& other) {
  std::vector<std::string> parts;
  if (self.game_width != other.game_width || self.game_height != other.game_height)
    parts.push_back("game " + game_size(self.game_width, self.game_height) + " → " +
                    game_size(other.game_width, other.game_height));
  for (auto part :
       {change("layers", self.layers, other.layers), change("images", self.images, other.images),
        change("envelopes", self.envelopes, other.envelopes),
        change("sounds", self.sounds, other.sounds), change("quads", self.quads, other.quads),
        change("errors", self.errors, other.errors),
        change("warnings", self.warnings, other.warnings),
        change("size", self.size, other.size, true)})
    if (!part.empty()) parts.push_back(std::move(part));
  if (parts.empty()) return "the same counts";
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

std::string loads(const std::optional<bool>& v) {
  return !v ? "not a Teeworlds map" : *v ? "loads" : "refuses it";
}

// Navigation, name, SHA-256 and DDNet's verdict.
std::string top_section(const MapPage& p, const std::string& name, const std::string& title) {
  std::string o = "<nav class=\"top\"><a href=\"../index.html\">" + h(title) +
                  "</a> · <a href=\"../problems.html\">Problems by code</a></nav>\n";
  o += "<h1>" + h(name) + "</h1>\n<p class=\"note\">SHA-256 " + code(p.sha256) + "</p>\n";
  const std::size_t problems = static_cast<std::size_t>(p.counts.errors + p.counts.warnings);
  o += "<p class=\"verdict " + status_class(p.status) + "\">DDNet: " + h(p.status);
  if (problems > 0)
    o += " (" + std::to_string(p.counts.errors) + " errors, " + std::to_string(p.counts.warnings) +
         " warnings)";
  return o + "</p>\n";
}

// The minimaps drawn from the map file, else the stored thumbnail, else why
// there is no picture.
std::string minimap_section(const MapPage& p, const std::string& name, const MinimapInfo& minimap) {
  std::string o = "<section class=\"minimap\"><h2>Minimap</h2>\n";
  if (minimap.drawn) {
    // Shown at least twice its size when small (pixelated), never wider than the page.
    const int longest = std::max(minimap.width, minimap.height);
    const int k = std::max(1, std::min(4, 720 / std::max(1, longest)));
    const auto img = [&](bool physics, std::string_view caption) {
      return "<figure><img class=\"map\" src=\"../" + minimap_path(p.sha256, physics) +
             "\" width=\"" + std::to_string(minimap.width * k) + "\" height=\"" +
             std::to_string(minimap.height * k) + "\" alt=\"" + h(name) + ", " +
             std::string(caption) + "\"><figcaption>" + std::string(caption) +
             "</figcaption></figure>";
    };
    o += "<div class=\"pair\">" + img(false, "all layers");
    if (minimap.has_physics) o += img(true, "physics layers only");
    o += "</div>\n<p class=\"note\">" +
         (minimap.factor > 1 ? "One pixel per " + std::to_string(minimap.factor) + " x " +
                                   std::to_string(minimap.factor) + " tiles"
                             : std::string("One pixel per tile")) +
         ", drawn from the map file.</p>\n";
  } else if (p.thumb_width > 0) {
    const int k =
        std::max(1, std::min(4, 720 / static_cast<int>(std::max(p.thumb_width, p.thumb_height))));
    o += "<figure><img class=\"map\" src=\"../" + thumbnail_path(p.sha256) + "\" width=\"" +
         std::to_string(p.thumb_width * k) + "\" height=\"" + std::to_string(p.thumb_height * k) +
         "\" alt=\"" + h(name) +
         "\"><figcaption>physics layers, the stored thumbnail"
         "</figcaption></figure>\n<p class=\"note\">The thumbnail stored in the index: the map "
         "file itself could not be read (" +
         h(minimap.why_not) + ").</p>\n";
  } else {
    o += "<p class=\"none\">No picture: the map has nothing to draw";
    if (!minimap.why_not.empty()) o += " (" + h(minimap.why_not) + ")";
    o += ".</p>\n";
  }
  return o + "</section>\n";
}

// The map's counts, info items and DDNet features, then its settings.
std::string info_section(const MapPage& p) {
  std::string o = "<section class=\"info\"><h2>Info</h2>\n<table class=\"kv\"><tbody>\n";
  const auto kv = [&](std::string_view k, const std::string& v) {
    o += "<tr><th>" + std::string(k) + "</th><td>" + v + "</td></tr>\n";
  };
  kv("format", h(p.format) + (p.format_version.empty() ? "" : " " + h(p.format_version)));
  kv("size", h(human_bytes(p.counts.size)) + " (" + std::to_string(p.counts.size) + " bytes)");
  kv("game layer", game_size(p.counts.game_width, p.counts.game_height));
  kv("layers", std::to_string(p.counts.layers));
  kv("images", std::to_string(p.counts.images));
  kv("envelopes", std::to_string(p.counts.envelopes));
  kv("sounds", std::to_string(p.counts.sounds));
  kv("quads", std::to_string(p.counts.quads));
  for (const auto& [k, v] : p.info) kv(k, h(v));
  std::string features;
  for (const auto& f : p.features)
    features += "<span class=\"f\" title=\"" + h(f) + "\">" + h(feature_label(f)) + "</span>";
  kv("DDNet features", features.empty() ? "<span class=\"none\">none</span>" : features);
  o += "</tbody></table>\n<h3>Settings</h3>\n";
  if (p.settings.empty()) {
    o += "<p class=\"none\">None.</p>\n";
  } else {
    o += "<ul class=\"settings\">";
    for (const auto& s : p.settings) o += "<li>" + code(s) + "</li>";
    o += "</ul>\n";
  }
  return o + "</section>\n";
}

// What each game makes of the map.
std::string games_section(const MapPage& p) {
  std::string o = "<section class=\"verdicts\"><h2>Games</h2>\n<table><tbody>\n";
  o += "<tr><th>DDNet</th><td><span class=\"st " + status_class(p.status) + "\">" + h(p.status) +
       "</span></td></tr>\n";
  o += "<tr><th>Teeworlds 0.6</th><td>" + loads(p.loads_06) + "</td></tr>\n";
  o += "<tr><th>Teeworlds 0.7</th><td>" + loads(p.loads_07) + "</td></tr>\n";
  o += "<tr><th>--game teeworlds</th><td>" + h(p.teeworlds_status) + "</td></tr>\n";
  return o + "</tbody></table></section>\n";
}

// Every problem with its code's title and meaning.
std::string problems_section(const MapPage& p) {
  std::string o =
      "<section class=\"problems\"><h2>Problems (" + std::to_string(p.problems.size()) + ")</h2>\n";
  if (p.problems.empty()) {
    o += "<p class=\"none\">None.</p>\n";
  } else {
    o += "<div class=\"scroll\"><table><thead><tr><th>severity</th><th>code</th><th>where</th>"
         "<th>what</th><th>meaning</th></tr></thead><tbody>\n";
    for (const auto& r : p.problems) {
      const auto* info = find_code(r.code, severity_of(r.severity));
      o += "<tr><td class=\"sev-" + h(r.severity) + "\">" + h(r.severity) + "</td><td>" +
           titled(r.code, severity_of(r.severity)) + "</td><td>" + h(r.location) + "</td><td>" +
           h(r.message) + "</td><td>" + (info ? h(info->meaning) : "") + "</td></tr>\n";
    }
    o += "</tbody></table></div>\n";
  }
  return o + "</section>\n";
}

// The map's own tables: layers, tiles, entities, images, envelopes, sounds.
std::string content_sections(const MapPage& p) {
  const auto counted = [](std::string_view cls, std::string_view heading, const Table& t) {
    return "<section class=\"" + std::string(cls) + "\"><h2>" + std::string(heading) + " (" +
           std::to_string(t.rows.size()) + ")</h2>\n" + table_html(t) + "</section>\n";
  };
  return counted("layers", "Layers", p.layers) +
         "<section class=\"tiles\"><h2>Tiles of the physics layers</h2>\n" + tiles_html(p.tiles) +
         "</section>\n" + "<section class=\"entities\"><h2>Entities</h2>\n" +
         table_html(p.entities) + "</section>\n" + counted("images", "Images", p.images) +
         counted("envelopes", "Envelopes", p.envelopes) + counted("sounds", "Sounds", p.sounds);
}

// Every entry of a source that holds or held this content.
std::string sightings_section(const MapPage& p) {
  std::string o =
      "<section class=\"entries\"><h2>Where it is or was</h2>\n<div class=\"scroll\"><table>"
      "<thead><tr><th>source</th><th>entry</th><th>first seen</th><th>now</th></tr></thead>"
      "<tbody>\n";
  for (const auto& s : p.sightings)
    o += "<tr><td>" + h(s.source) + "</td><td>" + code(s.entry_path) + "</td><td>" +
         h(s.first_seen) + "</td><td>" +
         (s.current ? std::string("there") : "gone (last seen " + h(s.last_seen) + ")") +
         "</td></tr>\n";
  return o + "</tbody></table></div></section>\n";
}

// The other contents seen under the same name, each with what changed.
std::string versions_section(const MapPage& p) {
  std::string o = "<section class=\"versions\"><h2>Other versions under the same name (" +
                  std::to_string(p.versions.size()) + ")</h2>\n";
  if (p.versions.empty()) {
    o += "<p class=\"none\">None seen.</p>\n";
  } else {
    o += "<div class=\"scroll\"><table><thead><tr><th>version</th><th>name</th><th>status</th>"
         "<th>first seen</th><th>from this one to it</th></tr></thead><tbody>\n";
    for (const auto& v : p.versions)
      o += "<tr><td><a href=\"" + h(v.sha256) + ".html\">" + code(v.sha256.substr(0, 12)) +
           "</a></td><td>" + h(v.name) + "</td><td><span class=\"st " + status_class(v.status) +
           "\">" + h(v.status) + "</span></td><td>" + h(v.first_seen) + "</td><td>" +
           h(changes(p.counts, v.counts)) + "</td></tr>\n";
    o += "</tbody></table></div>\n";
  }
  return o + "</section>\n";
}

}  // namespace

std::string map_page(const MapPage& p, const MinimapInfo& minimap, const std::string& title) {
  const std::string name = shown_name(p.name, p.sha256);
  return head(name + " · " + title) + top_section(p, name, title) +
         minimap_section(p, name, minimap) + info_section(p) + games_section(p) +
         problems_section(p) + content_sections(p) + sightings_section(p) + versions_section(p) +
         "</body>\n</html>\n";
}

}  // namespace mapindex::site
