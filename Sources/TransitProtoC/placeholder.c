// placeholder until protoc-c output lands
int transit_proto_c_placeholder(void) { return 0; }
