// The static site (`mapindex site`): the pages of an archive through the real
// binary (every current entry listed, a page per content, images that are
// files of the site, nothing from outside it, hostile and non-UTF-8 names
// escaped), a re-run that writes only what changed and removes what no page
// needs, a folder holding files the site did not write, a map whose source is
// gone, the list's paging, and the pages in a real browser: headless Chromium
// loads them, filters by the URL's fragment, sorts, and every image loads.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/utf8.h"
#include "site/site_html.h"
#include "tests/support/archive_builder.h"
#include "tests/support/browser.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/png_probe.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::testing;

namespace {

using Strings = std::vector<std::string>;

// A map of w x h tiles: a floor, freeze, a spawn; a design layer with `design`.
std::vector<std::uint8_t> sized_map(int w, int h, const std::string& author, bool design = false) {
  MapBuilder b;
  b.info({.author = author});
  if (design) {
    b.add_group({});
    TileGrid deco(LayerKind::tiles, w, h);
    deco.fill(0, 0, w, 2, 1);
    b.add_tile_layer(deco, {.name = "Sky"});
  }
  b.add_game_group();
  TileGrid game(LayerKind::game, w, h);
  game.fill(0, h - 2, w, 2, 1).fill(3, h - 3, 4, 1, 9).set(1, h - 3, 192);
  b.add_tile_layer(game, {.name = "Game"});
  return b.build();
}

const std::string kHostileEntry = "maps/<script>alert(1)</script>.map";
const std::string kHostileAuthor = "<img src=x onerror=alert(2)> \xff\xfe";
const std::string kRawEntry = "maps/caf\xe9.map";  // Latin-1, not UTF-8

struct Fixture {
  TempDir dir;
  fs::path db = dir / "index.sqlite", archive = dir / "maps.zip", folder = dir / "more";
  std::vector<std::uint8_t> broken_source = sized_map(26, 10, "broken");

  // Run 1: keep (20x10, a design layer), change (30x12), the hostile name
  // (18x9), the non-UTF-8 name (16x8), gone (22x11), broken (cut short) in
  // maps.zip; folder.map (24x12) in the folder more/.
  void first_run() {
    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/keep.map", sized_map(20, 10, "keep", true)},
                   {"maps/change.map", sized_map(30, 12, "change")},
                   {kHostileEntry, sized_map(18, 9, kHostileAuthor)},
                   {kRawEntry, sized_map(16, 8, "cafe"), MemberType::file, "", true},
                   {"maps/gone.map", sized_map(22, 11, "gone")},
                   {"maps/broken.map", truncated_copy(broken_source, broken_source.size() - 100)}});
    fs::create_directories(folder);
    write_file(folder / "folder.map", sized_map(24, 12, "folder"));
    index_both();
  }
  // Run 2: change.map changed (40x16), gone.map removed.
  void second_run() {
    write_archive(archive, ArchiveFormat::zip,
                  {{"maps/keep.map", sized_map(20, 10, "keep", true)},
                   {"maps/change.map", sized_map(40, 16, "change")},
                   {kHostileEntry, sized_map(18, 9, kHostileAuthor)},
                   {kRawEntry, sized_map(16, 8, "cafe"), MemberType::file, "", true},
                   {"maps/broken.map", truncated_copy(broken_source, broken_source.size() - 100)}});
    index_both();
  }
  void index_both() {
    const auto r = run_mapindex({"index", "--db", db.string(), "--progress", "none", "--quiet",
                                 archive.string(), folder.string()});
    REQUIRE_MESSAGE(r.exit_code <= 1, r.err);
  }
  ProcessResult site(const fs::path& out) {
    return run_mapindex(
        {"site", "--db", db.string(), "--out", out.string(), "--title", "Test maps"});
  }
  std::string sha_of(const std::string& entry) {
    return sql_value(db, "SELECT sha256 FROM current_maps WHERE entry_path = '" + entry + "'");
  }
};

// Every file under `dir` (relative path -> bytes).
std::map<std::string, std::string> files_of(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file())
      out[e.path().lexically_relative(dir).string()] = read_text_file(e.path());
  return out;
}

// Each file's inode: an atomic write replaces it with a new one.
std::map<std::string, ino_t> inodes_of(const fs::path& dir) {
  std::map<std::string, ino_t> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    if (e.is_regular_file() && ::stat(e.path().c_str(), &st) == 0)
      out[e.path().lexically_relative(dir).string()] = st.st_ino;
  }
  return out;
}

