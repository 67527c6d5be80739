#include "audit/audit_marks.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "sqlite/statement.h"

namespace mapindex::audit {
namespace {

using sqlite::Statement;

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

bool is_sha256(const std::string& text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

std::string lowercase(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

Result<std::int64_t> accept_run(sqlite3* db, std::optional<std::int64_t> run,
                                const std::string& note) {
  try {
    std::int64_t run_id = 0;
    if (run) {
      Statement s(db, "SELECT 1 FROM runs WHERE run_id = ?");
      s.bind_all(*run);
      if (!s.step())
        return Error{Code::audit_accept,
                     "--run " + std::to_string(*run) + ": the index has no such run"};
      run_id = *run;
    } else {
      Statement s(db, "SELECT max(run_id) FROM runs WHERE status = 'complete'");
      if (!s.step() || s.column_is_null(0))
        return Error{Code::audit_accept, "the index has no complete run to accept"};
      run_id = s.column_int(0);
    }
    Statement insert(db, std::string("INSERT INTO audit_acceptances (run_id, accepted_at, note) "
                                     "VALUES (?, ") +
                             kNow +
                             ", ?) ON CONFLICT (run_id) DO UPDATE "
                             "SET accepted_at = excluded.accepted_at, note = excluded.note");
    insert.bind_all(run_id, note);
    insert.run();
    return run_id;
  } catch (const sqlite::IndexError& e) {
    return Error{Code::audit_accept, std::string("writing the index failed: ") + e.what()};
  }
}

Result<Acknowledged> acknowledge_map(sqlite3* db, const std::string& sha_or_name,
                                     const std::string& note) {
  try {
    std::vector<Acknowledged> found;
    if (is_sha256(sha_or_name)) {
      const auto sha = lowercase(sha_or_name);
      Statement s(db,
                  "SELECT f.entry_path FROM file_versions v JOIN files f ON f.file_id = v.file_id "
                  "WHERE v.sha256 = ? AND v.map_id IS NOT NULL ORDER BY v.version_id DESC LIMIT 1");
      s.bind_all(sha);
      if (!s.step())
        return Error{Code::audit_acknowledge, "no map of the index has the SHA-256 " + sha};
      found.push_back({sha, s.column_text(0)});
    } else {
      // Map entries of the latest run by path or by name.
      Statement s(db,
                  "SELECT DISTINCT v.sha256, f.entry_path FROM file_sightings h "
                  "JOIN files f ON f.file_id = h.file_id "
                  "JOIN file_versions v ON v.version_id = h.version_id "
                  "WHERE h.run_id = (SELECT max(run_id) FROM runs) AND v.map_id IS NOT NULL "
                  "AND (f.entry_path = ?1 OR f.name = ?1) ORDER BY f.entry_path");
      s.bind_all(sha_or_name);
      while (s.step()) found.push_back({s.column_text(0), s.column_text(1)});
      if (found.empty())
        return Error{Code::audit_acknowledge, "the latest run saw no map with the path or name '" +
                                                  sha_or_name + "': give its SHA-256 instead"};
      const bool one_content = std::all_of(found.begin(), found.end(), [&](const Acknowledged& a) {
        return a.sha256 == found.front().sha256;
      });
      if (!one_content) {
        std::string list;
        for (const auto& a : found) list += "\n  " + a.sha256 + "  " + a.name;
        return Error{Code::audit_acknowledge,
                     "'" + sha_or_name + "' names " + std::to_string(found.size()) +
                         " maps of different content: give the SHA-256 of one:" + list};
      }
    }
    Statement insert(db, std::string("INSERT INTO acknowledged_maps (sha256, name, note, "
                                     "acknowledged_at) VALUES (?, ?, ?, ") +
                             kNow +
                             ") "
                             "ON CONFLICT (sha256) DO UPDATE SET name = excluded.name, "
                             "note = excluded.note, acknowledged_at = excluded.acknowledged_at");
    insert.bind_all(found.front().sha256, found.front().name, note);
    insert.run();
    return found.front();
  } catch (const sqlite::IndexError& e) {
    return Error{Code::audit_acknowledge, std::string("writing the index failed: ") + e.what()};
  }
}

}  // namespace mapindex::audit
