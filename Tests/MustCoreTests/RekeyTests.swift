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
            INSERT INTO memberMovie VALUES (1, 1, '2026-11-01'), (2, 2, '2026-11-02'), (2, 3, '2026-11-02'),
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
        #expect(try store.link(member: "An\u{AD}n", title: "Up\u{FEFF}").linked == false)
    }

    @Test func aCurrentFileIsNotReKeyedAgain() throws {
        _ = try Store(path: path, logger: quietLogger)
        // A key no fold would write: a re-key would replace it.
        _ = try sqlite(path, "INSERT INTO member (name, nameKey, createdAt) VALUES ('Zoé', 'sentinel', '2026-11-01')")
        _ = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT nameKey FROM member") == "sentinel")
    }
}
