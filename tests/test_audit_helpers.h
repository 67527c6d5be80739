// Helpers for the audit tests (TEST_SUITE "audit"): an index written run by
// run with IndexDb and hand-made MapStats, and a small strict JSON parser to
// check the JSON report's structure independently of the writer.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "audit/build_audit.h"
#include "common/hex.h"
#include "common/sha256.h"
#include "extract/map_stats.h"
#include "index/index_db.h"
#include "tests/support/archive_builder.h"

namespace mapindex::audit::testing {

// A distinct valid SHA-256 (64 lowercase hex digits) per content number.
inline std::string content_sha(int content) {
  std::string sha(64, '0');
  std::uint64_t x = static_cast<std::uint64_t>(content) * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  for (std::size_t i = 0; i < 64; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sha[i] = hex_digit(static_cast<unsigned>(x));
  }
  return sha;
}

// The digest whose text is content_sha(content).
inline Sha256 content_digest(int content) { return *sha256_from_hex(content_sha(content)); }

inline Problem error(Code code, std::string message = "") {
  REQUIRE(severity_of(code) == Severity::error);
  if (message.empty()) message = "error " + std::string(to_string(code));
  return {code, std::move(message), Location::file()};
}
inline Problem warning(Code code, std::string message = "") {
  REQUIRE(severity_of(code) == Severity::warning);
  if (message.empty()) message = "warning " + std::string(to_string(code));
  return {code, std::move(message), Location::file()};
}

// A Teeworlds map with the given problems (status follows from them) and a
// game layer with the given tile counts.
inline MapStats map_stats(std::vector<Problem> problems = {},
                          std::vector<TileCount> game_tiles = {{1, 100}}) {
  MapStats s;
  s.format = MapFormat::teeworlds;
  s.format_version = 4;
  s.game_width = 50;
  s.game_height = 50;
  LayerStats game;
  game.layer_index = 0;
  game.group_index = 0;
  game.kind = LayerKind::game;
  game.item_type = 2;
  game.version = 3;
  game.name = "Game";
  game.width = 50;
  game.height = 50;
  game.tile_counts = std::move(game_tiles);
  for (const auto& t : game.tile_counts) game.non_empty += t.count;
  s.layers.push_back(game);
  s.problems = std::move(problems);
  finalize_status(s);
  return s;
}

// An info finding (it cannot break the map: the map stays ok).
inline Problem info_problem(Code code, std::string message = "") {
  REQUIRE(severity_of(code) == Severity::info);
  if (message.empty()) message = "info " + std::string(to_string(code));
  return {code, std::move(message), Location::file()};
}

inline MapStats ok_map() { return map_stats(); }
inline MapStats warning_map(Code code = Code::layer_ungrouped) {
  return map_stats({warning(code)});
}
inline MapStats rejected_map(Code code = Code::M10) { return map_stats({error(code)}); }

// Adds a layer of `kind` with these tile counts (index after the others).
inline MapStats& add_layer(MapStats& s, LayerKind kind, std::vector<TileCount> tiles) {
  LayerStats l;
  l.layer_index = static_cast<std::int32_t>(s.layers.size());
  l.group_index = 0;
  l.kind = kind;
  l.item_type = 2;
  l.version = 3;
  l.name = std::string(to_string(kind));
  l.width = 50;
  l.height = 50;
  l.tile_counts = std::move(tiles);
  s.layers.push_back(l);
  return s;
}

// An image; `used` makes layer 0 use it.
inline ImageStats image(std::int32_t index, std::string name, bool external, bool standard,
                        bool used) {
  ImageStats i;
  i.image_index = index;
  i.version = 1;
  i.name = std::move(name);
  i.width = i.height = 256;
  i.external = external;
  i.standard_name = standard;
  if (!external) {
    i.data_stored_size = 1000;
    i.data_size = 256 * 256 * 4;
  }
  if (used) i.used_by = {{0, 0}};
  return i;
}

// An index written run by run.
class AuditIndex {
 public:
  AuditIndex() : path_((dir_ / "audit.sqlite").string()) {
    auto db = index::IndexDb::open(path_, index::OpenMode::read_write);
    if (!db) throw std::runtime_error(db.error().to_string());
    db_ = std::make_unique<index::IndexDb>(std::move(db).value());
  }

  const std::string& path() const { return path_; }
  const std::filesystem::path& dir() const { return dir_.path(); }
  index::IndexDb& db() { return *db_; }

  std::int64_t begin_run() { return db_->begin_run("mapindex index (test)", "0.0-test"); }
  std::int64_t source(std::int64_t run, const std::string& path,
                      index::SourceKind kind = index::SourceKind::archive) {
    return db_->source_id(run, path, kind);
  }
  void map(std::int64_t run, std::int64_t source, const std::string& path, int content,
           const MapStats& stats, std::uint64_t size = 1000) {
    index::EntryRecord e;
    e.source_id = source;
    e.entry_path = path;
    e.kind = index::EntryKind::map;
    e.size = size;
    e.sha256 = content_digest(content);
    e.crc32 = static_cast<std::uint32_t>(content);
    db_->write_entry(run, e, &stats);
  }
  void other(std::int64_t run, std::int64_t source, const std::string& path, int content,
             std::uint64_t size = 100) {
    index::EntryRecord e;
    e.source_id = source;
    e.entry_path = path;
    e.kind = index::EntryKind::other;
    e.size = size;
    e.sha256 = content_digest(content);
    db_->write_entry(run, e, nullptr);
  }
  void unreadable(std::int64_t run, std::int64_t source, const std::string& path,
                  Code code = Code::read_truncated,
                  const std::string& message = "the archive ends inside this entry") {
    index::EntryRecord e;
    e.source_id = source;
    e.entry_path = path;
    e.kind = index::EntryKind::unreadable;
    e.size = 500;
    e.problems = {{code, message, Location::file()}};
    db_->write_entry(run, e, nullptr);
  }
  void finish(std::int64_t run, index::RunStatus status = index::RunStatus::complete) {
    db_->finish_run(run, status, {});
  }

