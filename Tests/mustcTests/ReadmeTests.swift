import Foundation
import TMDBStub
import TestSupport
import Testing

/// The README and the guides as a newcomer meets them: every relative link leads somewhere, and the code blocks
/// marked `<!-- runs offline: ReadmeTests -->` run as written (docs/layout.md, "Tests and CI").
@Suite(.serialized) struct ReadmeTests {
    static let top = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let marker = "<!-- runs offline: ReadmeTests -->"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: top.appending(path: path), encoding: .utf8)
    }

    /// README.md and docs/*.md (not docs/incoming, drafts waiting to be folded in), as paths from the top.
    static func documents() throws -> [String] {
        let guides = try FileManager.default.contentsOfDirectory(atPath: top.appending(path: "docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + guides
    }

    @Test func everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws {
        var broken: [String] = []
        var checked = 0
        for document in try Self.documents() {
            let text = try Self.read(document)
            let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
            for link in Markdown.links(in: text) where !Markdown.isExternal(link) {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let target =
                    file.isEmpty ? document : URL(fileURLWithPath: folder + "/" + file).standardized.relativePath
                let path = Self.top.appending(path: target).path
                guard FileManager.default.fileExists(atPath: path) else {
                    broken.append("\(document): \(link): no file \(target)")
                    continue
                }
                guard parts.count == 2 else { continue }
                let anchors = target.hasSuffix(".md") ? Markdown.anchors(in: try Self.read(target)) : []
                if !anchors.contains(String(parts[1])) { broken.append("\(document): \(link): no such heading") }
            }
        }
        #expect(checked > 40, "only \(checked) relative links found: the parser lost them")
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func anchorsFollowGitHubsRule() {
        let text = """
            # Background fetch
            ## Being told: the newData hook
            ```
            # not a heading
            ```
            ### The family's page
            ## `mustc serve` and **TLS**
            ## Tests and CI
            ## Tests and CI
            """
        #expect(
            Markdown.anchors(in: text) == [
                "background-fetch", "being-told-the-newdata-hook", "the-familys-page", "mustc-serve-and-tls",
                "tests-and-ci", "tests-and-ci-1",
            ])
        #expect(Markdown.links(in: "[a](x.md#b) `[c](d.md)` <img src=\"e.png\" alt=\"f\">") == ["x.md#b", "e.png"])
    }

    @Test func theReadmeIsShortAndItsTestCommandIsWhatCIRuns() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 250, "README.md has \(lines.count) lines; the rest belongs in a guide under docs/")
        // The README's test command, without its comment, is a line of .ci/run as it stands.
        let code = Markdown.lines(readme).filter(\.code).map(\.line)
        let command = try #require(code.first { $0.hasPrefix("contrib/test.sh") })
            .split(separator: "#")[0].trimmingCharacters(in: .whitespaces)
        #expect(try Self.read(".ci/run").split(separator: "\n").contains { $0 == command })
    }

    /// The commands of the marked blocks, as (block, command, shown). `shown` is the output a `console` block
    /// prints under the command, up to the next command; nil where the block shows no output at all (commands to
    /// try, such as `mustc --help`) or is not a `console` block.
    static func markedCommands() throws -> [(block: Int, command: String, shown: [String]?)] {
        var commands: [(Int, String, [String]?)] = []
        for (index, block) in Markdown.codeBlocks(after: marker, in: try read("README.md")).enumerated() {
            let showsOutput = block.language == "console" && block.lines.contains { !$0.hasPrefix("$ ") }
            for line in block.lines {
                if block.language == "console" {
                    if line.hasPrefix("$ ") {
                        commands.append((index, String(line.dropFirst(2)), showsOutput ? [] : nil))
                    } else if showsOutput, !commands.isEmpty {
                        commands[commands.count - 1].2?.append(line)
                    }
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") {
                    commands.append((index, line, nil))
                }
            }
        }
        return commands
    }

    /// What changes from run to run, masked alike in the README and in what the binary prints: dates and times,
    /// a run's seconds ("in 0.1s") and the wait before the next fetch ("Next fetch in 28m").
    static func masked(_ text: String) -> String {
        text.replacing(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/, with: "<time>")
            .replacing(/\d{4}-\d{2}-\d{2}/, with: "<date>")
            .replacing(/\ in \d+(\.\d+)?s\b/, with: " in <seconds>")
            .replacing(/Next fetch in (\d+[dhms])+/, with: "Next fetch in <wait>")
    }

    @Test func theMaskCoversOnlyWhatChanges() {
        let line = "noData: 3 of 3 movies; 3 requests in 0.1s. Next fetch in 1h28m (2026-11-25T14:41:19Z)."
        #expect(Self.masked(line) == "noData: 3 of 3 movies; 3 requests in <seconds>. Next fetch in <wait> (<time>).")
        #expect(Self.masked("watched \"Up\" on 2026-11-25, rated 9/10") == "watched \"Up\" on <date>, rated 9/10")
        let figures = "rated 7.9 from 11412 votes, popularity 7.248; C = 8.07"
        #expect(Self.masked(figures) == figures)
    }

    @Test func everyMarkedCommandRunsOffline() async throws {
        let commands = try Self.markedCommands()
        let texts = commands.map(\.command)
        for expected in ["mustc --help", "mustc --version", "contrib/demo.sh"] {
            #expect(texts.contains { $0.hasPrefix(expected) }, "no marked block runs \(expected)")
        }
        let stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity)
        try stub.start()
        defer { stub.stop() }
        var shell: MustcBinary?
        var block = -1
        var compared = 0
        for (index, command, shown) in commands {
            if index != block { (shell, block) = (Self.shell(stub), index) }
            guard let shell else { continue }
            if command.hasSuffix("--serve") || command.contains("--serve ") {
                try await Self.expectServes(command, shell)
                continue
            }
            let running = try Self.start(["-c", "cd \"$MUSTC_TOP\" && " + command], in: shell)
            let (outcome, exited) = await running.wait(orKillAfter: 300)
            #expect(exited && outcome.status == 0, "README: \(command) exited \(outcome.status):\n\(outcome.all)")
            guard let shown else { continue }
            // The sample output is what the terminal shows: standard output, then anything on standard error.
            var printed = (outcome.stdout + outcome.stderr).components(separatedBy: "\n")
            while printed.last == "" { printed.removeLast() }
            #expect(
                Self.masked(printed.joined(separator: "\n")) == Self.masked(shown.joined(separator: "\n")),
                "README: \(command) prints otherwise than the README shows")
            compared += 1
        }
        #expect(compared >= 5, "only \(compared) sample outputs compared")
    }

    /// bash with the built binaries first on PATH, its own home and database, and the stub for TMDB and its
    /// image host, as the README's samples say (`contrib/demo.sh` sets both).
    static func shell(_ stub: TMDBStubServer) -> MustcBinary {
        var shell = MustcBinary(stub: stub, posters: true)
        shell.executable = URL(fileURLWithPath: "/bin/bash")
        let bin = MustcBinary.url.deletingLastPathComponent().path
        shell.environment["PATH"] = bin + ":/usr/bin:/bin"
        shell.environment["MUSTC_DEMO_BIN_DIR"] = bin
        shell.environment["MUSTC_TOP"] = top.path
        return shell
    }

    /// Starts bash with no signal blocked. Tests run on Dispatch's worker threads, which block most signals, and a
    /// child inherits the mask: bash could then neither trap SIGTERM nor stop the stub it started in the background.
    static func start(_ arguments: [String], in shell: MustcBinary) throws -> Running {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try shell.start(arguments)
    }

    /// Runs a command that serves until stopped: its page must answer, and SIGTERM must end it and its server.
    static func expectServes(_ command: String, _ shell: MustcBinary) async throws {
        let running = try Self.start(["-c", "cd \"$MUSTC_TOP\" && exec " + command], in: shell)
        defer { if running.process.isRunning { kill(running.process.processIdentifier, SIGKILL) } }
        var url: String?
        await Poll.until(within: .seconds(300), every: .milliseconds(100)) {
            let out = (try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? ""
            // The demo's line "The family's page: http://127.0.0.1:PORT/ (...)".
            let line = out.split(separator: "\n").first { $0.hasPrefix("The family's page: ") }
            url = line?.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init)
            return url != nil || !running.process.isRunning
        }
        guard let url else {
            let (outcome, _) = await running.wait(orKillAfter: 5)
            Issue.record("README: \(command) printed no URL:\n\(outcome.all)")
            return
        }
        let page = try await HTTP.get(url)
        #expect(page.status == 200, "\(url) answered \(page.status)")
        #expect(page.body.contains("Claire"), "the demo family's page lacks Claire")
        kill(running.process.processIdentifier, SIGTERM)
        let (outcome, exited) = await running.wait(orKillAfter: 30)
        #expect(exited && outcome.status == 0, "README: \(command) after SIGTERM: \(outcome.status)\n\(outcome.all)")
        let after = try? await HTTP.get(url)
        #expect(after == nil, "\(url) still answers after the demo stopped")
    }
}

