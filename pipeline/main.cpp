// Placeholder until the CLI lands (pipeline/cli.cpp).
#include <iostream>
int main() {
  std::cout << "mapindex " MAPINDEX_VERSION "\n";
  return 0;
}
