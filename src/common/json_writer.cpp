#include "common/json_writer.h"

#include "common/hex.h"
#include "common/utf8.h"

namespace mapindex {

std::string json_string(std::string_view raw) {
  std::string valid;
  if (!is_valid_utf8(raw)) valid = to_valid_utf8(raw);
  const std::string_view text = valid.empty() ? raw : std::string_view(valid);
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          append_hex(out, c);
        } else {
          out += ch;  // ASCII, or part of a valid UTF-8 sequence
        }
    }
  }
  out += '"';
  return out;
}

// The separator before a member of the innermost container: a comma after
// the first, then a new line when that container writes one member a line.
void JsonWriter::separate() {
  if (levels_.empty()) return;
  if (!levels_.back().empty) out_ << ',';
  levels_.back().empty = false;
  if (on_lines(levels_.size() - 1)) newline();
}

void JsonWriter::newline() {
  out_ << '\n';
  for (std::size_t i = 0; i < levels_.size() * layout_.indent; ++i) out_ << ' ';
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  separate();
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  const bool spaced = !levels_.empty() && on_lines(levels_.size() - 1);
  out_ << json_string(name) << (spaced ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  levels_.push_back({false, true});
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  levels_.push_back({true, true});
  return *this;
}

void JsonWriter::close(char bracket) {
  const bool empty = levels_.empty() || levels_.back().empty;
  const bool lines = !levels_.empty() && on_lines(levels_.size() - 1);
  if (!levels_.empty()) levels_.pop_back();
  if (!empty && lines) newline();
  out_ << bracket;
  if (levels_.empty()) out_ << '\n';
}

JsonWriter& JsonWriter::end_object() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  out_ << json_string(text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  before_value();
  out_ << number;
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
  before_value();
  out_ << number;
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  out_ << number;
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::number_text(std::string_view text) {
  before_value();
  out_ << text;
  return *this;
}

}  // namespace mapindex
