#include "decode/datafile/uuid.h"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>
#include <string>

#include "common/hex.h"

namespace mapindex::datafile {
namespace {

constexpr int hex_value(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

// The 16 bytes of "xxxxxxxx-xxxx-..." (dashes skipped).
constexpr std::array<std::uint8_t, 16> parse_uuid(std::string_view text) {
  std::array<std::uint8_t, 16> out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < text.size() && n < 16;) {
    if (text[i] == '-') {
      ++i;
      continue;
    }
    out[n++] = static_cast<std::uint8_t>(hex_value(text[i]) * 16 + hex_value(text[i + 1]));
    i += 2;
  }
  return out;
}

// The namespace DDNet derives its item type UUIDs in (TEEWORLDS_NAMESPACE in
// DDNet's src/engine/shared/uuid_manager.cpp).
constexpr auto kDdnetNamespace = parse_uuid("e05ddaaa-c4e6-4cfb-b642-5d48e80c0029");

}  // namespace

std::string Uuid::to_string() const {
  std::string s;
  s.reserve(36);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    append_hex(s, bytes[i]);
  }
  return s;
}

Uuid uuid_from_name(std::string_view name) {
  // RFC 4122 version 3: MD5(namespace bytes || name), then version and variant bits.
  std::string input(reinterpret_cast<const char*>(kDdnetNamespace.data()), kDdnetNamespace.size());
  input.append(name);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_size = 0;
  if (EVP_Digest(input.data(), input.size(), digest.data(), &digest_size, EVP_md5(), nullptr) !=
          1 ||
      digest_size < 16)
    throw std::runtime_error("OpenSSL MD5 failed");
  Uuid uuid;
  for (std::size_t i = 0; i < 16; ++i) uuid.bytes[i] = digest[i];
  uuid.bytes[6] = static_cast<std::uint8_t>((uuid.bytes[6] & 0x0F) | 0x30);
  uuid.bytes[8] = static_cast<std::uint8_t>((uuid.bytes[8] & 0x3F) | 0x80);
  return uuid;
}

namespace {

struct Known {
  std::string_view name;
  Uuid uuid;
};

// In KnownUuid's order.
const std::array<Known, 4>& known_uuids() {
  static const std::array<Known, 4> known = {{
      {kAutomapperConfigName, uuid_from_name(kAutomapperConfigName)},
      {kEnvPointsBezierName, uuid_from_name(kEnvPointsBezierName)},
      {kTestItemName, uuid_from_name(kTestItemName)},
      {kGroupExName, uuid_from_name(kGroupExName)},
  }};
  return known;
}

}  // namespace

const Uuid& known_uuid(KnownUuid which) {
  return known_uuids()[static_cast<std::size_t>(which)].uuid;
}

std::string_view known_uuid_name(const Uuid& uuid) {
  for (const auto& k : known_uuids())
    if (k.uuid == uuid) return k.name;
  return {};
}

}  // namespace mapindex::datafile
