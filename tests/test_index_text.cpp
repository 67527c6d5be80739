// Through the real binary: every TEXT value an index holds is valid
// UTF-8 (names, info strings, settings and entry paths that are not UTF-8 are
// stored with U+FFFD, their bytes kept in *_raw BLOB columns and reported as
// text.not_utf8), and an archive holding one path twice keeps a row for each
// occurrence. The inputs are built here, so every expected value is known.
#include <sqlite3.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <set>
#include <sstream>

#include "common/hex.h"
#include "common/utf8.h"
#include "read/digest.h"
#include "sqlite/statement.h"
#include "tests/support/archive_builder.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::LayerKind;

namespace {

// Names that are not UTF-8: Latin-1, a truncated sequence, a lone
// continuation byte, an overlong form, a surrogate.
const std::string kGroupName = "G\xFF";
const std::string kLayerName = "L\xE9y";
const std::string kEnvelopeName = "Env\xE2\x82";
const std::string kSoundName = "S\x80nd";
const std::string kImageName = "img\xC0\xAF";
const std::string kAuthor = "a\xED\xA0\x80z";
const std::string kSetting = "sv_name caf\xE9";
const std::string kEntryPath = "maps/caf\xE9.map";

// As SQLite's hex() writes them.
std::string hex(std::string_view bytes) {
  return mapindex::to_hex(bytes, mapindex::HexCase::upper);
}

std::vector<std::uint8_t> map_with_bad_names() {
  MapBuilder b;
  b.info({.author = kAuthor, .settings = {"sv_gametype race", kSetting}});
  const std::int32_t image = b.add_external_image(kImageName, 64, 64);
  EnvelopeSpec env;
  env.name = kEnvelopeName;
  env.points = {EnvPointSpec{.time = 0}, EnvPointSpec{.time = 1000}};
  const std::int32_t envelope = b.add_envelope(env);
  const std::int32_t sound = b.add_sound(kSoundName, std::vector<std::uint8_t>(16, 7));
  b.add_group({.name = kGroupName});
  TileGrid game(LayerKind::game, 8, 8);
  game.fill(0, 7, 8, 1, 1).set(1, 1, 192);
  b.add_tile_layer(game, {.name = kLayerName});
  TileLayerSpec deco{.name = "Deco", .color_envelope = envelope, .image = image};
  b.add_tile_layer(TileGrid(LayerKind::tiles, 8, 8).fill(0, 0, 8, 1, 1), deco);
  SoundsLayerSpec sounds{.name = "Sounds", .sound = sound};
  sounds.sources.push_back(SoundSourceSpec{});
  b.add_sounds_layer(sounds);
  return b.build();
}

ProcessResult index(const fs::path& db, const std::vector<std::string>& inputs) {
  std::vector<std::string> args = {"index", "--db", db.string(), "--progress", "none"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  return run_process(mapindex_binary(), args);
}

// Walks every table and view of the index (read from sqlite_schema) and checks
// each TEXT value with the strict validator. Returns the problems found, one
// line each; counts the tables/views and TEXT values walked.
std::string walk_text(const fs::path& path, int& relations, std::int64_t& text_values) {
  mapindex::sqlite::Connection db;
  REQUIRE(db.open(path.string(), SQLITE_OPEN_READONLY) == SQLITE_OK);
  std::vector<std::string> names;
  {
    mapindex::sqlite::Statement st(db.get(),
                                   "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') "
                                   "AND name NOT LIKE 'sqlite_%' ORDER BY name");
    while (st.step()) names.push_back(st.column_text(0));
  }
  std::ostringstream bad;
  relations = 0;
  text_values = 0;
  for (const auto& name : names) {
    const std::string sql = "SELECT * FROM \"" + name + "\"";
    mapindex::sqlite::Statement st(db.get(), sql);
    ++relations;
    while (st.step()) {
      for (int c = 0; c < st.column_count(); ++c) {
        if (st.column_type(c) != SQLITE_TEXT) continue;
        const std::string text = st.column_text(c);
        ++text_values;
        if (!mapindex::is_valid_utf8(text))
          bad << name << "." << st.column_name(c) << ": " << hex(text) << "\n";
      }
    }
  }
  return bad.str();
}

// python3 from PATH, or "" when there is none.
std::string find_python3() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / "python3";
    if (::access(candidate.c_str(), X_OK) == 0 &&
        run_process(candidate.string(), {"-c", "import sqlite3"}).exit_code == 0)
      return candidate.string();
  }
  return "";
}

