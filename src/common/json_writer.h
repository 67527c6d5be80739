// The one JSON writer: query results (json, ndjson), inspect --json, the audit
// report and index --stats-json all write through it. Objects and arrays
// nest; empty ones are written {} and []. A container either puts each member
// on its own line, indented (`": "` after keys), or writes them all on one
// line with no spaces; JsonLayout says which, by depth. Strings are written as
// valid UTF-8 JSON (json_string).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mapindex {

// `text` as a JSON string literal, with its quotes: quotes, backslashes and
// control characters escaped (\n, \t, \u001f, ...), every other byte of
// valid UTF-8 as it is, and each maximal subpart of an ill-formed sequence
// replaced by U+FFFD (to_valid_utf8, the rule stored text follows), written
// as its UTF-8 bytes.
std::string json_string(std::string_view text);

struct JsonLayout {
  // Containers nested less deep than this (the outermost is depth 0) put
  // each member on its own line; deeper ones write theirs on one line.
  std::size_t line_depth = std::numeric_limits<std::size_t>::max();
  // Spaces of indentation per depth on those lines.
  std::size_t indent = 2;

  // Every member on its own line, indented by two spaces per depth.
  static constexpr JsonLayout pretty() { return {}; }
  // Everything on one line, no spaces: {"a":1,"b":[2,3]}.
  static constexpr JsonLayout compact() { return {0, 0}; }
  // One line per member of the outermost container, no indentation: an
  // array of objects one object a line.
  static constexpr JsonLayout rows() { return {1, 0}; }
};

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, JsonLayout layout = JsonLayout::pretty())
      : out_(out), layout_(layout) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The key of the next value inside an object.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
  // As std::ostream writes a double by default (6 significant digits).
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // A number the caller has already written as JSON text (e.g. SQLite's text
  // form of a value), written as it is.
  JsonWriter& number_text(std::string_view text);
  template <class T>
  JsonWriter& value(const std::optional<T>& v) {
    return v ? value(*v) : null();
  }

  // key(name).value(v)
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) {
    return key(name).value(v);
  }

 private:
  struct Level {
    bool array = false;
    bool empty = true;
  };
  bool on_lines(std::size_t depth) const { return depth < layout_.line_depth; }
  void before_value();
  void separate();
  void newline();
  void close(char bracket);

  std::ostream& out_;
  JsonLayout layout_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace mapindex
