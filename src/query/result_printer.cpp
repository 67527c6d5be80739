#include "query/result_printer.h"

#include <algorithm>

#include "common/json_writer.h"
#include "common/utf8.h"

namespace mapindex::query {
namespace {

constexpr std::size_t kWidthRows = 10000;

// Code points, not bytes: continuation bytes 10xxxxxx do not count.
std::size_t display_width(const std::string& s) {
  std::size_t width = 0;
  for (const char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  return width;
}

// `text` cut to `max_width` code points ("…" included), or unchanged when it
// fits or `max_width` is 0.
std::string cut_to_width(std::string text, std::size_t max_width) {
  if (max_width == 0 || display_width(text) <= max_width) return text;
  std::size_t kept = 0, i = 0;
  for (; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && kept++ == max_width - 1) break;
  text.resize(i);
  return text + "\u2026";
}

std::string escape_for_table(const Cell& cell) {
  if (cell.type == Cell::Type::null) return "NULL";
  if (cell.type != Cell::Type::text) return cell.text;
  return printable(to_valid_utf8(cell.text));
}

class TablePrinter : public ResultPrinter {
 public:
  TablePrinter(std::ostream& out, std::size_t max_cell_width)
      : out_(out), max_cell_width_(max_cell_width) {}

  void columns(const std::vector<std::string>& names) override {
    names_.clear();
    for (const auto& name : names)
      names_.push_back(cut_to_width(escape_for_table({Cell::Type::text, name}), max_cell_width_));
    numeric_.assign(names.size(), true);
    seen_value_.assign(names.size(), false);
  }

  void row(const std::vector<Cell>& cells) override {
    ++rows_;
    std::vector<std::string> texts;
    texts.reserve(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      texts.push_back(cut_to_width(escape_for_table(cells[i]), max_cell_width_));
      if (!widths_.empty()) continue;
      const auto type = cells[i].type;
      if (type == Cell::Type::null) continue;
      seen_value_[i] = true;
      if (type != Cell::Type::integer && type != Cell::Type::real) numeric_[i] = false;
    }
    if (widths_.empty()) {
      buffer_.push_back(std::move(texts));
      if (buffer_.size() >= kWidthRows) flush_buffer();
    } else {
      print_line(texts);
    }
  }

  void finish() override {
    flush_buffer();
    out_ << "(" << rows_ << (rows_ == 1 ? " row)\n" : " rows)\n");
  }

 private:
  void flush_buffer() {
    if (!widths_.empty()) return;
    widths_.assign(names_.size(), 0);
    for (std::size_t i = 0; i < names_.size(); ++i) {
      widths_[i] = display_width(names_[i]);
      if (!seen_value_[i]) numeric_[i] = false;
    }
    for (const auto& r : buffer_)
      for (std::size_t i = 0; i < r.size(); ++i)
        widths_[i] = std::max(widths_[i], display_width(r[i]));
    print_line(names_);
    std::vector<std::string> rule;
    for (const auto w : widths_) rule.emplace_back(std::max<std::size_t>(w, 1), '-');
    print_line(rule);
    for (const auto& r : buffer_) print_line(r);
    buffer_.clear();
  }

  void print_line(const std::vector<std::string>& texts) {
    std::string line;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (i > 0) line += "  ";
      const std::size_t width = display_width(texts[i]);
      const std::size_t pad = widths_[i] > width ? widths_[i] - width : 0;
      if (numeric_[i]) line.append(pad, ' ');
      line += texts[i];
      if (!numeric_[i]) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out_ << line << '\n';
  }

  std::ostream& out_;
  std::size_t max_cell_width_;
  std::vector<std::string> names_;
  std::vector<bool> numeric_, seen_value_;
  std::vector<std::size_t> widths_;
  std::vector<std::vector<std::string>> buffer_;
  std::uint64_t rows_ = 0;
};

void write_csv_field(std::ostream& out, const std::string& text) {
  const std::string s = to_valid_utf8(text);
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    out << s;
    return;
  }
  out << '"';
  for (const char c : s) {
    if (c == '"') out << '"';
    out << c;
  }
  out << '"';
}

class CsvPrinter : public ResultPrinter {
 public:
  explicit CsvPrinter(std::ostream& out) : out_(out) {}
  void columns(const std::vector<std::string>& names) override {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out_ << ',';
      write_csv_field(out_, names[i]);
    }
    out_ << '\n';
  }
  void row(const std::vector<Cell>& cells) override {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out_ << ',';
      if (cells[i].type != Cell::Type::null) write_csv_field(out_, cells[i].text);
    }
    out_ << '\n';
  }
  void finish() override {}

