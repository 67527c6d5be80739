// Name-based (MD5, version 3) UUIDs that DDNet uses for its extra item types.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mapindex::datafile {

struct Uuid {
  std::array<std::uint8_t, 16> bytes{};

  bool operator==(const Uuid&) const = default;
  // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string to_string() const;
};

// The UUID of `name` in DDNet's namespace e05ddaaa-c4e6-4cfb-b642-5d48e80c0029
// (computed, not copied from a document).
Uuid uuid_from_name(std::string_view name);

// The names DDNet maps use for UUID item types.
inline constexpr std::string_view kAutomapperConfigName = "mapitemtype-automapper-config@ddnet.tw";
inline constexpr std::string_view kEnvPointsBezierName = "mapitemtype-envpoints-bezier@ddnet.tw";
inline constexpr std::string_view kTestItemName = "mapitemtype-test@ddnet.tw";
// DDNet's extended group item (parallax zoom), seen in real maps.
inline constexpr std::string_view kGroupExName = "mapitemtype-group@ddnet.tw";

// The UUID of one of the names above, computed once: a map's decoding asks
// for them several times, and each uuid_from_name is an MD5 through OpenSSL.
enum class KnownUuid { automapper_config, env_points_bezier, test_item, group_ex };
const Uuid& known_uuid(KnownUuid which);

// The known name of a UUID, or "" when it is not one of the names above.
std::string_view known_uuid_name(const Uuid& uuid);

}  // namespace mapindex::datafile
