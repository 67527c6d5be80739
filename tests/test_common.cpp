// src/common: the one copy of hex text, control-character escaping and
// the JSON writer, checked against expectations built independently of them
// (snprintf, hand-written bytes), and through their users.
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "common/hex.h"
#include "common/json_writer.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "decode/datafile/uuid.h"
#include "read/digest.h"

using namespace mapindex;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";

std::string all_bytes() {
  std::string s;
  for (int b = 0; b < 256; ++b) s += static_cast<char>(b);
  return s;
}

}  // namespace

TEST_SUITE("common") {
  TEST_CASE("common hex: every byte as two digits, lower and upper case, like printf %02x/%02X") {
    std::string lower, upper;
    for (int b = 0; b < 256; ++b) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "%02x", b);
      lower += buffer;
      std::snprintf(buffer, sizeof buffer, "%02X", b);
      upper += buffer;
    }
    CHECK(to_hex(all_bytes()) == lower);
    CHECK(to_hex(all_bytes(), HexCase::upper) == upper);
    const std::vector<std::uint8_t> bytes = {0x00, 0x7f, 0x80, 0xff};
    CHECK(to_hex(bytes) == "007f80ff");
    std::string appended = "%";
    append_hex(appended, 0xab, HexCase::upper);
    CHECK(appended == "%AB");
    CHECK(hex_digit(10) == 'a');
    CHECK(hex_digit(0x1f) == 'f');  // only the low nibble counts
    CHECK(hex_bytes("A\xFF") == "41 ff");
    CHECK(hex_bytes("abc", 2) == "61 62 ...");
  }

  TEST_CASE("common hex: the digest and UUID texts are the bytes through to_hex") {
    const std::string abc = "abc";
    const auto d =
        read::digest(Bytes(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()));
    CHECK(d.sha256_hex() == to_hex(d.sha256));
    // The CRC's four bytes, most significant first (0x352441c2 for "abc").
    CHECK(d.crc32_hex() == "352441c2");
    const auto uuid = datafile::uuid_from_name("mapitem-test@ddnet.tw");
    std::string dashed = to_hex(uuid.bytes);
    for (const std::size_t at : {20, 16, 12, 8}) dashed.insert(at, "-");
    CHECK(uuid.to_string() == dashed);
  }

  TEST_CASE("common hex: a SHA-256 read back from its text, and nothing from other text") {
    const std::string abc = "abc";
    const Sha256 d = sha256(Bytes(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()));
    const std::string text = to_hex(d);
    CHECK(sha256_from_hex(text) == d);
    CHECK(text.starts_with("ba7816bf"));  // FIPS 180-2's digest of "abc"
    std::string upper = text;
    upper[0] = 'B';
    CHECK_FALSE(sha256_from_hex(upper));  // the index stores lowercase only
    CHECK_FALSE(sha256_from_hex(text.substr(1)));
    CHECK_FALSE(sha256_from_hex(text + "0"));
    std::string bad = text;
    bad[63] = 'g';
    CHECK_FALSE(sha256_from_hex(bad));
    CHECK(sha256_from_hex(std::string(64, '0')) == Sha256{});
  }

  TEST_CASE("common printable: control characters escaped, everything else kept") {
    CHECK(printable("a\nb\tc\rd") == "a\\nb\\tc\\rd");
    CHECK(printable(std::string("\x00\x1f\x7f", 3)) == "\\x00\\x1f\\x7f");
    CHECK(printable("Caf\xC3\xA9 \xFF") == "Caf\xC3\xA9 \xFF");  // bytes >= 0x80 untouched
  }

  TEST_CASE(
      "common json: strings escaped, valid UTF-8 kept, one U+FFFD per maximal invalid subpart") {
    CHECK(json_string("a\"b\\c\n\t\r\b\f") == "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\"");
    CHECK(json_string(std::string("\x00\x01\x1f\x7f", 4)) == "\"\\u0000\\u0001\\u001f\x7f\"");
    CHECK(json_string("Caf\xC3\xA9 \xF0\x9F\x98\x80") == "\"Caf\xC3\xA9 \xF0\x9F\x98\x80\"");
    // ff: one; e2 82 (cut short): one; c0 af (overlong): two; ed a0 80 (surrogate): three.
    CHECK(json_string("\xFF|\xE2\x82|\xC0\xAF|\xED\xA0\x80") ==
          "\"" + kFffd + "|" + kFffd + "|" + kFffd + kFffd + "|" + kFffd + kFffd + kFffd + "\"");
    // The same rule as the text stored in the index.
    const std::string mixed = "x\xE2\x82y\xF0\x9F\x98z";
    CHECK(json_string(mixed) == "\"" + to_valid_utf8(mixed) + "\"");
  }

  TEST_CASE("common json: one writer, three layouts") {
    const auto write = [](JsonLayout layout) {
      std::ostringstream out;
      JsonWriter j(out, layout);
      j.begin_array();
      j.begin_object()
          .field("a", 1)
          .field("b", std::uint64_t{18446744073709551615ull})
          .end_object();
      j.begin_object()
          .field("s", "x\xFF")
          .key("n")
          .null()
          .field("d", 0.25)
          .key("e")
          .begin_array()
          .end_array();
      j.key("t").number_text("1.5e3").field("f", false).end_object();
      j.end_array();
      return out.str();
    };
    CHECK(write(JsonLayout::compact()) ==
          "[{\"a\":1,\"b\":18446744073709551615},{\"s\":\"x" + kFffd +
              "\",\"n\":null,\"d\":0.25,\"e\":[],\"t\":1.5e3,\"f\":false}]\n");
    CHECK(write(JsonLayout::rows()) ==
          "[\n{\"a\":1,\"b\":18446744073709551615},\n{\"s\":\"x" + kFffd +
              "\",\"n\":null,\"d\":0.25,\"e\":[],\"t\":1.5e3,\"f\":false}\n]\n");
    CHECK(write(JsonLayout::pretty()) ==
          "[\n  {\n    \"a\": 1,\n    \"b\": 18446744073709551615\n  },\n  {\n    \"s\": \"x" +
              kFffd +
              "\",\n    \"n\": null,\n    \"d\": 0.25,\n    \"e\": [],\n    \"t\": 1.5e3,\n"
              "    \"f\": false\n  }\n]\n");
    // Top-level values follow each other one per line (NDJSON).
    std::ostringstream out;
    JsonWriter lines(out, JsonLayout::compact());
    lines.begin_object().field("a", 1).end_object();
    lines.begin_object().end_object();
    CHECK(out.str() == "{\"a\":1}\n{}\n");
  }

}  // TEST_SUITE
