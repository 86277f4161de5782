import Foundation
import MustCore
import TMDBStub
import Testing

/// A file whose keys an older fold made is re-keyed on its next write open, and rows that now fold alike become one.
@Suite struct RekeyTests {
    let scratch = TemporaryDirectory("rekey")
    var path: String { scratch.file("mustc.sqlite") }

    /// Rows as fold version 1 keyed them: it kept soft hyphens and byte-order marks, so "An­n" and "Up﻿" were a
    /// second member and a second movie.
    func writtenByTheFirstFold() throws {
        _ = try Store(path: path, logger: quietLogger)
        _ = try sqlite(
            path,
            """
            INSERT INTO member (id, name, nameKey, createdAt) VALUES
                (1, 'Ann', 'ann', '2026-11-01'), (2, 'An' || char(173) || 'n', 'an' || char(173) || 'n', '2026-11-02'),
                (3, 'Bob', 'bob', '2026-11-03');
            INSERT INTO movie (id, title, titleKey, identityKey, createdAt) VALUES
                (1, 'Up', 'up', 'title:up', '2026-11-01'),
                (2, 'Up' || char(65279), 'up' || char(65279), 'title:up' || char(65279), '2026-11-02'),
                (3, 'Heat', 'heat', 'tmdb:949', '2026-11-03');
            UPDATE movie SET remoteId = 949 WHERE id = 3;
            INSERT INTO movieAlias (key, year, movieId, title) VALUES
                ('up', 0, 1, 'Up'), ('up' || char(65279), 0, 2, 'Up' || char(65279)), ('heat', 0, 3, 'Heat');
            INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (1, 1, '2026-11-01'), (2, 2, '2026-11-02'),
                (2, 3, '2026-11-02'),
                (3, 2, '2026-11-03');
            UPDATE movieSchedule SET nextCheckAt = 5000, interval = 900 WHERE movieId = 1;
            INSERT INTO setting VALUES ('titleKeyFold', '1') ON CONFLICT (name) DO UPDATE SET value = '1';
            """)
    }

    @Test func aNewFoldReKeysAndMergesWhatNowCollidesKeepingEveryLink() throws {
        try writtenByTheFirstFold()
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT value FROM setting WHERE name = 'titleKeyFold'") == "\(TitleKey.version)")
        #expect(try store.members().map(\.name) == ["Ann", "Bob"])
        #expect(try store.members().map(\.movies) == [2, 1])
        let movies = try store.movies()
        #expect(movies.map(\.title) == ["Heat", "Up"])
        #expect(movies.map(\.members) == [["Ann"], ["Ann", "Bob"]])
        #expect(
            try sqlite(path, "SELECT group_concat(key, ',') FROM (SELECT key FROM movieAlias ORDER BY key)")
                == "heat,up")
        #expect(try sqlite(path, "SELECT identityKey FROM movie ORDER BY id") == "title:up\ntmdb:949")
        // The surviving movie keeps its own schedule.
        #expect(try sqlite(path, "SELECT nextCheckAt FROM movieSchedule WHERE movieId = 1") == "5000.0")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        // Both spellings name the one member and the one movie now.
        #expect(try store.link(member: "An\u{AD}n", title: "Up\u{FEFF}", now: testStart).linked == false)
    }

    @Test func aCurrentFileIsNotReKeyedAgain() throws {
        _ = try Store(path: path, logger: quietLogger)
        // A key no fold would write: a re-key would replace it.
        _ = try sqlite(path, "INSERT INTO member (name, nameKey, createdAt) VALUES ('Zoé', 'sentinel', '2026-11-01')")
        _ = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT nameKey FROM member") == "sentinel")
    }
}

/// A database as the release before migrations 0006 and 0007 wrote it (0001–0005, applied by the stock sqlite3
/// CLI from the repository's own files): opening it adds the fold setting and the failing-movie index, re-keys
/// under the current fold, and keeps every member, movie, link, rating, schedule and history row.
@Suite struct SettingsUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-0006")
    var path: String { scratch.file("old.sqlite") }

    func writeDatabaseBefore0006() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: UpgradeTests.migrations.path)
            .filter { $0.hasSuffix(".sql") && $0 < "0006" }.sorted()
        #expect(files.last == "0005_history.sql")
        var script = "PRAGMA foreign_keys = ON; BEGIN;\n"
        script += "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for file in files {
            script += try String(contentsOf: UpgradeTests.migrations.appending(path: file), encoding: .utf8) + "\n"
            script += "INSERT INTO schemaMigration VALUES ('\(file.dropLast(4))', '2026-11-20 10:00:00.000');\n"
        }
        script += """
            INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-20 10:00:00.000'),
                (2, 'Bob', 'bob', '2026-11-20 10:00:00.000');
            INSERT INTO movie (id, title, titleKey, identityKey, remoteId, year, popularity, voteAverage, voteCount,
                releaseDate, updatedAt, createdAt, fetchError)
            VALUES (1, 'Up', 'up', 'tmdb:14160', 14160, 2009, 80.3, 7.9, 19300, '2009-05-28',
                    '2026-11-21 10:00:00.000', '2026-11-20 10:00:00.000', NULL),
                   (2, 'Dune', 'dune', 'title:dune (1984)', NULL, 1984, NULL, NULL, NULL, NULL, NULL,
                    '2026-11-20 10:00:00.000', 'HTTP 503');
            INSERT INTO movieAlias VALUES ('up', 0, 1, 'Up'), ('dune', 1984, 2, 'Dune');
            INSERT INTO memberMovie VALUES (1, 1, '2026-11-20 10:00:00.000'), (2, 1, '2026-11-20 10:00:00.000'),
                (2, 2, '2026-11-20 10:00:00.000');
            UPDATE movieSchedule SET checkedAt = 1800000000, interval = 1800, nextCheckAt = 1800001800
                WHERE movieId = 1;
            INSERT INTO movieHistory (movieId, at, baseline, popularity, voteAverage, voteCount)
                VALUES (1, 1800000000, 1, 80.3, 7.9, 19300);
            COMMIT;
            """
        _ = try sqlite(path, script)
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "3")
    }

    @Test func everyRowSurvivesAndTheFoldIsRecorded() throws {
        try writeDatabaseBefore0006()
        let store = try Store(path: path, logger: quietLogger)
        let applied = try sqlite(path, "SELECT group_concat(identifier, ',') FROM schemaMigration")
        #expect(applied.contains("0005_history,0006_settings,0007_failing_index"))
        #expect(try sqlite(path, "SELECT value FROM setting WHERE name = 'titleKeyFold'") == "\(TitleKey.version)")
        #expect(try store.members().map(\.movies) == [1, 2])
        let bob = try #require(try store.ratings(member: "Bob").members.first?.movies)
        #expect(bob.map(\.shown) == ["Dune (1984)", "Up (2009)"])
        #expect(bob.last?.voteCount == 19_300 && bob.last?.remoteId == 14160 && bob.last?.updatedAt != nil)
        #expect(try store.failingMovies().map(\.reason) == ["HTTP 503"])
        #expect(
            try sqlite(path, "SELECT interval, nextCheckAt FROM movieSchedule WHERE movieId = 1")
                == "1800.0|1800001800.0")
        #expect(try sqlite(path, "SELECT count(*) FROM movieHistory") == "1")
        #expect(try sqlite(path, "SELECT identityKey FROM movie ORDER BY id") == "tmdb:14160\ntitle:dune (1984)")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        // The spellings typed before still name their movies.
        #expect(try store.link(member: "Ann", movie: .title("Dune", year: 1984), now: testStart).movieId == 2)
    }
}
