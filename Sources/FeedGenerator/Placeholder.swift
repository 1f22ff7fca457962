// FeedGenerator: placeholder until its first real file lands.
enum _FeedGeneratorPlaceholder {}