// The values of attribute `name` in the tags <tag ...> of `html`.
Strings attributes(const std::string& html, const std::string& tag, const std::string& name) {
  Strings out;
  for (auto at = html.find("<" + tag + " "); at != std::string::npos;
       at = html.find("<" + tag + " ", at + 1)) {
    const auto end = html.find('>', at);
    const std::string t = html.substr(at, end - at);
    const auto a = t.find(" " + name + "=\"");
    if (a == std::string::npos) continue;
    const auto start = a + name.size() + 3;
    out.push_back(t.substr(start, t.find('"', start) - start));
  }
  return out;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

TEST_SUITE("site") {
  TEST_CASE("site e2e: every current entry, a page per content, local images, names escaped") {
    Fixture f;
    f.first_run();
    const fs::path out = f.dir / "site";
    const auto r = f.site(out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(contains(r.out, "7 map entries, 7 map pages"));
    const auto files = files_of(out);
    for (const char* name : {"index.html", "problems.html", "maps.json", ".mapindex-site"})
      CHECK_MESSAGE(files.count(name), name);

    // One page per distinct current content, named by its SHA-256.
    Strings shas;
    std::istringstream listed(
        sql_value(f.db,
                  "SELECT group_concat(sha256, ' ') FROM (SELECT DISTINCT sha256 FROM "
                  "current_maps)"));
    for (std::string sha; listed >> sha;) shas.push_back(sha);
    REQUIRE(shas.size() == 7);
    std::size_t pages = 0;
    for (const auto& [path, bytes] : files) pages += path.rfind("maps/", 0) == 0;
    CHECK(pages == shas.size());
    for (const auto& sha : shas) CHECK_MESSAGE(files.count("maps/" + sha + ".html"), sha);

    const std::string& index = files.at("index.html");
    CHECK(count_of(index, "<tr data-status=") == 7);
    for (const auto& [path, bytes] : files) {
      if (!path.ends_with(".html") && !path.ends_with(".json")) continue;
      INFO(path);
      // Valid UTF-8 (the non-UTF-8 name and author are U+FFFD), nothing from outside.
      CHECK(is_valid_utf8(bytes));
      CHECK_FALSE(contains(bytes, "http://"));
      CHECK_FALSE(contains(bytes, "https://"));
      CHECK_FALSE(contains(lower(bytes), "<link"));
      if (path.ends_with(".html")) {
        // The hostile path and author only as text.
        CHECK_FALSE(contains(bytes, "<script>alert"));
        CHECK_FALSE(contains(bytes, "<img src=x"));
        // The list pages have the one script of their own; other pages none.
        CHECK(count_of(lower(bytes), "<script") == (path.rfind("index", 0) == 0 ? 1u : 0u));
      }
      // Every image and link is a file of the site.
      const fs::path base = fs::path(path).parent_path();
      for (const auto& src : attributes(bytes, "img", "src")) {
        const auto target = (base / src).lexically_normal().string();
        CHECK_MESSAGE(files.count(target), src);
      }
      for (const auto& href : attributes(bytes, "a", "href")) {
        const auto target = (base / href.substr(0, href.find('#'))).lexically_normal().string();
        CHECK_MESSAGE(files.count(target), href);
      }
    }
    CHECK(contains(index, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    CHECK(contains(index, "caf\xef\xbf\xbd"));  // U+FFFD for the Latin-1 byte
    const std::string hostile_page = files.at("maps/" + f.sha_of(kHostileEntry) + ".html");
    CHECK(contains(hostile_page, "&lt;img src=x onerror=alert(2)&gt; \xef\xbf\xbd\xef\xbf\xbd"));
    // (Its name is what follows the path's last slash: "script>".)
    CHECK(contains(hostile_page, "<h1>script&gt;</h1>"));
    CHECK(contains(hostile_page, "<code>maps/&lt;script&gt;alert(1)&lt;/script&gt;.map</code>"));
    CHECK(contains(files.at("maps.json"), "\"entry_path\":\"maps/<script>alert(1)</script>.map\""));

    // Minimaps: one pixel per tile, drawn from the zip and from the folder;
    // the physics one is the stored thumbnail's picture.
    for (const auto& [entry, w, h] : std::vector<std::tuple<std::string, int, int>>{
             {"maps/keep.map", 20, 10}, {"maps/change.map", 30, 12}, {"folder.map", 24, 12}}) {
      INFO(entry);
      const std::string sha = f.sha_of(entry);
      const auto all = decode_png(files.at("minimaps/" + sha + "-all.png"));
      const auto physics = decode_png(files.at("minimaps/" + sha + "-physics.png"));
      const auto thumb = decode_png(files.at("thumbs/" + sha + ".png"));
      REQUIRE((all && physics && thumb));
      CHECK(all->width == static_cast<std::uint32_t>(w));
      CHECK(all->height == static_cast<std::uint32_t>(h));
      CHECK(physics->rgb == thumb->rgb);
      CHECK((all->rgb != physics->rgb) == (entry == "maps/keep.map"));  // keep has a design layer
      CHECK(contains(files.at("maps/" + sha + ".html"), "drawn from the map file"));
    }
    // The broken map has nothing to draw, and says so; its problem is there with its title.
    const std::string broken = files.at("maps/" + f.sha_of("maps/broken.map") + ".html");
    CHECK(contains(broken, "No picture"));
    CHECK(contains(broken, "<code>H5</code> file cut short or too long"));
    CHECK(contains(files.at("problems.html"), "<code>H5</code> file cut short or too long"));
    CHECK(contains(index, "<code>H5</code> file cut short or too long"));
    // The map page's sections.
    for (const char* section : {"minimap", "info", "verdicts", "problems", "layers", "tiles",
                                "entities", "images", "envelopes", "sounds", "entries", "versions"})
      CHECK_MESSAGE(contains(hostile_page, std::string("<section class=\"") + section + "\">"),
                    section);
    CHECK(contains(hostile_page, "<code>FREEZE</code>"));  // the tile histogram's names
  }

  TEST_CASE("site e2e: a re-run writes only what changed, removes what no page needs") {
    Fixture f;
    f.first_run();
    const fs::path out = f.dir / "site";
    REQUIRE(f.site(out).exit_code == 0);
    write_file(out / "notes.txt", to_bytes("mine"));  // not the site's
    const auto before = files_of(out);
    const auto inodes = inodes_of(out);
    // Nothing changed: nothing written.
    const auto same = f.site(out);
    // (the files but notes.txt and the manifest)
    CHECK(contains(same.out, "0 of " + std::to_string(before.size() - 2) + " files written"));
    CHECK(inodes_of(out) == inodes);

    const std::string old_change = f.sha_of("maps/change.map"), gone = f.sha_of("maps/gone.map");
    f.second_run();
    const std::string new_change = f.sha_of("maps/change.map");
    REQUIRE(new_change != old_change);
    const auto r = f.site(out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto after = files_of(out);
    const auto inodes_after = inodes_of(out);
    std::set<std::string> written, removed;
    for (const auto& [path, ino] : inodes_after)
      if (!inodes.count(path) || inodes.at(path) != ino) written.insert(path);
    for (const auto& [path, bytes] : before)
      if (!after.count(path)) removed.insert(path);
    // The changed map's new page and pictures, its old version's page (which
    // now links the new one), the list and maps.json.
    std::set<std::string> expected = {"maps/" + new_change + ".html",
                                      "thumbs/" + new_change + ".png",
                                      "minimaps/" + new_change + "-all.png",
                                      "minimaps/" + new_change + "-physics.png",
                                      "maps/" + old_change + ".html",
                                      "index.html",
                                      "maps.json",
                                      ".mapindex-site"};
    if (before.at("problems.html") != after.at("problems.html")) expected.insert("problems.html");
    CHECK(written == expected);
    // The removed map's files go; the old version of change.map keeps its
    // page and pictures; the file the site did not write stays.
    CHECK(removed == std::set<std::string>{"maps/" + gone + ".html", "thumbs/" + gone + ".png",
                                           "minimaps/" + gone + "-all.png",
                                           "minimaps/" + gone + "-physics.png"});
    CHECK(after.count("minimaps/" + old_change + "-all.png"));
    CHECK(after.at("notes.txt") == "mine");
    const std::string old_page = after.at("maps/" + old_change + ".html");
    CHECK(contains(old_page, "<a href=\"" + new_change + ".html\">"));
    CHECK(contains(old_page, "game 30 x 12 → 40 x 16"));
    CHECK(contains(old_page, "gone (last seen"));
    const std::string new_page = after.at("maps/" + new_change + ".html");
    CHECK(contains(new_page, "<a href=\"" + old_change + ".html\">"));
    CHECK(contains(new_page, "game 40 x 16 → 30 x 12"));
    CHECK(contains(r.out, "4 removed"));
  }

  TEST_CASE("site e2e: a folder with files the site did not write, or no folder at all") {
    Fixture f;
    f.first_run();
    const fs::path out = f.dir / "theirs";
    fs::create_directories(out);
    write_file(out / "index.html", to_bytes("their page"));
    const auto r = f.site(out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err,
                   (out / "index.html").string() + " exists and mapindex site did not write it"));
    CHECK(read_text_file(out / "index.html") == "their page");
    CHECK(files_of(out).size() == 1);  // nothing else written

    write_file(f.dir / "a-file", to_bytes("x"));
    const auto not_folder = f.site(f.dir / "a-file");
    CHECK(not_folder.exit_code == 2);
    CHECK(contains(not_folder.err, "a-file is not a folder"));
    const auto no_out = run_mapindex({"site", "--db", f.db.string()});
    CHECK(no_out.exit_code == 2);
    CHECK(contains(no_out.err, "--out DIR is required"));
    const auto no_db =
        run_mapindex({"site", "--db", f.dir.file("none.sqlite"), "--out", (f.dir / "s").string()});
    CHECK(no_db.exit_code == 2);
    CHECK(contains(no_db.err, "no index at"));
    // A damaged manifest is not taken for the site's.
    const fs::path damaged = f.dir / "damaged";
    fs::create_directories(damaged);
    write_file(damaged / ".mapindex-site", to_bytes("something else\n"));
    const auto d = f.site(damaged);
    CHECK(d.exit_code == 2);
    CHECK(contains(d.err, "not a mapindex site manifest"));
  }

  TEST_CASE("site e2e: a map whose source is gone shows its stored thumbnail and says why") {
    Fixture f;
    f.first_run();
    fs::remove(f.archive);
    fs::remove_all(f.folder);
    const fs::path out = f.dir / "site";
    const auto r = f.site(out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(contains(r.out, "7 without a minimap"));
    const auto files = files_of(out);
    const std::string sha = f.sha_of("maps/keep.map");
    CHECK_FALSE(files.count("minimaps/" + sha + "-all.png"));
    const std::string page = files.at("maps/" + sha + ".html");
    CHECK(contains(page, "src=\"../thumbs/" + sha + ".png\""));
    CHECK(contains(page, "the stored thumbnail"));
    CHECK(contains(page, "its source " + f.archive.string() + " is not there any more"));
    const std::string folder_page = files.at("maps/" + f.sha_of("folder.map") + ".html");
    CHECK(contains(folder_page, "its source " + f.folder.string() + " is not there any more"));
  }

  TEST_CASE("site: the list is paged under the byte budget, every row on one page") {
    site::SiteData data;
    for (int i = 0; i < 300; ++i) {
      site::EntryRow e;
      e.name = "map <" + std::to_string(i) + ">";
      e.source = "a.zip";
      e.entry_path = "maps/" + e.name + ".map";
      e.status = "ok";
      e.sha256 = std::string(60, 'a') + std::to_string(1000 + i);
      e.features = {"TELE_GUN", "BOOST"};
      data.entries.push_back(e);
    }
    const std::size_t budget = 40 * 1024;
    const auto pages = site::list_pages(data, "T <b>", budget);
    REQUIRE(pages.size() > 2);
    CHECK(pages[0].path == "index.html");
    CHECK(pages[1].path == "index-2.html");
    std::size_t rows = 0;
    for (const auto& p : pages) {
      CHECK(p.bytes.size() <= budget);
      rows += count_of(p.bytes, "<tr data-status=");
      CHECK(contains(p.bytes, "<title>T &lt;b&gt;"));
      CHECK(contains(p.bytes, "<a class=\"page\" href=\"index.html\">") ==
            (p.path != "index.html"));
    }
    CHECK(rows == 300);
    CHECK(contains(pages[0].bytes, "map &lt;0&gt;"));
    CHECK(contains(pages.back().bytes, "map &lt;299&gt;"));
    CHECK(contains(pages[0].bytes, "data-features=\"TELE_GUN BOOST\""));
    CHECK(contains(pages[0].bytes, "<span class=\"f\" title=\"TELE_GUN\">tele gun</span>"));
    // Without the budget, one page.
    CHECK(site::list_pages(data, "T").size() == 1);
  }
  TEST_CASE(
      "site tool: headless Chromium shows the rows, filters by the URL, sorts, loads images") {
    const std::string browser = chromium();
    if (browser.empty()) {
      if (browser_required())
        FAIL(
            "MAPINDEX_REQUIRE_BROWSER is set but chromium is not installed "
            "(scripts/install-deps.sh installs it)");
      report_skipped("the browser test: chromium not found (scripts/install-deps.sh installs it)");
      return;
    }
    Fixture f;
    f.first_run();
    const fs::path out = f.dir / "site";
    const auto r = f.site(out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string index = read_text_file(out / "index.html");
    const std::size_t rows = count_of(index, "<tr data-status=");
    REQUIRE(rows == 7);
    const std::size_t images = attributes(index, "img", "src").size();
    REQUIRE(images == 6);  // broken.map has no thumbnail

    // A copy of a page beside it, with a probe appended that records after
    // the load (the page's own script has run) the rows shown, their names
    // and sizes in order, each image's natural size, the URL of every element
    // that loads something (src, link), script errors and, at width W (the root set to it: headless
    // Chromium's window is at least 500 px wide), what outside a sideways
    // scrolling box is wider than the page; with `click`, the header button
    // of that column is clicked first (twice for descending).
    const auto probe = [&](const fs::path& page, int width, const std::string& click = "",
                           int clicks = 1) {
      std::string html = read_text_file(page);
      const auto body_end = html.rfind("</body>");
      REQUIRE(body_end != std::string::npos);
      html.insert(
          body_end,
          "<script>window.addEventListener('error',function(e){document.body.setAttribute("
          "'data-error',String(e.message));});window.addEventListener('load',function(){"
          "var W=" +
              std::to_string(width) +
              ",b=document.body;"
              "document.documentElement.style.width=W+'px';"
              "var k='" +
              click +
              "';if(k){var th=document.querySelector('th[data-key='+k+'] button');"
              "for(var c=0;c<" +
              std::to_string(clicks) +
              ";++c)th.click();}"
              "var t=document.getElementById('maps'),shown=[],sizes=[];"
              "if(t)Array.prototype.forEach.call(t.tBodies[0].rows,function(r){if(r.hidden)return;"
              "shown.push(r.cells[1].textContent);sizes.push(r.cells[8].getAttribute('data-v'));});"
              "b.setAttribute('data-rows',t?String(t.tBodies[0].rows.length):'');"
              "b.setAttribute('data-shown',String(shown.length));"
              "b.setAttribute('data-names',encodeURIComponent(shown.join('|')));"
              "b.setAttribute('data-sizes',sizes.join(' '));"
              "var s=[];document.querySelectorAll('img').forEach(function(i){"
              "s.push(i.complete+':'+i.naturalWidth+'x'+i.naturalHeight);});"
              "b.setAttribute('data-images',s.join(' '));"
              "var q=[];document.querySelectorAll('[src],link[href]').forEach(function(e){"
              "q.push(e.src||e.href);});"
              "b.setAttribute('data-requests',encodeURIComponent(q.join(' ')));"
              "var w=[];document.querySelectorAll('body *').forEach(function(e){"
              "if(e.closest('.scroll'))return;"
              "if(e.getBoundingClientRect().right>W+1)w.push(e.tagName+'.'+e.className);});"
              "b.setAttribute('data-wider',w.join(' '));b.setAttribute('data-loaded','yes');});"
              "</script>");
      const fs::path copy = page.parent_path() / ("probe-" + page.filename().string());
      std::ofstream(copy, std::ios::binary) << html;
      return copy;
    };
    const auto body_attribute = [](const std::string& dom, const std::string& name) {
      const auto at = dom.find(" " + name + "=\"");
      REQUIRE_MESSAGE(at != std::string::npos, name);
      const auto start = at + name.size() + 3;
      return dom.substr(start, dom.find('"', start) - start);
    };
    const auto decode = [](std::string text) {  // encodeURIComponent's %XX back to bytes
      std::string bytes;
      for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '%' && i + 2 < text.size()) {
          bytes += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          bytes += text[i];
        }
      return bytes;
    };
    const auto load = [&](const fs::path& page, int width, const std::string& fragment = "",
                          const std::string& click = "", int clicks = 1) {
      const auto dom = run_chromium(
          browser, f.dir / "profile", probe(page, width, click, clicks),
          {"--window-size=" + std::to_string(width) + ",1400", "--dump-dom"}, fragment);
      INFO("chromium stderr: " << dom.err.substr(0, 2000));
      REQUIRE_MESSAGE(dom.exit_code == 0, "chromium exited " << dom.exit_code);
      REQUIRE(contains(dom.out, "data-loaded=\"yes\""));
      CHECK_FALSE(contains(dom.out, "data-error="));
      return dom.out;
    };
    const std::string site_url = "file://" + out.string() + "/";
    const auto requests_stay_in_site = [&](const std::string& dom) {
      std::istringstream list(decode(body_attribute(dom, "data-requests")));
      std::size_t n = 0;
      for (std::string url; list >> url; ++n) CHECK_MESSAGE(url.rfind(site_url, 0) == 0, url);
      return n;
    };
    const auto sizes_of = [&](const std::string& dom) {
      std::vector<long> sizes;
      std::istringstream list(body_attribute(dom, "data-sizes"));
      for (long v; list >> v;) sizes.push_back(v);
      return sizes;
    };

    for (const int width : {1280, 412}) {
      INFO("width " << width);
      const auto dom = load(out / "index.html", width);
      // Every row, shown; every image loaded at its thumbnail's size; no
      // request outside the site; nothing wider than the page.
      CHECK(body_attribute(dom, "data-rows") == std::to_string(rows));
      CHECK(body_attribute(dom, "data-shown") == std::to_string(rows));
      std::istringstream loaded(body_attribute(dom, "data-images"));
      std::size_t n = 0;
      for (std::string one; loaded >> one; ++n) {
        CHECK_MESSAGE(one.rfind("true:", 0) == 0, one);
        CHECK_MESSAGE(one.find(":0x") == std::string::npos, one);
      }
      CHECK(n == images);
      CHECK(requests_stay_in_site(dom) == images);
      CHECK(body_attribute(dom, "data-wider") == "");
    }
    // A filter in the URL: words, status, feature.
    const auto hostile = load(out / "index.html", 1280, "#q=alert");
    CHECK(body_attribute(hostile, "data-shown") == "1");
    CHECK(decode(body_attribute(hostile, "data-names")) == "script>");
    const auto rejected = load(out / "index.html", 1280, "#status=rejected");
    CHECK(body_attribute(rejected, "data-shown") == "1");
    CHECK(decode(body_attribute(rejected, "data-names")) == "broken");
    const auto zip_ok = load(out / "index.html", 1280, "#q=maps.zip%20map&status=ok");
    CHECK(body_attribute(zip_ok, "data-shown") ==
          sql_value(f.db, "SELECT count(*) FROM current_maps WHERE status = 'ok' AND source = '" +
                              f.archive.string() + "'"));
    // Sorting: by size, ascending on a click, descending on two and by the URL.
    const auto by_name = sizes_of(load(out / "index.html", 1280));
    auto ascending = by_name;
    std::sort(ascending.begin(), ascending.end());
    REQUIRE(ascending != by_name);  // the test would not see a sort otherwise
    CHECK(sizes_of(load(out / "index.html", 1280, "", "size")) == ascending);
    auto descending = ascending;
    std::reverse(descending.begin(), descending.end());
    CHECK(sizes_of(load(out / "index.html", 1280, "", "size", 2)) == descending);
    CHECK(sizes_of(load(out / "index.html", 1280, "#sort=-size")) == descending);

    // A map page: the minimaps loaded at their size, every section, at both widths.
    const std::string sha = f.sha_of("maps/change.map");
    const fs::path page = out / "maps" / (sha + ".html");
    for (const int width : {1280, 412}) {
      INFO("map page, width " << width);
      const auto dom = load(page, width);
      CHECK(body_attribute(dom, "data-images") == "true:30x12 true:30x12");
      CHECK(requests_stay_in_site(dom) == 2);
      CHECK(body_attribute(dom, "data-wider") == "");
      for (const char* section : {"minimap", "info", "layers", "tiles", "problems", "entries"})
        CHECK_MESSAGE(contains(dom, std::string("<section class=\"") + section + "\">"), section);
    }

    // Screenshots of the list and a map page, at 1280 px and at a phone's width.
    for (const auto& shown : {out / "index.html", page})
      for (const int width : {1280, 412}) {
        const fs::path shot = f.dir / ("shot-" + std::to_string(width) + ".png");
        const auto s = run_chromium(
            browser, f.dir / "profile", shown,
            {"--window-size=" + std::to_string(width) + ",1400", "--screenshot=" + shot.string()});
        INFO(shown << ", width " << width << ", chromium stderr: " << s.err.substr(0, 2000));
        REQUIRE_MESSAGE(s.exit_code == 0, "chromium exited " << s.exit_code);
        const auto png = decode_png(read_text_file(shot));
        REQUIRE(png.has_value());
        CHECK(png->width == static_cast<std::uint32_t>(width));
        CHECK(png->colours() > 8);
      }
  }
}
