#include "common/problem.h"

namespace mapindex {

std::string to_string(const Location& location) {
  const char* name = "";
  switch (location.place) {
    case Place::file: return "";
    case Place::info: return "info";
    case Place::envelope_points: return "envelope points";
    case Place::layer: name = "layer"; break;
    case Place::group: name = "group"; break;
    case Place::image: name = "image"; break;
    case Place::envelope: name = "envelope"; break;
    case Place::sound: name = "sound"; break;
    case Place::automapper: name = "automapper"; break;
    case Place::data_item: name = "data item"; break;
  }
  return std::string(name) + " " + std::to_string(location.index);
}

}  // namespace mapindex
