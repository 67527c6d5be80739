#include "query/dot_command.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace mapindex::query {
namespace {

// `text` between `quote` characters, each inner one doubled: an SQL string
// literal ('), or an identifier (").
std::string quoted(std::string_view text, char quote) {
  std::string out(1, quote);
  for (const char c : text) {
    if (c == quote) out += quote;
    out += c;
  }
  return out + quote;
}

// The words of `text` (split at whitespace; '...' and "..." are one word
// without their quotes), or nullopt when a quote is not closed.
std::optional<std::vector<std::string>> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == text.size()) return words;
    std::string word;
    if (text[i] == '\'' || text[i] == '"') {
      const char quote = text[i];
      const auto end = text.find(quote, i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      word = text.substr(i + 1, end - i - 1);
      i = end + 1;
    } else {
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
        word += text[i++];
    }
    words.push_back(std::move(word));
  }
}

bool ascii_iequal(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// The shell's quoteChar(): whether `name` must be quoted to read as a name.
bool needs_quotes(std::string_view name) {
  if (name.empty()) return true;
  if (!std::isalpha(static_cast<unsigned char>(name[0])) && name[0] != '_') return true;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return true;
  return sqlite3_keyword_check(name.data(), static_cast<int>(name.size())) != 0;
}

std::string as_name(std::string_view name) {
  return needs_quotes(name) ? quoted(name, '"') : std::string(name);
}

// A schema's name before a '.' as the shell writes it (temp never quoted).
std::string schema_prefix(std::string_view schema) {
  return (ascii_iequal(schema, "temp") ? std::string(schema) : as_name(schema)) + ".";
}

// The shell's shellFakeSchema(): "[schema.]name(column,...)" of a view, ""
// when it has no columns (or they cannot be read).
std::string view_columns(sqlite3* db, const char* schema, std::string_view name) {
  const std::string sql = "PRAGMA " + quoted_identifier(schema ? schema : "main") + ".table_info(" +
                          quoted(name, '\'') + ")";
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return "";
  }
  std::string text = (schema ? schema_prefix(schema) : "") + as_name(name);
  int columns = 0;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* column = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    text += columns++ == 0 ? "(" : ",";
    text += as_name(column ? column : "");
  }
  sqlite3_finalize(stmt);
  return columns == 0 ? "" : text + ")";
}

// mapindex_schema_sql(sql, schema, name, printed): the shell's
// shell_add_schema() (the schema's name after CREATE ..., a view's columns
// in a comment), then with `printed` its printSchemaLine() (a comment left
// open closed before the ';', CREATE TABLE "x" as CREATE TABLE IF NOT
// EXISTS "x", the ';'). Never throws: it runs inside SQLite.
void schema_sql(sqlite3_context* context, int, sqlite3_value** args) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(args[0]));
  if (!text) return sqlite3_result_null(context);
  const auto* schema = reinterpret_cast<const char*>(sqlite3_value_text(args[1]));
  const auto* name = reinterpret_cast<const char*>(sqlite3_value_text(args[2]));
  const bool printed = sqlite3_value_int(args[3]) != 0;
  std::string sql = text;
  if (sql.starts_with("CREATE ")) {
    for (const std::string_view kind :
         {"TABLE", "INDEX", "UNIQUE INDEX", "VIEW", "TRIGGER", "VIRTUAL TABLE"}) {
      const std::size_t n = kind.size();
      if (sql.size() <= n + 7 || sql.compare(7, n, kind) != 0 || sql[n + 7] != ' ') continue;
      if (schema) sql = sql.substr(0, n + 8) + schema_prefix(schema) + sql.substr(n + 8);
      if (name && kind == "VIEW")
        if (const auto columns = view_columns(sqlite3_context_db_handle(context), schema, name);
            !columns.empty())
          sql += "\n/* " + columns + " */";
      break;
    }
  }
  if (printed) {
    if (sql.find("/*") != std::string::npos || sql.find("--") != std::string::npos)
      for (const char* end : {"", "*/", "\n"})
        if (sqlite3_complete((sql + end + ";").c_str())) {
          sql += end;
          break;
        }
    if (sqlite3_strglob("CREATE TABLE ['\"]*", sql.c_str()) == 0)
      sql = "CREATE TABLE IF NOT EXISTS " + sql.substr(13);
    sql += ";";
  }
  sqlite3_result_text(context, sql.c_str(), static_cast<int>(sql.size()), SQLITE_TRANSIENT);
}

}  // namespace

std::string quoted_identifier(std::string_view name) { return quoted(name, '"'); }

int register_dot_command_functions(sqlite3* db) {
  return sqlite3_create_function(db, "mapindex_schema_sql", 4, SQLITE_UTF8, nullptr, schema_sql,
                                 nullptr, nullptr);
}

Result<std::string> dot_command_sql(std::string_view command,
                                    const std::vector<std::string>& databases, bool printed) {
  const auto words = split_words(command);
  if (!words)
    return Error{Code::query_sql, "`" + std::string(command) + "`: a quote is not closed"};
  const std::string& name = words->front();
  const bool tables = name == ".tables";
  if (!tables && name != ".schema")
    return Error{Code::query_sql,
                 "unknown dot-command '" + name +
                     "': mapindex query knows .tables [PATTERN] and .schema [PATTERN] "
                     "(the output format is an option: --csv, --tsv, --json, --ndjson)"};
  if (words->size() > 2)
    return Error{Code::query_sql, "`" + name + "` takes one PATTERN at most, not " +
                                      std::to_string(words->size() - 1)};
  const std::string pattern = words->size() == 2 ? (*words)[1] : "";
  const bool qualified = pattern.find('.') != std::string::npos;  // SCHEMA.PATTERN

  std::string parts;
  for (std::size_t i = 0; i < databases.size(); ++i) {
    const std::string& db = databases[i];
    const std::string from = " FROM " + quoted_identifier(db) + ".sqlite_schema";
    if (!parts.empty()) parts += " UNION ALL ";
    if (tables) {
      const std::string label = i == 0 ? "name" : quoted(db + ".", '\'') + " || name";
      parts += "SELECT " + label + " AS name" + from +
               " WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'";
      if (!pattern.empty())
        parts += " AND " + (qualified ? quoted(db + ".", '\'') + " || name" : "name") + " LIKE " +
                 quoted(pattern, '\'');
    } else {
      parts += "SELECT sql, name, tbl_name, rowid AS r, " + std::to_string(i) + " AS snum, " +
               quoted(db, '\'') + " AS sname" + from;
    }
  }
  if (tables) return "SELECT name FROM (" + parts + ") ORDER BY 1";
  std::string where;
  if (!pattern.empty()) {
    const bool glob = pattern.find_first_of("*?[") != std::string::npos;
    where = std::string(qualified ? "lower(sname || '.' || tbl_name)" : "lower(tbl_name)") +
            (glob ? " GLOB " : " LIKE ") + quoted(pattern, '\'') + (glob ? "" : " ESCAPE '\\'") +
            " AND ";
  }
  return "SELECT mapindex_schema_sql(sql, CASE snum WHEN 0 THEN NULL ELSE sname END, name, " +
         std::string(printed ? "1" : "0") + ") AS sql FROM (" + parts + ") WHERE " + where +
         "sql IS NOT NULL ORDER BY snum, r";
}

}  // namespace mapindex::query
