int transit_proto_c_placeholder(void);
