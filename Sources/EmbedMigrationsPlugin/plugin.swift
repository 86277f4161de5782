import Foundation
import PackagePlugin

/// Embeds every `Migrations/NNNN_name.sql`, `Migrations/schema.sql` (the schema they make, for a new file) and
/// `Resources/common-passwords.txt` (the passwords the family's password may not be), into the library at build
/// time, so the binary needs no bundle.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path())
            .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }
            .sorted()
        let passwords = context.package.directoryURL.appending(path: "Resources/common-passwords.txt")
        let inputs = names.map { directory.appending(path: $0) } + [directory.appending(path: "schema.sql"), passwords]
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) migrations and the common passwords",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
