// RealtimeService: placeholder until its first real file lands.
enum _RealtimeServicePlaceholder {}
