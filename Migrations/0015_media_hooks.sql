-- Media servers' webhooks (issue 35): Jellyfin, Plex and Emby say what was watched.
--
-- Which kind of server set a link's watched mark: NULL for a mark made by hand, from the page or from an import.
-- A media server's un-mark ("Played": false) takes back only a mark some media server set.
ALTER TABLE memberMovie ADD COLUMN watchedSource TEXT CHECK (watchedSource IN ('jellyfin', 'plex', 'emby'));

-- A media server's user (its TitleKey fold, and as written) whose events go to a member of another name:
-- `mustc member NAME --media-user USER`. A user not named here goes to the member of their own (folded) name.
CREATE TABLE mediaUser (
    userKey TEXT PRIMARY KEY NOT NULL,
    user TEXT NOT NULL,
    memberId INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX mediaUser_memberId ON mediaUser(memberId);

-- One secret URL per kind of server, kept only as the SHA-256 of its token: a copy of the file opens no URL.
-- `mustc webhook --reset` replaces the rows, so the old URLs stop at once.
CREATE TABLE webhookToken (
    server TEXT PRIMARY KEY NOT NULL CHECK (server IN ('jellyfin', 'plex', 'emby')),
    tokenHash TEXT NOT NULL,
    createdAt TEXT NOT NULL
) WITHOUT ROWID;

-- The last events each kind of server sent that named a movie, for `mustc status` and /status: when, whose, which
-- movie and what was done (`outcome`, in words). `memberId` NULL: the user is no member (the event was ignored).
-- Kept bounded by the store (the last few per server), never read to decide anything.
CREATE TABLE mediaEvent (
    id INTEGER PRIMARY KEY,
    server TEXT NOT NULL,
    receivedAt TEXT NOT NULL,
    user TEXT NOT NULL,
    memberId INTEGER REFERENCES member(id) ON DELETE SET NULL,
    movie TEXT NOT NULL,
    outcome TEXT NOT NULL
);
CREATE INDEX mediaEvent_server ON mediaEvent(server, id);
