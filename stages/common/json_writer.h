// A small streaming JSON writer: objects and arrays nested, indented by two
// spaces, empty ones written as {} and []. Strings are written as valid
// UTF-8 JSON: quotes, backslashes and control characters escaped, bytes that
// are not UTF-8 replaced by U+FFFD (entry paths in archives can be anything).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mapindex::audit {

// `text` as a JSON string literal, with its quotes.
std::string json_string(std::string_view text);

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

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
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  template <class T>
  JsonWriter& value(const std::optional<T>& v) { return v ? value(*v) : null(); }

  // key(name).value(v)
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) { return key(name).value(v); }

 private:
  struct Level {
    bool array = false;
    bool empty = true;
  };
  void before_value();
  void newline();
  void close(char bracket);

  std::ostream& out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace mapindex::audit