  AuditReport audit(const AuditOptions& options = {}) {
    auto report = build_audit(db_->handle(), options);
    if (!report) FAIL("build_audit: " << report.error().to_string());
    return std::move(report).value();
  }
  Error audit_error(const AuditOptions& options) {
    auto report = build_audit(db_->handle(), options);
    if (report) FAIL("build_audit succeeded where it should fail");
    return report.error();
  }

 private:
  mapindex::testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<index::IndexDb> db_;
};

// The paths of a list of entries / changes / health changes.
template <class T>
std::vector<std::string> paths_of(const std::vector<T>& items) {
  std::vector<std::string> paths;
  for (const auto& item : items) {
    if constexpr (std::is_same_v<T, EntryChange>)
      paths.push_back(item.before.path + " -> " + item.after.path);
    else
      paths.push_back(item.path);
  }
  return paths;
}

using Strings = std::vector<std::string>;

// A parsed JSON value.
struct Json {
  using Object = std::map<std::string, Json>;
  using Array = std::vector<Json>;
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> v;

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v); }
  bool is_object() const { return std::holds_alternative<Object>(v); }
  bool is_array() const { return std::holds_alternative<Array>(v); }
  bool is_string() const { return std::holds_alternative<std::string>(v); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(v); }
  bool is_bool() const { return std::holds_alternative<bool>(v); }
  const Object& object() const { return std::get<Object>(v); }
  const Array& array() const { return std::get<Array>(v); }
  const std::string& str() const { return std::get<std::string>(v); }
  std::int64_t integer() const { return std::get<std::int64_t>(v); }
  bool boolean() const { return std::get<bool>(v); }
  bool has(const std::string& key) const { return is_object() && object().count(key) > 0; }
  const Json& operator[](const std::string& key) const {
    const auto found = object().find(key);
    if (found == object().end()) throw std::runtime_error("no key '" + key + "'");
    return found->second;
  }
  const Json& operator[](std::size_t i) const { return array().at(i); }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& [k, value] : object()) out.push_back(k);
    return out;
  }
};

// Strict RFC 8259 parsing (no trailing commas, no comments, one value,
// \u escapes decoded to UTF-8). Throws std::runtime_error on bad input.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : t_(text) {}
  Json parse() {
    Json value = parse_value();
    skip_space();
    if (i_ != t_.size()) fail("text after the value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void skip_space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t'))
      ++i_;
  }
  bool take(char c) {
    skip_space();
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  Json parse_value() {
    skip_space();
    if (i_ >= t_.size()) fail("unexpected end");
    const char c = t_[i_];
    if (c == '{') return parse_object();
    if (c == '[') return parse_array();
    if (c == '"') return Json{parse_string()};
    if (t_.substr(i_, 4) == "null") {
      i_ += 4;
      return Json{nullptr};
    }
    if (t_.substr(i_, 4) == "true") {
      i_ += 4;
      return Json{true};
    }
    if (t_.substr(i_, 5) == "false") {
      i_ += 5;
      return Json{false};
    }
    return parse_number();
  }
  Json parse_object() {
    expect('{');
    Json::Object object;
    if (take('}')) return Json{object};
    do {
      skip_space();
      std::string key = parse_string();
      if (object.count(key)) fail("duplicate key '" + key + "'");
      expect(':');
      object.emplace(std::move(key), parse_value());
    } while (take(','));
    expect('}');
    return Json{object};
  }
  Json parse_array() {
    expect('[');
    Json::Array array;
    if (take(']')) return Json{array};
    do array.push_back(parse_value());
    while (take(','));
    expect(']');
    return Json{array};
  }
  std::string parse_string() {
    if (i_ >= t_.size() || t_[i_] != '"') fail("expected a string");
    ++i_;
    std::string out;
    while (true) {
      if (i_ >= t_.size()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(t_[i_++]);
      if (c == '"') return out;
      if (c < 0x20) fail("raw control character in a string");
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated escape");
      const char e = t_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("short \\u escape");
          const unsigned code =
              static_cast<unsigned>(std::stoul(std::string(t_.substr(i_, 4)), nullptr, 16));
          i_ += 4;
          if (code >= 0xD800 && code <= 0xDFFF) fail("surrogate escapes are not expected here");
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: fail("bad escape");
      }
    }
  }
  Json parse_number() {
    const std::size_t start = i_;
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    if (i_ >= t_.size() || !(t_[i_] >= '0' && t_[i_] <= '9')) fail("expected a value");
    if (t_[i_] == '0' && i_ + 1 < t_.size() && t_[i_ + 1] >= '0' && t_[i_ + 1] <= '9')
      fail("leading zero");
    bool integer = true;
    while (i_ < t_.size() && ((t_[i_] >= '0' && t_[i_] <= '9') || t_[i_] == '.' || t_[i_] == 'e' ||
                              t_[i_] == 'E' || t_[i_] == '+' || (t_[i_] == '-' && i_ > start))) {
      if (t_[i_] == '.' || t_[i_] == 'e' || t_[i_] == 'E') integer = false;
      ++i_;
    }
    const std::string text(t_.substr(start, i_ - start));
    if (integer) return Json{static_cast<std::int64_t>(std::stoll(text))};
    return Json{std::stod(text)};
  }

  std::string_view t_;
  std::size_t i_ = 0;
};

inline Json parse_json(std::string_view text) { return JsonParser(text).parse(); }

}  // namespace mapindex::audit::testing