 private:
  std::ostream& out_;
};

void write_tsv_field(std::ostream& out, const std::string& text) {
  for (const char c : to_valid_utf8(text)) {
    switch (c) {
      case '\\': out << "\\\\"; break;
      case '\t': out << "\\t"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      default: out << c;
    }
  }
}

class TsvPrinter : public ResultPrinter {
 public:
  explicit TsvPrinter(std::ostream& out) : out_(out) {}
  void columns(const std::vector<std::string>& names) override {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out_ << '\t';
      write_tsv_field(out_, names[i]);
    }
    out_ << '\n';
  }
  void row(const std::vector<Cell>& cells) override {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out_ << '\t';
      if (cells[i].type != Cell::Type::null) write_tsv_field(out_, cells[i].text);
    }
    out_ << '\n';
  }
  void finish() override {}

 private:
  std::ostream& out_;
};

// json: an array of objects; ndjson (`lines`): one object per line.
class JsonPrinter : public ResultPrinter {
 public:
  JsonPrinter(std::ostream& out, bool lines)
      : json_(out, lines ? JsonLayout::compact() : JsonLayout::rows()), lines_(lines) {}
  void columns(const std::vector<std::string>& names) override {
    names_ = names;
    if (!lines_) json_.begin_array();
  }
  void row(const std::vector<Cell>& cells) override {
    json_.begin_object();
    for (std::size_t i = 0; i < cells.size(); ++i) {
      json_.key(names_[i]);
      const auto& cell = cells[i];
      switch (cell.type) {
        case Cell::Type::null: json_.null(); break;
        case Cell::Type::integer: json_.number_text(cell.text); break;
        case Cell::Type::real:
          if (cell.finite)
            json_.number_text(cell.text);
          else
            json_.null();
          break;
        case Cell::Type::text:
        case Cell::Type::blob: json_.value(cell.text); break;
      }
    }
    json_.end_object();
  }
  void finish() override {
    if (!lines_) json_.end_array();
  }

 private:
  JsonWriter json_;
  bool lines_;
  std::vector<std::string> names_;
};

class LinesPrinter : public ResultPrinter {
 public:
  explicit LinesPrinter(std::ostream& out) : out_(out) {}
  void columns(const std::vector<std::string>&) override {}
  void row(const std::vector<Cell>& cells) override {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out_ << "  ";
      if (cells[i].type != Cell::Type::null) out_ << to_valid_utf8(cells[i].text);
    }
    out_ << '\n';
  }
  void finish() override {}

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<ResultPrinter> make_lines_printer(std::ostream& out) {
  return std::make_unique<LinesPrinter>(out);
}

std::unique_ptr<ResultPrinter> make_printer(QueryFormat format, std::ostream& out,
                                            std::size_t max_cell_width) {
  switch (format) {
    case QueryFormat::table: break;
    case QueryFormat::csv: return std::make_unique<CsvPrinter>(out);
    case QueryFormat::tsv: return std::make_unique<TsvPrinter>(out);
    case QueryFormat::json: return std::make_unique<JsonPrinter>(out, false);
    case QueryFormat::ndjson: return std::make_unique<JsonPrinter>(out, true);
  }
  return std::make_unique<TablePrinter>(out, max_cell_width);
}

}  // namespace mapindex::query
