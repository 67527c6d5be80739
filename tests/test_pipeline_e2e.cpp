// End-to-end tests of `mapindex index` through the real binary: inputs of
// every kind, broken and odd entries, determinism across thread counts,
// re-runs, interruption, and the real corpus.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include "read/digest.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/spritetile_writer.h"
#include "tests/support/sqlite_probe.h"

namespace fs = std::filesystem;
using namespace mapindex::testing;
using mapindex::LayerKind;

namespace {

std::vector<std::uint8_t> small_map(int seed, bool with_game_layer = true) {
  MapBuilder b;
  b.info({.author = "e2e " + std::to_string(seed)});
  b.add_game_group();
  const int w = 20 + seed % 7, h = 12;
  TileGrid deco(LayerKind::tiles, w, h);
  deco.fill(0, h - 2, w, 2, 1);
  if (with_game_layer) {
    TileGrid game(LayerKind::game, w, h);
    game.fill(0, h - 2, w, 2, 1).set(2, h - 3, 192).set(3 + seed % 5, h - 3, 199);
    b.add_tile_layer(game, {.name = "Game"});
  }
  b.add_tile_layer(deco, {.name = "Deco"});
  return b.build();
}

std::string sha(const std::vector<std::uint8_t>& bytes) {
  return mapindex::read::digest(bytes).sha256_hex();
}

ProcessResult index(const fs::path& db, std::vector<std::string> inputs,
                    std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"index", "--db", db.string(), "--progress", "none"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), inputs.begin(), inputs.end());
  return run_mapindex(args);
}

// entry path -> (kind, sha256, status)
std::map<std::string, std::string> files_table(const fs::path& db) {
  std::map<std::string, std::string> out;
  for (const auto& r : sql_rows(db,
                                "SELECT f.entry_path, f.kind, ifnull(f.sha256,''), "
                                "ifnull(m.status,'') FROM files f LEFT JOIN maps m USING (map_id)"))
    out[r[0]] = r[1] + " " + r[2] + " " + r[3];
  return out;
}

// Every table except `runs` (timestamps, timings), rows sorted: two indexes
// of the same inputs must have equal dumps.
std::string dump_index(const fs::path& db) {
  std::string out;
  for (const auto& t :
       sql_rows(db,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                "name NOT IN ('runs') AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
    const auto cols = sql_rows(db, "SELECT count(*) FROM pragma_table_info('" + t[0] + "')");
    std::string order;
    for (int i = 1; i <= std::stoi(cols[0][0]); ++i)
      order += (i > 1 ? "," : "") + std::to_string(i);
    out += "== " + t[0] + "\n";
    for (const auto& row : sql_rows(db, "SELECT * FROM \"" + t[0] + "\" ORDER BY " + order)) {
      for (const auto& v : row) out += v + "|";
      out += "\n";
    }
  }
  return out;
}

struct Inputs {
  std::vector<ArchiveMember> members;
  std::map<std::string, std::string> expected_sha;  // path of maps -> sha256
};

Inputs three_entries() {
  Inputs in;
  auto a = small_map(1), b = small_map(2);
  in.expected_sha["maps/a.map"] = sha(a);
  in.expected_sha["maps/sub/b.map"] = sha(b);
  in.members = {{.path = "maps/a.map", .bytes = a},
                {.path = "maps/sub/b.map", .bytes = b},
                {.path = "notes.txt", .bytes = to_bytes("not a map\n")}};
  return in;
}

void check_three_entries(const fs::path& db, const std::string& prefix) {
  const auto files = files_table(db);
  REQUIRE(files.size() == 3);
  const auto in = three_entries();
  for (const auto& [path, digest] : in.expected_sha) {
    INFO("entry " << prefix + path);
    REQUIRE(files.count(prefix + path) == 1);
    CHECK(files.at(prefix + path) == "map " + digest + " ok");
  }
  REQUIRE(files.count(prefix + "notes.txt") == 1);
  CHECK(files.at(prefix + "notes.txt").rfind("other ", 0) == 0);
  CHECK(sql_int(db, "SELECT count(*) FROM maps") == 2);
  CHECK(sql_value(db, "SELECT status FROM runs ORDER BY run_id DESC LIMIT 1") == "complete");
}

}  // namespace

