// RealtimeSources: placeholder until its first real file lands.
enum _RealtimeSourcesPlaceholder {}
