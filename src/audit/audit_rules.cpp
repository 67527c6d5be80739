#include "audit/audit_rules.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace mapindex::audit {
namespace {

std::string quoted(std::string_view text) {
  // Built by appending: GCC 12 at -O3 reports a false -Wrestrict for "'" + std::string(text).
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  return out;
}

std::string index_list(const std::vector<std::int32_t>& indices) {
  std::string text;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (i > 0) text += i + 1 == indices.size() ? " and " : ", ";
    text += std::to_string(indices[i]);
  }
  return text;
}

// "image 3 'foo'" or "images 3 and 5 'foo'" (several images with one name).
std::string images_named(const std::vector<std::int32_t>& indices, std::string_view name) {
  return (indices.size() == 1 ? "image " : "images ") + index_list(indices) + " " + quoted(name);
}

std::string is_are(const std::vector<std::int32_t>& indices) {
  return indices.size() == 1 ? " is" : " are";
}

// Where a finding is: the entry's path and its map.
struct Where {
  const std::string& path;
  std::optional<std::int64_t> map_id;
};

// A finding of the release check `rule`, with the rule's severity from the
// code table.
Finding map_finding(const Where& where, Code rule, std::string subject, std::string message) {
  Finding f;
  f.rule = std::string(to_string(rule));
  f.severity = severity_of(rule);
  f.path = where.path;
  f.map_id = where.map_id;
  f.subject = std::move(subject);
  f.message = std::move(message);
  return f;
}

std::string rejection_message(const MapFacts& facts) {
  std::vector<std::string> codes;
  const ProblemRef* first = nullptr;
  for (const auto& p : facts.problems) {
    if (p.severity != Severity::error) continue;
    if (!first) first = &p;
    if (std::find(codes.begin(), codes.end(), p.code) == codes.end()) codes.push_back(p.code);
  }
  std::string message = facts.game == Game::ddnet ? "DDNet would refuse it"
                                                  : "neither Teeworlds 0.6 nor 0.7 would load it";
  if (codes.empty()) return message;
  message += " (";
  for (std::size_t i = 0; i < codes.size(); ++i) message += (i ? ", " : "") + codes[i];
  message += "): " + first->message;
  return message;
}

// The image rules of one map: one finding per rule and image name.
void image_findings(const Where& entry, const MapFacts& facts, std::vector<Finding>& out) {
  std::map<std::string, std::vector<std::int32_t>> by_name, unused, embedded_standard,
      external_nonstandard;
  std::map<std::string, std::int64_t> embedded_bytes;
  for (const auto& image : facts.images) {
    by_name[image.name].push_back(image.index);
    if (!image.used) unused[image.name].push_back(image.index);
    if (!image.external && image.standard_name) {
      embedded_standard[image.name].push_back(image.index);
      embedded_bytes[image.name] += std::max<std::int64_t>(image.data_stored_size, 0);
    }
    if (image.external && !image.standard_name)
      external_nonstandard[image.name].push_back(image.index);
  }
  for (const auto& [name, indices] : by_name)
    if (indices.size() > 1)
      out.push_back(map_finding(entry, Code::image_duplicate, name,
                                images_named(indices, name) + " share one name"));
  for (const auto& [name, indices] : unused)
    out.push_back(map_finding(entry, Code::image_unused, name,
                              images_named(indices, name) + is_are(indices) + " used by no layer"));
  for (const auto& [name, indices] : embedded_standard)
    out.push_back(map_finding(entry, Code::image_embedded_standard, name,
                              images_named(indices, name) + is_are(indices) +
                                  " embedded, but the game has it as a standard external "
                                  "image: make it external to save " +
                                  std::to_string(embedded_bytes[name]) + " bytes"));
  for (const auto& [name, indices] : external_nonstandard)
    out.push_back(map_finding(entry, Code::image_external_nonstandard, name,
                              images_named(indices, name) + is_are(indices) +
                                  " external, but not one of the game's standard images: "
                                  "clients will not find it; embed it"));
}