TEST_SUITE("pipeline") {
  TEST_CASE("pipeline e2e: index reads zip, tar, tar.gz, tar.xz, tar.zst and 7z archives alike") {
    TempDir tmp;
    for (auto format : {ArchiveFormat::zip, ArchiveFormat::tar, ArchiveFormat::tar_gz,
                        ArchiveFormat::tar_xz, ArchiveFormat::tar_zst, ArchiveFormat::seven_zip}) {
      const auto archive = tmp / ("in" + std::string(extension(format)));
      write_archive(archive, format, three_entries().members);
      const auto db = tmp / ("db" + std::string(extension(format)) + ".sqlite");
      INFO("format " << extension(format));
      const auto r = index(db, {archive.string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      check_three_entries(db, "");
      CHECK(sql_value(db, "SELECT kind FROM sources") == "archive");
    }
  }

  TEST_CASE(
      "pipeline e2e: index reads a folder recursively, a single file, stdin and nested archives") {
    TempDir tmp;
    const auto in = three_entries();
    SUBCASE("folder") {
      for (const auto& m : in.members) {
        fs::create_directories((tmp / "folder" / m.path).parent_path());
        write_file(tmp / "folder" / m.path, m.bytes);
      }
      const auto r = index(tmp / "db.sqlite", {(tmp / "folder").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      check_three_entries(tmp / "db.sqlite", "");
      CHECK(sql_value(tmp / "db.sqlite", "SELECT kind FROM sources") == "folder");
    }
    SUBCASE("stdin") {
      write_archive(tmp / "in.tar.gz", ArchiveFormat::tar_gz, in.members);
      const auto r =
          run_mapindex({"index", "--db", (tmp / "db.sqlite").string(), "--progress", "none", "-"},
                       tmp / "in.tar.gz");
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      check_three_entries(tmp / "db.sqlite", "");
      CHECK(sql_value(tmp / "db.sqlite", "SELECT kind FROM sources") == "stdin");
    }
    SUBCASE("nested: tar.gz inside zip inside tar") {
      const auto inner = build_archive(ArchiveFormat::tar_gz, in.members);
      const auto middle =
          build_archive(ArchiveFormat::zip, {{.path = "pack/inner.tar.gz", .bytes = inner}});
      write_archive(tmp / "outer.tar", ArchiveFormat::tar,
                    {{.path = "middle.zip", .bytes = middle}});
      const auto r = index(tmp / "db.sqlite", {(tmp / "outer.tar").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      check_three_entries(tmp / "db.sqlite", "middle.zip/pack/inner.tar.gz/");
    }
    SUBCASE("single map file") {
      write_file(tmp / "one.map", small_map(5));
      const auto r = index(tmp / "db.sqlite", {(tmp / "one.map").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      CHECK(files_table(tmp / "db.sqlite") ==
            std::map<std::string, std::string>{{"one.map", "map " + sha(small_map(5)) + " ok"}});
      CHECK(sql_value(tmp / "db.sqlite", "SELECT kind FROM sources") == "file");
    }
  }

  TEST_CASE(
      "pipeline e2e: a source's kind is what the reader found in it, not a second look at its first bytes") {
    TempDir tmp;
    const auto db = tmp / "db.sqlite";
    SUBCASE("a gzip-compressed map: gzip magic, but no archive libarchive opens: one file") {
      // libarchive reads gzip around a tar, 7-Zip or zip, not around a map: the
      // reader delivers the compressed bytes whole, as one entry named as the file.
      const auto gz = gzip_bytes(small_map(3));
      write_file(tmp / "one.map.gz", gz);
      const auto r = index(db, {(tmp / "one.map.gz").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      CHECK(files_table(db) ==
            std::map<std::string, std::string>{{"one.map.gz", "other " + sha(gz) + " "}});
      CHECK(sql_value(db, "SELECT kind FROM sources") == "file");
    }
    SUBCASE("a zip through a pipe (a shell's process substitution) is read whole, as an archive") {
      // The pipe can be read once: a look at its first bytes before the reader
      // takes them away from it.
      write_archive(tmp / "in.zip", ArchiveFormat::zip, three_entries().members);
      const auto r = run_process(
          "/bin/bash", {"-c", "exec \"$0\" index --db \"$1\" --progress none <(cat \"$2\")",
                        mapindex_binary(), db.string(), (tmp / "in.zip").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      check_three_entries(db, "");
      CHECK(sql_value(db, "SELECT kind FROM sources") == "archive");
    }
  }

  TEST_CASE("pipeline e2e: a truncated archive keeps what was read and records the failure") {
    TempDir tmp;
    const auto a = small_map(1), b = small_map(2);
    const auto tar =
        build_archive(ArchiveFormat::tar, {{.path = "a.map", .bytes = a},
                                           {.path = "noise.bin", .bytes = noise_bytes(64 << 10, 7)},
                                           {.path = "b.map", .bytes = b}});
    // Cut inside noise.bin: a.map is complete, b.map is gone.
    write_file(tmp / "cut.tar",
               truncated_copy(tar, 512 + ((a.size() + 511) / 512) * 512 + 512 + 1000));
    write_file(tmp / "good.map", b);
    const auto db = tmp / "db.sqlite";
    const auto r = index(db, {(tmp / "cut.tar").string(), (tmp / "good.map").string()});
    CHECK(r.exit_code == 1);  // finished with an unreadable input
    const auto files = files_table(db);
    CHECK(files.at("a.map") == "map " + sha(a) + " ok");
    CHECK(files.at("good.map") == "map " + sha(b) + " ok");  // the next input was still read
    CHECK(files.count("b.map") == 0);
    const auto problems =
        sql_rows(db,
                 "SELECT f.kind, p.code, p.message FROM problems p JOIN files f USING (file_id) "
                 "JOIN sources s USING (source_id) WHERE s.path LIKE '%cut.tar'");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0][0] == "unreadable");
    CHECK(problems[0][1].rfind("read.", 0) == 0);
    CHECK(problems[0][2].find("cut.tar") != std::string::npos);
    CHECK(sql_value(db, "SELECT unreadable FROM runs") == "1");
  }

  TEST_CASE(
      "pipeline e2e: every input and entry has a row: empty and zero inputs, links, a zip cut in its directory") {
    TempDir tmp;
    const auto db = tmp / "db.sqlite";
    // (kind, severity, code) of each row's problems, by entry path.
    const auto rows = [&] {
      std::map<std::string, std::string> out;
      for (const auto& r :
           sql_rows(db,
                    "SELECT f.entry_path, f.kind, ifnull(p.severity,''), "
                    "ifnull(p.code,'') FROM files f LEFT JOIN problems p USING (file_id)"))
        out[r[0]] += r[1] + " " + r[2] + " " + r[3];
      return out;
    };
    SUBCASE("empty and zero standard input: an error row each, exit 1") {
      write_file(tmp / "empty", std::vector<std::uint8_t>{});
      write_file(tmp / "zeros", std::vector<std::uint8_t>(1 << 20, 0));
      for (const char* input : {"empty", "zeros"}) {
        CAPTURE(input);
        fs::remove(db);
        const auto r =
            run_mapindex({"index", "--db", db.string(), "--progress", "none", "-"}, tmp / input);
        CHECK(r.exit_code == 1);
        CHECK(rows() == std::map<std::string, std::string>{{"", "unreadable error read.empty"}});
        CHECK(sql_value(db, "SELECT unreadable FROM runs") == "1");
      }
    }
    SUBCASE("links in a tar: an other row with a warning each, exit 0") {
      const auto a = small_map(3);
      write_archive(tmp / "links.tar", ArchiveFormat::tar,
                    {{.path = "a.map", .bytes = a},
                     {.path = "b.map", .type = MemberType::symlink, .link_target = "a.map"},
                     {.path = "c.map", .type = MemberType::hardlink, .link_target = "a.map"},
                     {.path = "fifo", .type = MemberType::fifo}});
      const auto r = index(db, {(tmp / "links.tar").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      CHECK(rows() ==
            std::map<std::string, std::string>{{"a.map", "map  "},
                                               {"b.map", "other warning read.not_regular"},
                                               {"c.map", "other warning read.not_regular"},
                                               {"fifo", "other warning read.not_regular"}});
    }
    SUBCASE(
        "a zip cut inside its central directory: its entries and a read.truncated row, exit 1") {
      const auto a = small_map(4), b = small_map(5);
      const auto zip = build_archive(
          ArchiveFormat::zip, {{.path = "a.map", .bytes = a}, {.path = "b.map", .bytes = b}});
      // The end record (22 bytes, no comment) gives the central directory's offset.
      const std::size_t eocd = zip.size() - 22;
      const std::size_t cd =
          zip[eocd + 16] | zip[eocd + 17] << 8 | zip[eocd + 18] << 16 | zip[eocd + 19] << 24;
      write_file(tmp / "cut.zip", truncated_copy(zip, cd + 50));
      const auto r = index(db, {(tmp / "cut.zip").string()});
      CHECK(r.exit_code == 1);
      CHECK(rows() == std::map<std::string, std::string>{{"a.map", "map  "},
                                                         {"b.map", "map  "},
                                                         {"", "unreadable error read.truncated"}});
    }
  }

  TEST_CASE("pipeline e2e: entries in flight are capped however small they are (--stats-json)") {
    TempDir tmp;
    std::vector<ArchiveMember> members;
    // Each entry its own content: what the run keeps per content must not grow either.
    for (int i = 0; i < 5000; ++i)
      members.push_back({.path = "t/" + std::to_string(i), .bytes = to_bytes(std::to_string(i))});
    write_archive(tmp / "tiny.tar", ArchiveFormat::tar, members);
    fs::create_directories(tmp / "folder" / "t");
    for (int i = 0; i < 3000; ++i)
      write_file(tmp / "folder" / members[static_cast<std::size_t>(i)].path,
                 members[static_cast<std::size_t>(i)].bytes);
    for (const auto& [input, count] :
         {std::pair{tmp / "tiny.tar", 5000}, std::pair{tmp / "folder", 3000}}) {
      CAPTURE(input);
      const auto r = index(tmp / (input.filename().string() + ".sqlite"), {input.string()},
                           {"--stats-json", (tmp / "stats.json").string(), "-j", "2"});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      const std::string json = read_text_file(tmp / "stats.json");
      const auto field = [&](const std::string& name) {
        const auto at = json.find("\"" + name + "\":");
        REQUIRE(at != std::string::npos);
        return std::stoull(json.substr(at + name.size() + 3));
      };
      CHECK(field("entries") == static_cast<unsigned long long>(count));
      CHECK(field("peak_in_flight_entries") >= 1);
      // The default cap: 64 entries per decode thread (-j 2).
      CHECK(field("max_in_flight_entries") == 128);
      CHECK(field("peak_in_flight_entries") <= 128);
      // Contents are tracked for in-run dedup only while their first entry is in flight.
      CHECK(field("peak_run_contents") >= 1);
      CHECK(field("peak_run_contents") <= 128);
      // Each entry is charged its buffer's capacity plus kEntryOverhead (2048):
      // a one-byte entry must not hold a 64 KiB read buffer.
      CHECK(field("peak_in_flight_bytes") <= 1024 * (2048 + 64));
    }
  }

  TEST_CASE("pipeline e2e: the default memory budget is what --stats-json reports") {
    // docs/guide.md, "Using it": --memory 128 MB (or twice --max-map-size when that is
    // more and --memory is not given), 64 entries in flight per decode thread,
    // at most 1024; --max-in-flight sets the cap.
    TempDir tmp;
    write_archive(
        tmp / "in.tar", ArchiveFormat::tar,
        {{.path = "a.map", .bytes = small_map(1)}, {.path = "b.map", .bytes = small_map(2)}});
    const auto stats_of = [&](const std::vector<std::string>& options) {
      std::vector<std::string> args = options;
      args.insert(args.end(), {"--stats-json", (tmp / "stats.json").string()});
      fs::remove(tmp / "db.sqlite");
      const auto r = index(tmp / "db.sqlite", {(tmp / "in.tar").string()}, args);
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
      const std::string json = read_text_file(tmp / "stats.json");
      return [json](const std::string& name) {
        const auto at = json.find("\"" + name + "\":");
        REQUIRE(at != std::string::npos);
        return std::stoull(json.substr(at + name.size() + 3));
      };
    };
    constexpr unsigned long long kMiB = 1ull << 20;
    for (const unsigned threads : {1u, 2u, 3u, 64u, 100u}) {
      CAPTURE(threads);
      const auto field = stats_of({"-j", std::to_string(threads)});
      CHECK(field("memory_budget_bytes") == 128 * kMiB);
      CHECK(field("decode_threads") == threads);
      CHECK(field("max_in_flight_entries") == std::min(64ull * threads, 1024ull));
      CHECK(field("peak_in_flight_entries") <= field("max_in_flight_entries"));
    }
    // -j 0: all cores, and the cap follows them.
    const auto all = stats_of({"-j", "0"});
    CHECK(all("decode_threads") == std::max(1u, std::thread::hardware_concurrency()));
    CHECK(all("max_in_flight_entries") == std::min(64ull * all("decode_threads"), 1024ull));
    // A larger --max-map-size raises the default budget to twice it.
    CHECK(stats_of({"--max-map-size", "100"})("memory_budget_bytes") == 200 * kMiB);
    CHECK(stats_of({"--max-map-size", "10"})("memory_budget_bytes") == 128 * kMiB);
    // Given values win.
    const auto given = stats_of({"--memory", "20", "--max-map-size", "10", "--max-in-flight", "3"});
    CHECK(given("memory_budget_bytes") == 20 * kMiB);
    CHECK(given("max_in_flight_entries") == 3);
    CHECK(given("peak_in_flight_entries") <= 3);
    // A given --memory below twice --max-map-size is a usage error naming both.
    const auto r = index(tmp / "db.sqlite", {(tmp / "in.tar").string()},
                         {"--memory", "150", "--max-map-size", "100"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--memory (150 MB) must be at least twice --max-map-size (100 MB)") !=
          std::string::npos);
    CHECK(r.err.find("--memory 200") != std::string::npos);
  }

  TEST_CASE(
      "pipeline e2e: oversize entries are skipped unread with a problem row, maps failing checks are rejected") {
    TempDir tmp;
    const auto good = small_map(1), no_game = small_map(2, false);
    write_archive(tmp / "in.zip", ArchiveFormat::zip,
                  {{.path = "big.map", .bytes = noise_bytes(3 << 20, 1)},
                   {.path = "good.map", .bytes = good},
                   {.path = "nogame.map", .bytes = no_game}});
    const auto db = tmp / "db.sqlite";
    const auto r = index(db, {(tmp / "in.zip").string()}, {"--max-map-size", "1", "--memory", "8"});
    CHECK(r.exit_code == 1);  // a rejected map
    const auto files = files_table(db);
    CHECK(files.at("big.map") == "oversize  ");
    CHECK(files.at("good.map") == "map " + sha(good) + " ok");
    CHECK(files.at("nogame.map") == "map " + sha(no_game) + " rejected");
    CHECK(
        sql_value(
            db,
            "SELECT p.code FROM problems p JOIN files f USING (file_id) WHERE f.entry_path = 'big.map'") ==
        "entry.oversize");
    CHECK(sql_value(db,
                    "SELECT p.code FROM problems p JOIN maps m USING (map_id) WHERE m.sha256 = '" +
                        sha(no_game) + "' AND p.severity = 'error'") == "M10");
    CHECK(r.out.find("rejected                   1") != std::string::npos);
    // A re-run only hashes, but still reports the rejected map and exits 1.
    const auto again =
        index(db, {(tmp / "in.zip").string()}, {"--max-map-size", "1", "--memory", "8"});
    CHECK(again.exit_code == 1);
    CHECK(sql_rows(db, "SELECT maps_indexed, maps_known, rejected FROM runs WHERE run_id = 2") ==
          std::vector<Row>{{"0", "2", "1"}});
  }

  TEST_CASE("pipeline e2e: the same inputs with 1 and 2 threads give identical tables") {
    TempDir tmp;
    std::vector<ArchiveMember> members;
    for (int i = 0; i < 40; ++i)
      members.push_back(
          {.path = "maps/m" + std::to_string(i) + ".map", .bytes = small_map(i, i % 9 != 0)});
    members.push_back({.path = "maps/copy-of-m3.map", .bytes = small_map(3)});
    members.push_back({.path = "junk.bin", .bytes = noise_bytes(5000, 3)});
    members.push_back({.path = "race.map",
                       .bytes = make_realistic_ddnet_map({.width = 120, .height = 60, .seed = 9})});
    write_archive(tmp / "in.zip", ArchiveFormat::zip, members);
    const auto r1 = index(tmp / "one.sqlite", {(tmp / "in.zip").string()}, {"--threads", "1"});
    const auto r2 =
        index(tmp / "two.sqlite", {(tmp / "in.zip").string()}, {"--threads", "2", "--batch", "3"});
    CHECK(r1.exit_code == 1);  // maps without a game layer are rejected
    CHECK(r2.exit_code == 1);
    const auto d1 = dump_index(tmp / "one.sqlite"), d2 = dump_index(tmp / "two.sqlite");
    CHECK(d1.size() > 1000);
    CHECK(d1 == d2);
  }

  TEST_CASE("pipeline e2e: a second run only hashes, and entries gone from a source are visible") {
    TempDir tmp;
    fs::create_directories(tmp / "maps");
    for (int i = 0; i < 5; ++i)
      write_file(tmp / "maps" / ("m" + std::to_string(i) + ".map"), small_map(i + 1));
    const auto db = tmp / "db.sqlite";
    REQUIRE(index(db, {(tmp / "maps").string()}).exit_code == 0);
    const auto dump1 = dump_index(db);
    const auto r2 = index(db, {(tmp / "maps").string()});
    CHECK(r2.exit_code == 0);
    CHECK(sql_rows(db, "SELECT maps_indexed, maps_known FROM runs WHERE run_id = 2") ==
          std::vector<Row>{{"0", "5"}});
    CHECK(sql_int(db, "SELECT count(*) FROM files WHERE last_run_id = 2") == 5);
    CHECK(sql_int(db, "SELECT count(*) FROM maps") == 5);
    // The re-run wrote each known entry with the map the index holds for its
    // content (the writer takes the id the run read from the index).
    CHECK(sql_int(db,
                  "SELECT count(*) FROM file_sightings h "
                  "JOIN files f ON f.file_id = h.file_id "
                  "JOIN file_versions v ON v.version_id = h.version_id "
                  "JOIN maps m ON m.map_id = f.map_id AND m.map_id = v.map_id "
                  "WHERE h.run_id = 2 AND m.sha256 = f.sha256 AND m.sha256 = v.sha256") == 5);
    fs::remove(tmp / "maps" / "m0.map");
    write_file(tmp / "maps" / "m1.map", small_map(42));  // changed content
    CHECK(index(db, {(tmp / "maps").string()}).exit_code == 0);
    CHECK(sql_rows(db, "SELECT maps_indexed, maps_known FROM runs WHERE run_id = 3") ==
          std::vector<Row>{{"1", "3"}});
    CHECK(sql_value(db, "SELECT last_run_id FROM files WHERE entry_path = 'm0.map'") == "2");
    CHECK(sql_value(db, "SELECT in_latest_run FROM file_overview WHERE entry_path = 'm0.map'") ==
          "0");
    CHECK(sql_value(db, "SELECT sha256 FROM files WHERE entry_path = 'm1.map'") ==
          sha(small_map(42)));
    CHECK(dump1 != dump_index(db));
  }

  TEST_CASE(
      "pipeline e2e: an interrupted run (SIGINT, SIGINT twice, SIGKILL) resumes to the index of an uninterrupted run") {
    TempDir tmp;
    // Many large maps, each with its own content (content seen twice in a run is
    // decoded once), made cheaply as variants of one generated map that differ
    // in a layer name: each is decoded (slow enough to interrupt), and a re-run
    // recognises the content at once. If a run ends before the signal lands (a
    // fast or idle machine), the input grows and the attempt is repeated: the
    // test never passes without an interruption.
    fs::create_directories(tmp / "maps");
    write_file(tmp / "maps" / "small.map", small_map(1));
    const MapVariants big(make_realistic_ddnet_map(
        {.width = 1000, .height = 700, .seed = 4, .decoration_layers = 4}));
    int copies = 0;
    auto add_copies = [&](int n) {
      for (int i = 0; i < n; ++i, ++copies)
        write_file(tmp / "maps" / ("copy" + std::to_string(10000 + copies) + ".map"),
                   big.variant("v" + std::to_string(copies)));
    };
    add_copies(150);

    constexpr int kTwice = 0;  // SIGINT, and a second one while entries are being finished
    for (int mode : {SIGINT, kTwice, SIGKILL}) {
      const int sig = mode == kTwice ? SIGINT : mode;
      const std::string what = "signal " + std::to_string(sig) + (mode == kTwice ? " twice" : "");
      INFO(what);
      bool interrupted = false;
      for (int attempt = 0; attempt < 4 && !interrupted; ++attempt) {
        if (attempt > 0) add_copies(copies * 2);
        const auto db =
            tmp / ("run" + std::to_string(mode) + "-" + std::to_string(attempt) + ".sqlite");
        // The variants share their tile layers, so with the layer cache the
        // entries in flight after the first Ctrl-C finish in a few
        // milliseconds; the second Ctrl-C must find them still working, so
        // that run measures every layer (the resumed run uses the cache), it
        // lets 256 entries be in flight (the default at -j 1 is 64), and the
        // second Ctrl-C comes as soon as the first was handled (a fixed
        // 100 ms after it was too late once measuring kept up with reading).
        std::vector<std::string> args = {"index",     "--db", db.string(), "--progress", "none",
                                         "--threads", "1",    "--batch",   "2"};
        if (mode == kTwice) args.insert(args.end(), {"--no-layer-cache", "--max-in-flight", "256"});
        args.push_back((tmp / "maps").string());
        BackgroundProcess p(mapindex_binary(), args, tmp.path());
        // Wait until some entries are committed, then interrupt.
        std::int64_t committed = 0;
        for (int i = 0; i < 3000 && committed < 3; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          try {
            committed = sql_int(db, "SELECT count(*) FROM files");
          } catch (const std::exception&) {
          }
        }
        p.signal(sig);
        if (mode == kTwice) {
          for (int i = 0;
               i < 2000 && p.err_so_far().find("mapindex: finishing ") == std::string::npos; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          p.signal(SIGINT);
        }
        const auto r = p.wait();
        if (sql_int(db, "SELECT count(*) FROM files") == copies + 1 ||
            (mode == kTwice && r.err.find("interrupted again") == std::string::npos)) {
          MESSAGE("run finished before the signal with " << copies << " copies; growing the input");
          continue;
        }
        interrupted = true;
        if (sig == SIGINT) {
          // The first Ctrl-C says what the run is doing.
          CHECK_MESSAGE(r.err.find("mapindex: finishing ") != std::string::npos, r.err);
          CHECK_MESSAGE(
              r.err.find(" entries in flight (Ctrl-C again to abort)\n") != std::string::npos,
              r.err);
          CHECK(r.exit_code == 130);
        }
        if (mode == SIGINT) {
          CHECK(sql_value(db, "SELECT status FROM runs WHERE run_id = 1") == "interrupted");
        } else if (mode == kTwice) {
          CHECK(r.out.empty());  // no summary: it stopped at once
          // The second Ctrl-C came while entries were still being finished.
          const auto at = r.err.find("mapindex: finishing ");
          REQUIRE(at != std::string::npos);
          CHECK(std::stoll(r.err.substr(at + std::string("mapindex: finishing ").size())) > 0);
        } else {
          CHECK(r.exit_code == 128 + SIGKILL);
        }
        CHECK(sql_value(db, "PRAGMA integrity_check") == "ok");
        const auto again = index(db, {(tmp / "maps").string()});
        CHECK_MESSAGE(again.exit_code == 0, again.err);
        CHECK(sql_value(db, "SELECT status FROM runs ORDER BY run_id DESC LIMIT 1") == "complete");
        if (mode != SIGINT)  // the killed or aborted run is marked interrupted by the next one
          CHECK(sql_value(db, "SELECT status FROM runs WHERE run_id = 1") == "interrupted");
        const auto reference = tmp / ("reference-" + std::to_string(copies) + ".sqlite");
        if (!fs::exists(reference))
          REQUIRE(index(reference, {(tmp / "maps").string()}).exit_code == 0);
        CHECK(files_table(db) == files_table(reference));
        CHECK(sql_rows(
                  db, "SELECT sha256, status, game_width, game_height FROM maps ORDER BY sha256") ==
              sql_rows(reference,
                       "SELECT sha256, status, game_width, game_height FROM maps ORDER BY sha256"));
        CHECK(
            sql_rows(
                db,
                "SELECT m.sha256, t.layer_index, t.tile, t.count FROM tile_counts t JOIN maps m USING (map_id) ORDER BY 1, 2, 3") ==
            sql_rows(
                reference,
                "SELECT m.sha256, t.layer_index, t.tile, t.count FROM tile_counts t JOIN maps m USING (map_id) ORDER BY 1, 2, 3"));
      }
      REQUIRE_MESSAGE(interrupted, "no attempt was interrupted before it finished");
    }
  }

  TEST_CASE("pipeline e2e: the same content under several names in one run is decoded once") {
    TempDir tmp;
    const auto map = small_map(7);
    const auto text = to_bytes("not a map, twice");
    std::vector<ArchiveMember> members = {{.path = "a.map", .bytes = map},
                                          {.path = "notes1.txt", .bytes = text},
                                          {.path = "sub/b.map", .bytes = map},
                                          {.path = "notes2.txt", .bytes = text},
                                          {.path = "café/c.map", .bytes = map}};
    write_archive(tmp / "three.zip", ArchiveFormat::zip, members);
    // mapindex started in the C locale (inherited by the child).
    const char* lc_all = std::getenv("LC_ALL");
    const std::string lc_all_before = lc_all ? lc_all : "";
    ::setenv("LC_ALL", "C", 1);
    struct Restore {
      bool had;
      std::string value;
      ~Restore() { had ? ::setenv("LC_ALL", value.c_str(), 1) : ::unsetenv("LC_ALL"); }
    } restore{lc_all != nullptr, lc_all_before};
    for (const char* threads : {"1", "2"}) {
      CAPTURE(threads);
      const auto db = tmp / (std::string("db") + threads + ".sqlite");
      const auto stats = tmp / (std::string("stats") + threads + ".json");
      const auto r =
          run_mapindex({"index", "--db", db.string(), "--progress", "none", "-j", threads,
                        "--stats-json", stats.string(), (tmp / "three.zip").string()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      const auto count_after = [&](const std::string& label) {
        const auto at = r.out.find("  " + label + " ");
        REQUIRE_MESSAGE(at != std::string::npos, r.out);
        return std::stoull(r.out.substr(at + label.size() + 3));
      };
      CHECK(count_after("maps indexed") == 1);
      CHECK(count_after("already known") == 0);
      CHECK(count_after("same content") == 2);
      CHECK(count_after("not maps") == 2);
      const std::string json = read_text_file(stats);
      const auto field = [&](const std::string& name) {
        const auto at = json.find("\"" + name + "\":");
        REQUIRE(at != std::string::npos);
        return std::stoull(json.substr(at + name.size() + 3));
      };
      // One compact line, the figures in this order (benchmarks/run.sh reads it).
      CHECK(json.find_first_of(" \n") == json.size() - 1);
      std::vector<std::string> keys;
      for (auto at = json.find('"'); at != std::string::npos;
           at = json.find('"', json.find('"', at + 1) + 1)) {
        const auto end = json.find('"', at + 1);
        if (json.compare(end + 1, 1, ":") == 0) keys.push_back(json.substr(at + 1, end - at - 1));
      }
      CHECK(keys == std::vector<std::string>{"run_id",
                                             "interrupted",
                                             "seconds",
                                             "cpu_seconds",
                                             "writer_seconds",
                                             "batches",
                                             "peak_batch_bytes",
                                             "peak_in_flight_bytes",
                                             "peak_in_flight_entries",
                                             "max_in_flight_entries",
                                             "decode_threads",
                                             "peak_run_contents",
                                             "index_check",
                                             "memory_budget_bytes",
                                             "entries",
                                             "bytes",
                                             "maps_indexed",
                                             "maps_known",
                                             "maps_same_in_run",
                                             "maps_measured",
                                             "layers_measured",
                                             "layers_reused_run",
                                             "layers_reused_index",
                                             "thumbnails_reused",
                                             "rejected",
                                             "not_maps",
                                             "unreadable",
                                             "zip_members_read",
                                             "tar_members_read"});
      CHECK(json.rfind("{\"run_id\":", 0) == 0);
      CHECK(json.find("\"interrupted\":false,") != std::string::npos);
      CHECK(json.find("\"index_check\":\"created\",") != std::string::npos);  // a new index
      // Names as written, UTF-8 (mapindex reads in C.UTF-8 whatever the
      // locale it is started in).
      CHECK(sql_int(db, "SELECT count(*) FROM files WHERE entry_path = 'sub/b.map'") == 1);
      CHECK(sql_int(db, "SELECT count(*) FROM files WHERE entry_path = 'café/c.map'") == 1);
      CHECK(field("maps_measured") == 1);  // the map is decoded once (the text is no map)
      // Its five members (folders have no data) inflated by mapindex, not libarchive.
      CHECK(field("zip_members_read") == 5);
      CHECK(field("tar_members_read") == 0);  // no tar
      CHECK(field("maps_indexed") == 1);
      CHECK(field("maps_same_in_run") == 2);
      CHECK(sql_rows(db, "SELECT maps_indexed, maps_known FROM runs") ==
            std::vector<Row>{{"1", "2"}});
      CHECK(sql_int(db, "SELECT count(*) FROM maps") == 1);
      CHECK(sql_int(db, "SELECT count(*) FROM files WHERE kind = 'map' AND sha256 = '" + sha(map) +
                            "'") == 3);
    }
    CHECK(files_table(tmp / "db1.sqlite") == files_table(tmp / "db2.sqlite"));
    // The same members in a tar file: their data read by mapindex (pread),
    // not through libarchive.
    write_archive(tmp / "three.tar", ArchiveFormat::tar, members);
    const auto r =
        run_mapindex({"index", "--db", (tmp / "tar.sqlite").string(), "--progress", "none",
                      "--stats-json", (tmp / "tar.json").string(), (tmp / "three.tar").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    const std::string json = read_text_file(tmp / "tar.json");
    CHECK(json.find("\"zip_members_read\":0,\"tar_members_read\":5}") != std::string::npos);
    CHECK(sql_int(tmp / "tar.sqlite", "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE(
      "pipeline corpus: the whole corpus from one zip: every map is indexed or has a problem row") {
    const auto maps = corpus_files("maps", ".map");
    if (maps.empty()) {
      report_corpus_missing("maps", "indexing the corpus end to end");
      return;
    }
    TempDir tmp;
    std::vector<ArchiveMember> members;
    std::set<std::string> shas;
    for (const auto& m : maps) {
      members.push_back({.path = "corpus/" + m.filename().string(), .bytes = read_file(m)});
      shas.insert(sha(members.back().bytes));
    }
    write_archive(tmp / "corpus.zip", ArchiveFormat::zip, members);
    const auto db = tmp / "db.sqlite";
    const auto r = index(db, {(tmp / "corpus.zip").string()});
    CHECK(r.exit_code == 1);  // the corpus holds rejected maps
    CHECK(sql_int(db, "SELECT count(*) FROM files") == static_cast<std::int64_t>(maps.size()));
    CHECK(sql_int(db, "SELECT count(*) FROM files WHERE kind = 'map'") ==
          static_cast<std::int64_t>(maps.size()));
    CHECK(sql_int(db, "SELECT count(*) FROM maps") == static_cast<std::int64_t>(shas.size()));
    CHECK(
        sql_int(db,
                "SELECT count(*) FROM maps m WHERE status = 'rejected' AND NOT EXISTS "
                "(SELECT 1 FROM problems p WHERE p.map_id = m.map_id AND p.severity = 'error')") ==
        0);
    const auto rejected = sql_int(db, "SELECT count(*) FROM maps WHERE status = 'rejected'");
    MESSAGE("corpus: " << maps.size() << " maps, " << rejected << " rejected");
    CHECK(rejected >= 3);  // the manifest's FAIL maps at least
  }

  TEST_CASE(
      "pipeline corpus: SpriteTile levels and Teeworlds maps are indexed together from one zip") {
    TempDir tmp;
    StLayer layer;
    layer.width = 6;
    layer.height = 3;
    layer.cells.resize(18);
    layer.cells[0] = {.tile = 1030, .misc = 0x8000 | 0x1000, .order = 2, .trigger = 4};
    layer.cells[7] = {.tile = 5, .misc = 0, .order = -1, .trigger = 0};
    const auto level_le =
        SpriteTileWriter(false).layers({layer}).numsets(32).editor_tags().compressed();
    const auto level_be =
        SpriteTileWriter(true).layers({layer}).numsets(32).editor_tags().compressed();
    const auto groups = SpriteTileWriter(false).groups_tags().compressed();
    std::vector<ArchiveMember> members = {{.path = "Level.bytes", .bytes = level_le},
                                          {.path = "LevelBE.bytes", .bytes = level_be},
                                          {.path = "TileGroups.bytes", .bytes = groups},
                                          {.path = "a.map", .bytes = small_map(1)}};
    std::size_t corpus_levels = 0;
    for (const auto& f : corpus_files("spritetile", ".bytes")) {
      members.push_back({.path = "corpus/" + f.filename().string(), .bytes = read_file(f)});
      ++corpus_levels;
    }
    if (corpus_levels == 0) report_corpus_missing("spritetile", "real levels in the mixed zip");
    write_archive(tmp / "mixed.zip", ArchiveFormat::zip, members);
    const auto db = tmp / "db.sqlite";
    const auto r = index(db, {(tmp / "mixed.zip").string()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    const auto files = files_table(db);
    CHECK(files.at("Level.bytes") == "map " + sha(level_le) + " ok");
    CHECK(files.at("a.map") == "map " + sha(small_map(1)) + " ok");
    CHECK(files.at("TileGroups.bytes").rfind("other ", 0) == 0);  // a groups file is not a level
    // Both byte orders give the same rows.
    const std::string layer_sql =
        "SELECT l.width, l.height, l.non_empty, l.flip_x, l.st_colliders, l.st_order_min, l.st_order_max "
        "FROM layers l JOIN files f USING (map_id) WHERE f.entry_path = ";
    CHECK(sql_rows(db, layer_sql + "'Level.bytes'") ==
          std::vector<Row>{{"6", "3", "2", "1", "1", "-1", "2"}});
    CHECK(sql_rows(db, layer_sql + "'Level.bytes'") == sql_rows(db, layer_sql + "'LevelBE.bytes'"));
    CHECK(sql_rows(db,
                   "SELECT t.tile, t.count FROM tile_counts t JOIN files f USING (map_id) "
                   "WHERE f.entry_path = 'Level.bytes' ORDER BY t.tile") ==
          std::vector<Row>{{"5", "1"}, {"1030", "1"}});
    CHECK(sql_value(db,
                    "SELECT m.tiles_per_set FROM maps m JOIN files f USING (map_id) "
                    "WHERE f.entry_path = 'Level.bytes'") == "1024");
    if (corpus_levels > 0) {
      // Every real level is a map; only the groups file is not.
      CHECK(
          sql_int(
              db,
              "SELECT count(*) FROM files WHERE entry_path LIKE 'corpus/%' AND kind = 'map' "
              "AND map_id IN (SELECT map_id FROM maps WHERE format = 'spritetile' AND status = 'ok')") ==
          static_cast<std::int64_t>(corpus_levels) - 1);
      CHECK(sql_int(
                db,
                "SELECT count(*) FROM files WHERE entry_path LIKE 'corpus/%' AND kind = 'other'") ==
            1);
    }
  }

  TEST_CASE("pipeline e2e: help lists every option with its default, usage errors exit 2") {
    const auto r = run_mapindex({"index", "--help"});
    CHECK(r.exit_code == 0);
    for (const char* opt : {"--db", "--threads", "--memory", "--max-in-flight", "--max-map-size",
                            "--max-nesting", "--batch", "--reindex", "--progress", "--quiet"})
      CHECK_MESSAGE(r.out.find(opt) != std::string::npos, opt);
    CHECK(r.out.find("--memory MB (=128)") != std::string::npos);
    CHECK(r.out.find("64 per decode thread") != std::string::npos);
    CHECK(r.out.find("--batch N (=2000)") != std::string::npos);
    CHECK(r.out.find("200 ms at least") != std::string::npos);
    CHECK(r.out.find("1000 ms at most") != std::string::npos);
    CHECK(r.out.find("64 MiB") != std::string::npos);
    CHECK(run_mapindex({"--help"}).out.find("index") != std::string::npos);
    CHECK(run_mapindex({"index"}).exit_code == 2);
    CHECK(run_mapindex({"index", "--no-such-option", "x"}).exit_code == 2);
    CHECK(run_mapindex({"frobnicate"}).exit_code == 2);
    const auto q = run_mapindex({"query", "--db", "/nonexistent/x.sqlite", "SELECT 1"});
    CHECK(q.exit_code == 2);
    CHECK(q.err.find("/nonexistent/x.sqlite") != std::string::npos);
  }

}  // TEST_SUITE
