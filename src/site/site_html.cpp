#include "site/site_html.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "audit/render_util.h"
#include "common/json_writer.h"
#include "common/problem_codes.h"
#include "site/site_html_parts.h"

namespace mapindex::site {
namespace {

using audit::detail::human_bytes;
using namespace detail;

// The list page's script: filter by words, feature and status, sort by any
// column, both kept in the URL's fragment (#q=...&feature=...&status=...&sort=-size)
// and applied on load; the page links keep it. Without script the table is whole.
constexpr std::string_view kScript = R"(<script>
(function(){
var t=document.getElementById('maps');if(!t)return;var b=t.tBodies[0];
var rows=Array.prototype.slice.call(b.rows);
var form=document.getElementById('filters');form.hidden=false;
var q=document.getElementById('q'),fe=document.getElementById('feature'),
st=document.getElementById('status'),shown=document.getElementById('shown');
var heads=Array.prototype.slice.call(t.tHead.rows[0].cells);
rows.forEach(function(r){r.t=r.textContent.toLowerCase();});
var sortKey='',sortDir=1;
function params(){var o={};location.hash.replace(/^#/,'').split('&').forEach(function(p){
if(!p)return;var i=p.indexOf('='),k=i<0?p:p.slice(0,i),v=i<0?'':p.slice(i+1);
try{o[decodeURIComponent(k)]=decodeURIComponent(v.replace(/\+/g,' '));}catch(e){}});return o;}
function choose(sel,v){sel.value=v||'';if(v&&sel.value!==v){var o=document.createElement('option');
o.value=v;o.textContent=v;sel.appendChild(o);sel.value=v;}}
function filter(){var words=q.value.toLowerCase().split(/\s+/).filter(Boolean),f=fe.value,s=st.value,n=0;
rows.forEach(function(r){var ok=words.every(function(w){return r.t.indexOf(w)>=0;})&&
(!f||(' '+r.getAttribute('data-features')+' ').indexOf(' '+f+' ')>=0)&&
(!s||r.getAttribute('data-status')===s);r.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+rows.length+' shown';}
function value(r,c){var d=r.cells[c],v=d.getAttribute('data-v');return v===null?d.textContent.trim().toLowerCase():v;}
function sort(){heads.forEach(function(th){th.removeAttribute('aria-sort');});
var c=-1;heads.forEach(function(th,i){if(th.getAttribute('data-key')===sortKey)c=i;});
if(c<0){sortKey='';return;}var num=heads[c].getAttribute('data-type')==='num';
heads[c].setAttribute('aria-sort',sortDir>0?'ascending':'descending');
rows.forEach(function(r,i){r.i=i;});
rows.sort(function(a,b){var x=value(a,c),y=value(b,c);if(num){x=parseFloat(x)||0;y=parseFloat(y)||0;}
return x<y?-sortDir:x>y?sortDir:a.i-b.i;});rows.forEach(function(r){b.appendChild(r);});}
function fragment(){var p=[];if(q.value)p.push('q='+encodeURIComponent(q.value));
if(fe.value)p.push('feature='+encodeURIComponent(fe.value));
if(st.value)p.push('status='+encodeURIComponent(st.value));
if(sortKey)p.push('sort='+(sortDir<0?'-':'')+sortKey);return p.length?'#'+p.join('&'):'';}
function save(){var f=fragment();try{history.replaceState(null,'',f||location.pathname);}catch(e){}
document.querySelectorAll('a.page').forEach(function(a){a.href=a.getAttribute('href').split('#')[0]+f;});}
function load(){var p=params();q.value=p.q||'';choose(fe,p.feature);choose(st,p.status);
var s=p.sort||'';sortDir=s.charAt(0)==='-'?-1:1;sortKey=s.replace(/^-/,'');sort();filter();save();}
q.addEventListener('input',function(){filter();save();});
fe.addEventListener('change',function(){filter();save();});
st.addEventListener('change',function(){filter();save();});
heads.forEach(function(th){var k=th.getAttribute('data-key');if(!k)return;
var btn=document.createElement('button');btn.type='button';
while(th.firstChild)btn.appendChild(th.firstChild);th.appendChild(btn);
btn.addEventListener('click',function(){if(sortKey===k)sortDir=-sortDir;else{sortKey=k;sortDir=1;}
sort();save();});});
window.addEventListener('hashchange',load);load();
})();
</script>
)";

struct Column {
  std::string_view key, title;
  bool number;
};
constexpr Column kColumns[] = {{"", "map", false},
                               {"name", "name", false},
                               {"where", "source / entry", false},
                               {"status", "status", false},
                               {"game", "game layer", true},
                               {"layers", "layers", true},
                               {"images", "images", true},
                               {"features", "features", false},
                               {"size", "size", true},
                               {"first", "first seen", false},
                               {"last", "last seen", false}};

int status_rank(std::string_view status) {
  return status == "ok" ? 0 : status == "warnings" ? 1 : status == "rejected" ? 2 : 3;
}

std::string entry_row(const EntryRow& e) {
  std::string r = "<tr data-status=\"" + h(e.status) + "\" data-features=\"";
  for (std::size_t i = 0; i < e.features.size(); ++i) r += (i ? " " : "") + h(e.features[i]);
  r += "\">";
  const std::string page = map_page_path(e.sha256);
  if (e.thumb_width > 0)
    r += "<td><a href=\"" + page + "\"><img class=\"thumb\" src=\"" + thumbnail_path(e.sha256) +
         "\" width=\"" + std::to_string(e.thumb_width) + "\" height=\"" +
         std::to_string(e.thumb_height) + "\" alt=\"\"></a></td>";
  else
    r += "<td><span class=\"noimg\">no picture</span></td>";
  r += "<td><a href=\"" + page + "\">" + h(e.name) + "</a></td>";
  r += "<td class=\"w\">" + h(e.source) + "<br>" + code(e.entry_path) + "</td>";
  r += "<td class=\"s\" data-v=\"" + std::to_string(status_rank(e.status)) +
       "\"><span class=\"st " + status_class(e.status) + "\">" + h(e.status) + "</span>";
  if (!e.codes.empty()) {
    const auto sev =
        e.status == "rejected" ? std::optional(Severity::error) : std::optional(Severity::warning);
    r += "<br>" + titled(e.codes.front(), sev);
    if (e.codes.size() > 1)
      r += " <span class=\"note\">+" + std::to_string(e.codes.size() - 1) + "</span>";
  }
  r += "</td>";
  r += "<td class=\"n\" data-v=\"" + std::to_string(e.game_width * e.game_height) + "\">" +
       game_size(e.game_width, e.game_height) + "</td>";
  r += "<td class=\"n\">" + std::to_string(e.layers) + "</td>";
  r += "<td class=\"n\">" + std::to_string(e.images) + "</td>";
  r += "<td class=\"fs\" data-v=\"" + std::to_string(e.features.size()) + "\">";
  for (const auto& f : e.features)
    r += "<span class=\"f\" title=\"" + h(f) + "\">" + h(feature_label(f)) + "</span>";
  r += "</td>";
  r += "<td class=\"n\" data-v=\"" + std::to_string(e.size) + "\">" + h(human_bytes(e.size)) +
       "</td>";
  r += "<td class=\"d\">" + h(e.first_seen) + "</td><td class=\"d\">" + h(e.last_seen) +
       "</td></tr>\n";
  return r;
}

std::string page_name(std::size_t n) {
  return n == 0 ? "index.html" : "index-" + std::to_string(n + 1) + ".html";
}

std::string pager(std::size_t current, std::size_t count) {
  if (count < 2) return "";
  std::string out = "<nav class=\"pages\">Pages: ";
  for (std::size_t i = 0; i < count; ++i)
    out += i == current ? "<strong>" + std::to_string(i + 1) + "</strong>"
                        : "<a class=\"page\" href=\"" + page_name(i) + "\">" +
                              std::to_string(i + 1) + "</a>";
  return out + " <span class=\"note\">(filter and sort apply within a page)</span></nav>\n";
}

// The list's heading: its links, title and what the archive holds.
std::string list_summary(const SiteData& data, const std::string& title) {
  std::set<std::string> contents;
  std::map<std::string, int> status_counts;
  for (const auto& e : data.entries) {
    contents.insert(e.sha256);
    ++status_counts[e.status];
  }
  std::string header =
      "<nav class=\"top\"><a href=\"problems.html\">Problems by code</a> · <a "
      "href=\"maps.json\">maps.json</a></nav>\n<h1>" +
      h(title) + "</h1>\n<p class=\"note\">" + std::to_string(data.entries.size()) +
      " map entries, " + std::to_string(contents.size()) + " distinct maps";
  for (const char* s : {"ok", "warnings", "rejected"})
    if (status_counts.count(s)) header += ", " + std::to_string(status_counts[s]) + " " + s;
  header +=
      data.latest_run.empty() ? "" : "; the archive as the index saw it in " + h(data.latest_run);
  return header + ".</p>\n";
}

// The filter form (shown by kScript): words, a feature with its count of
// entries, a status.
std::string filter_form(const SiteData& data) {
  std::map<std::string, int> feature_counts;
  for (const auto& e : data.entries)
    for (const auto& f : e.features) ++feature_counts[f];
  std::string form =
      "<form id=\"filters\" hidden onsubmit=\"return false\">"
      "<input id=\"q\" type=\"search\" placeholder=\"Filter: name, path, code, feature...\" "
      "aria-label=\"filter by text\"><select id=\"feature\" aria-label=\"feature\">"
      "<option value=\"\">any feature</option>";
  for (const auto& [f, n] : feature_counts)
    form += "<option value=\"" + h(f) + "\">" + h(feature_label(f)) + " (" + std::to_string(n) +
            ")</option>";
  form +=
      "</select><select id=\"status\" aria-label=\"status\"><option value=\"\">any status</option>";
  for (const char* s : {"ok", "warnings", "rejected"})
    form += std::string("<option value=\"") + s + "\">" + s + "</option>";
  return form + "</select><span id=\"shown\" class=\"note\"></span></form>\n";
}

// The list table's start, up to its body: kColumns, sortable by their keys.
std::string list_table_head() {
  std::string thead = "<div class=\"scroll\"><table id=\"maps\"><thead><tr>";
  for (const auto& c : kColumns) {
    thead += std::string("<th") + (c.number ? " class=\"n\" data-type=\"num\"" : "");
    if (!c.key.empty()) thead += " data-key=\"" + std::string(c.key) + "\"";
    thead += ">" + std::string(c.title) + "</th>";
  }
  return thead + "</tr></thead>\n<tbody>\n";
}

}  // namespace

std::vector<File> list_pages(const SiteData& data, const std::string& title,
                             std::size_t max_page_bytes) {
  const std::string header = list_summary(data, title);
  const std::string form = filter_form(data);
  const std::string thead = list_table_head();
  const std::string tail = "</tbody></table></div>\n";

  // Rows into pages by size.
  const std::size_t frame = head(title).size() + header.size() + form.size() + thead.size() +
                            tail.size() + kScript.size() + 2048;
  std::vector<std::string> bodies(1);
  for (const auto& e : data.entries) {
    std::string row = entry_row(e);
    if (!bodies.back().empty() && frame + bodies.back().size() + row.size() > max_page_bytes)
      bodies.emplace_back();
    bodies.back() += row;
  }
  std::vector<File> pages;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    std::string html = head(i == 0 ? title : title + " (page " + std::to_string(i + 1) + ")");
    html += header + form + pager(i, bodies.size()) + thead + bodies[i] + tail +
            pager(i, bodies.size());
    if (data.entries.empty())
      html += "<p class=\"none\">The index has no current map entries.</p>\n";
    html += std::string(kScript) + "</body>\n</html>\n";
    pages.push_back({page_name(i), std::move(html)});
  }
  return pages;
}

