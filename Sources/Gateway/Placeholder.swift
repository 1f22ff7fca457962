// Gateway: placeholder until its first real file lands.
enum _GatewayPlaceholder {}