/// Just enough Markdown for the checks above: fenced blocks, headings, links.
enum Markdown {
    struct Block {
        var language: String
        var lines: [String]
    }

    /// Each line with whether it is inside a fenced code block (the fences themselves count as inside).
    static func lines(_ text: String) -> [(line: String, code: Bool)] {
        var inside = false
        return text.components(separatedBy: "\n").map { line in
            let fence = line.trimmingCharacters(in: .whitespaces).hasPrefix("```")
            defer { if fence { inside.toggle() } }
            return (line, inside || fence)
        }
    }

    /// Targets of `[text](target)`, `src="…"` and `href="…"`, outside code blocks and code spans.
    static func links(in text: String) -> [String] {
        let prose = lines(text).filter { !$0.code }.map(\.line).joined(separator: "\n")
            .replacing(/`[^`\n]*`/, with: "")
        let markdown = prose.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.output.1) }
        let html = prose.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.output.1) }
        return markdown + html
    }

    static func isExternal(_ link: String) -> Bool { link.contains(/^[A-Za-z][A-Za-z0-9+.-]*:/) }

    /// GitHub's anchors for the headings: the text as shown, lower case, only letters, digits, `_`, `-` and
    /// spaces kept, spaces made hyphens; a repeat gets `-1`, `-2`...
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        return lines(text).filter { !$0.code && $0.line.hasPrefix("#") }.compactMap { entry -> String? in
            guard let match = entry.line.firstMatch(of: /^#{1,6}\s+(.*?)\s*#*\s*$/) else { return nil }
            let shown = String(match.output.1).replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
                .replacing(/[`*]/, with: "")
            let slug = String(
                shown.lowercased().unicodeScalars.filter {
                    CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" || $0 == " "
                }
            ).replacing(" ", with: "-")
            defer { seen[slug, default: 0] += 1 }
            return seen[slug].map { "\(slug)-\($0)" } ?? slug
        }
    }

    /// The fenced blocks whose opening fence follows `marker` (blank lines between allowed).
    static func codeBlocks(after marker: String, in text: String) -> [Block] {
        var blocks: [Block] = []
        var armed = false
        var current: Block?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed.hasPrefix("```") {
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if trimmed == marker {
                armed = true
            } else if armed, trimmed.hasPrefix("```") {
                current = Block(language: String(trimmed.dropFirst(3)), lines: [])
                armed = false
            } else if !trimmed.isEmpty {
                armed = false
            }
        }
        return blocks
    }
}