void add_map_findings(const Where& where, const MapFacts& map, std::vector<Finding>& out) {
  if (map.status == MapStatus::rejected)
    out.push_back(map_finding(where, Code::map_rejected, "", rejection_message(map)));
  if (map.has_start && map.has_finish && !map.has_time_checkpoint)
    out.push_back(map_finding(where, Code::race_no_time_checkpoints, "",
                              "race map (START and FINISH tiles) without time checkpoints: "
                              "no tile 35..59 on the game or front layer"));
  image_findings(where, map, out);
}

bool by_path_rule_subject(const Finding& a, const Finding& b) {
  return std::tie(a.path, a.rule, a.subject) < std::tie(b.path, b.rule, b.subject);
}

}  // namespace

std::string normalised_name(std::string_view name) {
  std::string key;
  key.reserve(name.size());
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80)
      key += c;
    else if (byte >= 'A' && byte <= 'Z')
      key += static_cast<char>(byte - 'A' + 'a');
    else if ((byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9'))
      key += c;
  }
  return key;
}

std::vector<Finding> map_findings(const MapFacts& map, const std::string& path,
                                  std::optional<std::int64_t> map_id) {
  std::vector<Finding> out;
  add_map_findings({path, map_id}, map, out);
  std::sort(out.begin(), out.end(), by_path_rule_subject);
  return out;
}

MapFacts facts_of(const MapStats& stats, Game game) {
  MapFacts f;
  f.game = game;
  f.status = status_for(stats, game);
  for (const auto& p : stats.problems)
    f.problems.push_back({p.severity(), std::string(to_string(p.code)), p.message});
  for (const auto& i : stats.images)
    f.images.push_back({i.image_index, i.name, i.external, i.standard_name, i.width, i.height,
                        i.data_stored_size, !i.used_by.empty()});
  for (const auto& l : stats.layers) {
    if (l.kind != LayerKind::game && l.kind != LayerKind::front) continue;
    for (const auto& t : l.tile_counts) {
      if (t.count <= 0) continue;
      f.has_start = f.has_start || t.tile == 33;
      f.has_finish = f.has_finish || t.tile == 34;
      f.has_time_checkpoint = f.has_time_checkpoint || (t.tile >= 35 && t.tile <= 59);
    }
  }
  f.game_width = stats.game_width;
  f.game_height = stats.game_height;
  f.author = stats.author.value_or("");
  return f;
}

std::vector<Finding> evaluate_rules(const std::vector<SeenEntry>& entries,
                                    const MapFactsById& facts) {
  std::vector<Finding> out;
  // Normalised name -> the distinct names of map entries with it.
  std::map<std::string, std::set<std::string>> names_by_key;

  for (const auto& entry : entries) {
    if (entry.state.kind != index::EntryKind::map || !entry.state.map_id) continue;
    const auto found = facts.find(*entry.state.map_id);
    if (found == facts.end()) continue;
    add_map_findings({entry.state.path, entry.state.map_id}, found->second, out);

    const auto key = normalised_name(entry.name);
    if (!key.empty()) names_by_key[key].insert(entry.name);
  }

  for (const auto& entry : entries) {
    if (entry.state.kind != index::EntryKind::map || !entry.state.map_id) continue;
    if (facts.find(*entry.state.map_id) == facts.end()) continue;
    const auto key = normalised_name(entry.name);
    const auto group = names_by_key.find(key);
    if (key.empty() || group == names_by_key.end() || group->second.size() < 2) continue;
    std::string others;
    for (const auto& name : group->second) {
      if (name == entry.name) continue;
      others += (others.empty() ? "" : ", ") + quoted(name);
    }
    out.push_back(map_finding(
        {entry.state.path, entry.state.map_id}, Code::name_similar, key,
        "name " + quoted(entry.name) + " differs only by case or punctuation from " + others));
  }

  std::sort(out.begin(), out.end(), by_path_rule_subject);
  return out;
}

}  // namespace mapindex::audit
