// Placeholder until the demo archive generator lands.
int main() { return 0; }