struct TextFixture {
  TempDir tmp;
  fs::path db = tmp / "index.sqlite";
  fs::path archive = tmp / "names.zip";
  ProcessResult run;

  TextFixture() {
    write_archive(archive, ArchiveFormat::zip,
                  {{.path = kEntryPath, .bytes = map_with_bad_names(), .raw_path = true},
                   {.path = "readme.txt", .bytes = to_bytes("plain text")}});
    run = index(db, {archive.string()});
  }
};

}  // namespace

TEST_SUITE("index") {
  TEST_CASE(
      "index text e2e: every TEXT value of every table and view is UTF-8, the bytes are kept") {
    TextFixture f;
    INFO(f.run.err);
    REQUIRE(f.run.exit_code == 0);

    int relations = 0;
    std::int64_t text_values = 0;
    CHECK(walk_text(f.db, relations, text_values) == "");
    CHECK(relations == sql_int(f.db,
                               "SELECT count(*) FROM sqlite_schema WHERE type IN "
                               "('table', 'view') AND name NOT LIKE 'sqlite_%'"));
    CHECK(relations >= 30);
    CHECK(text_values > 100);

    const auto raw = [&](const std::string& sql) { return sql_value(f.db, sql); };
    const std::string fffd = "\xEF\xBF\xBD";
    // Each name: UTF-8 with U+FFFD per maximal invalid subpart, the bytes as a BLOB.
    CHECK(raw("SELECT name FROM groups WHERE group_index = 0") == "G" + fffd);
    CHECK(raw("SELECT hex(name_raw) FROM groups WHERE group_index = 0") == hex(kGroupName));
    CHECK(raw("SELECT name FROM layers WHERE layer_index = 0") == "L" + fffd + "y");
    CHECK(raw("SELECT hex(name_raw) FROM layers WHERE layer_index = 0") == hex(kLayerName));
    CHECK(raw("SELECT typeof(name_raw) FROM layers WHERE layer_index = 0") == "blob");
    CHECK(raw("SELECT name FROM envelopes") == "Env" + fffd);  // E2 82: one subpart
    CHECK(raw("SELECT hex(name_raw) FROM envelopes") == hex(kEnvelopeName));
    CHECK(raw("SELECT name FROM sounds") == "S" + fffd + "nd");
    CHECK(raw("SELECT hex(name_raw) FROM sounds") == hex(kSoundName));
    CHECK(raw("SELECT name FROM images") == "img" + fffd + fffd);  // overlong: two
    CHECK(raw("SELECT hex(name_raw) FROM images") == hex(kImageName));
    CHECK(raw("SELECT author FROM maps") == "a" + fffd + fffd + fffd + "z");  // surrogate: three
    CHECK(raw("SELECT hex(author_raw) FROM maps") == hex(kAuthor));
    CHECK(raw("SELECT command FROM settings WHERE position = 1") == "sv_name caf" + fffd);
    CHECK(raw("SELECT hex(command_raw) FROM settings WHERE position = 1") == hex(kSetting));
    // Valid text has no raw copy.
    CHECK(sql_int(f.db, "SELECT count(*) FROM layers WHERE name_raw IS NOT NULL") == 1);
    CHECK(sql_int(f.db, "SELECT count(*) FROM settings WHERE command_raw IS NOT NULL") == 1);
    CHECK(raw("SELECT ifnull(map_version_raw, 'NULL') FROM maps") == "NULL");

    // The entry path, its file name, and the other entry without a raw copy.
    CHECK(raw("SELECT entry_path FROM files WHERE kind = 'map'") == "maps/caf" + fffd + ".map");
    CHECK(raw("SELECT name FROM files WHERE kind = 'map'") == "caf" + fffd);
    CHECK(raw("SELECT hex(entry_path_raw) FROM files WHERE kind = 'map'") == hex(kEntryPath));
    CHECK(raw("SELECT ifnull(entry_path_raw, 'NULL') FROM files WHERE kind = 'other'") == "NULL");

    // One text.not_utf8 warning per item, at the item, with the bytes in hex.
    const auto problems =
        sql_rows(f.db,
                 "SELECT location, message FROM problems WHERE code = 'text.not_utf8' "
                 "AND severity = 'warning' AND map_id IS NOT NULL ORDER BY location, message");
    std::set<std::string> locations;
    for (const auto& p : problems) locations.insert(p[0]);
    CHECK(problems.size() == 7);
    CHECK(locations ==
          std::set<std::string>{"envelope 0", "group 0", "image 0", "info", "layer 0", "sound 0"});
    CHECK(sql_int(f.db,
                  "SELECT count(*) FROM problems WHERE code = 'text.not_utf8' AND "
                  "location = 'layer 0' AND message LIKE 'layer 0 name is not valid UTF-8 "
                  "(bytes: 4c e9 79)%'") == 1);
    CHECK(sql_int(f.db,
                  "SELECT count(*) FROM problems WHERE code = 'text.not_utf8' AND "
                  "location = 'info' AND message LIKE 'settings line 1 %(bytes: "
                  "73 76 5f 6e 61 6d 65 20 63 61 66 e9)%'") == 1);
    CHECK(sql_int(f.db,
                  "SELECT count(*) FROM problems p JOIN files f USING (file_id) "
                  "WHERE p.code = 'text.not_utf8' AND f.kind = 'map' AND p.message LIKE "
                  "'entry path is not valid UTF-8 (bytes: 6d 61 70 73 2f 63 61 66 e9 2e 6d 61 "
                  "70)%'") == 1);
    CHECK(raw("SELECT status FROM maps") == "warnings");
  }

  TEST_CASE("index text e2e: python3's sqlite3 with default settings reads every table and view") {
    const std::string python = find_python3();
    if (python.empty()) {
      MESSAGE(
          "SKIPPED: no python3 with the sqlite3 module on PATH (scripts/install-deps.sh "
          "installs it)");
      return;
    }
    TextFixture f;
    INFO(f.run.err);
    REQUIRE(f.run.exit_code == 0);
    // Default connection: text_factory str, which raises UnicodeDecodeError on
    // TEXT that is not UTF-8 (as Datasette and most drivers would fail).
    const std::string script =
        "import sqlite3, sys\n"
        "con = sqlite3.connect(sys.argv[1])\n"
        "names = [r[0] for r in con.execute(\"SELECT name FROM sqlite_schema WHERE type IN "
        "('table', 'view') AND name NOT LIKE 'sqlite_%'\")]\n"
        "rows = 0\n"
        "for name in names:\n"
        "    rows += len(con.execute('SELECT * FROM \"%s\"' % name).fetchall())\n"
        "print(len(names), rows)\n";
    const auto py = run_process(python, {"-c", script, f.db.string()});
    INFO(py.err);
    CHECK(py.exit_code == 0);
    std::istringstream out(py.out);
    int relations = 0;
    std::int64_t rows = 0;
    out >> relations >> rows;
    CHECK(relations == sql_int(f.db,
                               "SELECT count(*) FROM sqlite_schema WHERE type IN "
                               "('table', 'view') AND name NOT LIKE 'sqlite_%'"));
    CHECK(rows > 100);
  }

  TEST_CASE("index text: to_valid_utf8 replaces each maximal subpart with one U+FFFD") {
    using mapindex::to_valid_utf8;
    const std::string r = "\xEF\xBF\xBD";
    CHECK(to_valid_utf8("plain") == "plain");
    CHECK(to_valid_utf8("Caf\xC3\xA9 \xF0\x9F\x98\x80") == "Caf\xC3\xA9 \xF0\x9F\x98\x80");
    CHECK(to_valid_utf8("") == "");
    // The examples of the Unicode Standard, table 3-8 ("U+FFFD for non-shortest
    // form sequences" and truncated ones): 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
    // gives a, FFFD (F1 80 80), FFFD (E1 80), FFFD (C2), b, FFFD, c, FFFD, FFFD, d.
    CHECK(to_valid_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") ==
          "a" + r + r + r + "b" + r + "c" + r + r + "d");
    CHECK(to_valid_utf8("\xC0\xAF") == r + r);          // overlong: C0 never starts one
    CHECK(to_valid_utf8("\xE0\x80\xAF") == r + r + r);  // overlong 3-byte: E0 80 is no subpart
    CHECK(to_valid_utf8("\xED\xA0\x80") == r + r + r);  // surrogate
    CHECK(to_valid_utf8("\xF4\x90\x80\x80") == r + r + r + r);  // above U+10FFFF
    CHECK(to_valid_utf8("\xE2\x82") == r);                      // truncated at the end: one
    CHECK(to_valid_utf8("\xE2\x82x") == r + "x");
    CHECK(to_valid_utf8("\xFF\xFE") == r + r);
    CHECK(mapindex::is_valid_utf8("\xEF\xBF\xBD"));
    CHECK_FALSE(mapindex::is_valid_utf8("\xE2\x82"));
    CHECK(mapindex::hex_bytes("A\xFF") == "41 ff");
    CHECK(mapindex::hex_bytes("abc", 2) == "61 62 ...");
  }

  TEST_CASE("index text e2e: a folder and a file name that are not UTF-8 keep their bytes") {
    TempDir tmp;
    const fs::path db = tmp / "index.sqlite";
    const std::string folder_name = "d\xFF";
    const fs::path folder = tmp / folder_name;
    fs::create_directories(folder / "sub");
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 4, 4).fill(0, 3, 4, 1, 1));
    write_file(folder / "sub" / "caf\xE9.map", b.build());
    const auto run = index(db, {folder.string()});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    int relations = 0;
    std::int64_t text_values = 0;
    CHECK(walk_text(db, relations, text_values) == "");
    CHECK(sql_value(db, "SELECT entry_path FROM files") == "sub/caf\xEF\xBF\xBD.map");
    CHECK(sql_value(db, "SELECT hex(entry_path_raw) FROM files") == hex("sub/caf\xE9.map"));
    CHECK(sql_value(db, "SELECT hex(path_raw) FROM sources") == hex(folder.string()));
    CHECK(sql_value(db, "SELECT path FROM sources") == mapindex::to_valid_utf8(folder.string()));
    CHECK(sql_int(db,
                  "SELECT count(*) FROM problems WHERE code = 'text.not_utf8' "
                  "AND file_id IS NOT NULL") == 1);
  }

  // Entities on switch layers reach the index (entities rows of the
  // switch layer, spawns included), counted from the placed tiles.
  TEST_CASE("index entities e2e: spawns and flag stands of a switch layer are rows of entities") {
    TempDir tmp;
    const fs::path db = tmp / "index.sqlite";
    const fs::path file = tmp / "switch.map";
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 10, 6).fill(0, 5, 10, 1, 1).set(1, 1, 192));
    TileGrid sw(LayerKind::switch_layer, 10, 6);
    for (int x = 0; x < 7; ++x) sw.set_switch(x, 2, 192, 0);  // 7 SPAWN
    sw.set_switch(0, 3, 193, 0).set_switch(1, 3, 194, 0).set_switch(2, 3, 194, 0);
    sw.set_switch(3, 3, 195, 0).set_switch(4, 3, 196, 0);
    b.add_tile_layer(sw);
    write_file(file, b.build());
    const auto run = index(db, {file.string()});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(sql_rows(db,
                   "SELECT layer_index, layer_kind, entity, count FROM entities "
                   "ORDER BY layer_index, entity") ==
          std::vector<Row>{{"0", "game", "SPAWN", "1"},
                           {"1", "switch", "FLAGSTAND_BLUE", "1"},
                           {"1", "switch", "FLAGSTAND_RED", "1"},
                           {"1", "switch", "SPAWN", "7"},
                           {"1", "switch", "SPAWN_BLUE", "2"},
                           {"1", "switch", "SPAWN_RED", "1"}});
    CHECK(sql_int(db, "SELECT count(*) FROM problems") == 0);
  }

  TEST_CASE(
      "index duplicates e2e: each occurrence of a path in an archive is a row, kept across runs") {
    TempDir tmp;
    const fs::path db = tmp / "index.sqlite";
    const fs::path archive = tmp / "dups.zip";
    MapBuilder a;
    a.add_game_group();
    a.add_tile_layer(TileGrid(LayerKind::game, 4, 4).fill(0, 3, 4, 1, 1));
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 6, 6).fill(0, 5, 6, 1, 1));
    const auto map_a = a.build(), map_b = b.build();
    write_archive(archive, ArchiveFormat::zip,
                  {{.path = "maps/x.map", .bytes = map_a},
                   {.path = "maps/y.map", .bytes = map_b},
                   {.path = "maps/x.map", .bytes = map_b},
                   {.path = "maps/x.map", .bytes = to_bytes("not a map")}});
    const auto first = index(db, {archive.string()});
    INFO(first.err);
    REQUIRE(first.exit_code == 0);

    const std::string sha_a = mapindex::read::digest(map_a).sha256_hex();
    const std::string sha_b = mapindex::read::digest(map_b).sha256_hex();
    const std::string rows_sql =
        "SELECT file_id, entry_path, occurrence, kind, ifnull(sha256, '') FROM files "
        "ORDER BY entry_path, occurrence";
    const auto rows = sql_rows(db, rows_sql);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0][1] == "maps/x.map");
    CHECK(rows[0][2] == "1");
    CHECK(rows[0][4] == sha_a);
    CHECK(rows[1][2] == "2");
    CHECK(rows[1][4] == sha_b);
    CHECK(rows[2][2] == "3");
    CHECK(rows[2][3] == "other");
    CHECK(rows[3][1] == "maps/y.map");
    CHECK(rows[3][2] == "1");
    CHECK(sql_int(db, "SELECT runs.entries FROM runs") == 4);
    // A warning on the 2nd and 3rd occurrence, none on the first.
    const auto dup = sql_rows(db,
                              "SELECT f.occurrence, p.severity, p.message FROM problems p "
                              "JOIN files f USING (file_id) WHERE p.code = 'read.duplicate_name' "
                              "ORDER BY f.occurrence");
    REQUIRE(dup.size() == 2);
    CHECK(dup[0] == Row{"2", "warning",
                        "entry 'maps/x.map' occurs more than once in its archive; this is "
                        "occurrence 2"});
    CHECK(dup[1][0] == "3");
    CHECK(sql_int(db, "SELECT count(*) FROM file_overview WHERE entry_path = 'maps/x.map'") == 3);

    // The next run maps each occurrence to its row: same ids, nothing changed.
    const auto second = index(db, {archive.string()});
    INFO(second.err);
    REQUIRE(second.exit_code == 0);
    CHECK(sql_rows(db, rows_sql) == rows);
    CHECK(sql_int(db, "SELECT count(*) FROM files WHERE changed_run_id <> 1") == 0);
    CHECK(sql_int(db, "SELECT count(*) FROM file_versions") == 4);
    CHECK(sql_int(db, "SELECT count(*) FROM file_sightings WHERE run_id = 2") == 4);
    CHECK(sql_int(db,
                  "SELECT count(*) FROM problems WHERE code = 'read.duplicate_name' "
                  "AND run_id = 2") == 2);

    // The second occurrence changes content: the audit names that occurrence.
    write_archive(archive, ArchiveFormat::zip,
                  {{.path = "maps/x.map", .bytes = map_a},
                   {.path = "maps/y.map", .bytes = map_b},
                   {.path = "maps/x.map", .bytes = map_a},
                   {.path = "maps/x.map", .bytes = to_bytes("not a map")}});
    const auto third = index(db, {archive.string()});
    INFO(third.err);
    REQUIRE(third.exit_code == 0);
    CHECK(sql_int(db, "SELECT count(*) FROM files") == 4);
    CHECK(sql_rows(db, "SELECT file_id FROM files ORDER BY entry_path, occurrence") ==
          std::vector<Row>{{rows[0][0]}, {rows[1][0]}, {rows[2][0]}, {rows[3][0]}});
    CHECK(sql_value(db, "SELECT changed_run_id FROM files WHERE occurrence = 2") == "3");
    CHECK(sql_int(db, "SELECT count(*) FROM files WHERE changed_run_id = 3") == 1);
    const auto audit = run_process(mapindex_binary(), {"audit", "--db", db.string()});
    INFO(audit.out);
    CHECK(audit.out.find("maps/x.map (occurrence 2)") != std::string::npos);
    CHECK(audit.out.find("maps/x.map (occurrence 3)") == std::string::npos);  // unchanged
  }

}  // TEST_SUITE