namespace {

// The problems of one code and severity, and the maps that have them.
struct CodeGroup {
  std::string severity, code;
  std::vector<const Problem*> problems;
  std::set<std::int64_t> maps;
};

// The groups by severity (errors first), then by how many maps have them
// (most first), then by code. They point into `problems`.
std::vector<CodeGroup> groups_by_code(const std::vector<Problem>& problems) {
  std::map<std::pair<std::string, std::string>, CodeGroup> groups;
  for (const auto& p : problems) {
    auto& g = groups[{p.severity, p.code}];
    g.severity = p.severity;
    g.code = p.code;
    g.problems.push_back(&p);
    g.maps.insert(p.map_id);
  }
  std::vector<CodeGroup> order;
  for (auto& [key, g] : groups) order.push_back(std::move(g));
  std::stable_sort(order.begin(), order.end(), [](const CodeGroup& a, const CodeGroup& b) {
    const auto rank = [](const std::string& s) {
      return s == "error" ? 0 : s == "warning" ? 1 : 2;
    };
    return std::make_tuple(rank(a.severity), -static_cast<std::int64_t>(a.maps.size()), a.code) <
           std::make_tuple(rank(b.severity), -static_cast<std::int64_t>(b.maps.size()), b.code);
  });
  return order;
}

// A group as a <details>: the code's title, meaning and hint, and its maps
// (each once, at most kMaxListed).
std::string code_group_html(const CodeGroup& g) {
  constexpr std::size_t kMaxListed = 500;
  const auto severity = severity_of(g.severity);
  const auto* info = find_code(g.code, severity);
  std::string o =
      "<details class=\"code\" id=\"" + h(g.code) + "-" + h(g.severity) + "\"" +
      (g.severity == "info" ? "" : " open") + "><summary><span class=\"sev-" + h(g.severity) +
      "\">" + h(g.severity) + "</span> " + titled(g.code, severity) + " · " +
      std::to_string(g.maps.size()) + (g.maps.size() == 1 ? " map" : " maps") +
      (g.problems.size() > g.maps.size() ? " (" + std::to_string(g.problems.size()) + " problems)"
                                         : "") +
      "</summary>\n";
  if (info) o += "<p>" + h(info->meaning) + "</p>\n<p class=\"note\">" + h(info->hint) + "</p>\n";
  o += "<ul>";
  std::set<std::int64_t> listed;
  for (const Problem* p : g.problems) {
    if (listed.count(p->map_id)) continue;
    if (listed.size() == kMaxListed) {
      o += "<li class=\"note\">... and " + std::to_string(g.maps.size() - kMaxListed) +
           " more maps</li>";
      break;
    }
    listed.insert(p->map_id);
    o += "<li><a href=\"" + map_page_path(p->sha256) + "\">" + h(shown_name(p->name, p->sha256)) +
         "</a>: " + h(p->message) + "</li>";
  }
  return o + "</ul></details>\n";
}

}  // namespace

