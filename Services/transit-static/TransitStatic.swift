// transit-static: the static-data service's executable.
//   transit-static import <feed.zip|folder|name=path|URL|name=URL>... --db <file> [--prefix name=B:]... [--strict]
//   transit-static refresh --db <file> <URL|name=URL|path>... [--header 'Name: value']... [--once]
//   transit-static serve --db <file> --listen <nng url> [--contexts N]
//   transit-static query --connect <nng url> '<json>'... | -
//   transit-static describe --db <file>
import ArgumentParser
import TransitModel

@main
struct TransitStatic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-static",
        abstract: "GTFS static data: import feeds into SQLite, serve queries over nng, query a running service.",
        version: TransitVersion.current,
        subcommands: [
            ImportCommand.self, RefreshCommand.self, ServeCommand.self, QueryCommand.self, DescribeCommand.self,
        ]
    )
}