std::string problems_page(const SiteData& data, const std::string& title) {
  const auto groups = groups_by_code(data.problems);
  std::string o = head("Problems · " + title);
  o += "<nav class=\"top\"><a href=\"index.html\">" + h(title) +
       "</a></nav>\n<h1>Problems by code</h1>\n";
  o += "<p class=\"note\">" + std::to_string(data.problems.size()) +
       " problems of the current maps under " + std::to_string(groups.size()) +
       " codes: errors (DDNet refuses the map), warnings, then info (harmless hygiene).</p>\n";
  if (groups.empty()) o += "<p class=\"none\">No problems.</p>\n";
  for (const auto& g : groups) o += code_group_html(g);
  return o + "</body>\n</html>\n";
}

std::string maps_json(const SiteData& data, const std::string& title) {
  std::ostringstream out;
  JsonWriter j(out, JsonLayout{2, 2});
  j.begin_object().field("title", title).field("archive", data.latest_run);
  j.key("maps").begin_array();
  for (const auto& e : data.entries) {
    j.begin_object()
        .field("name", e.name)
        .field("source", e.source)
        .field("entry_path", e.entry_path)
        .field("sha256", e.sha256)
        .field("format", e.format)
        .field("status", e.status);
    j.key("codes").begin_array();
    for (const auto& c : e.codes) j.value(c);
    j.end_array();
    j.field("game_width", e.game_width)
        .field("game_height", e.game_height)
        .field("layers", e.layers)
        .field("images", e.images);
    j.key("features").begin_array();
    for (const auto& f : e.features) j.value(f);
    j.end_array();
    j.field("size", e.size).field("first_seen", e.first_seen).field("last_seen", e.last_seen);
    j.field("page", map_page_path(e.sha256));
    if (e.thumb_width > 0)
      j.field("thumbnail", thumbnail_path(e.sha256));
    else
      j.key("thumbnail").null();
    j.end_object();
  }
  j.end_array().end_object();
  out << "\n";
  return out.str();
}

}  // namespace mapindex::site
