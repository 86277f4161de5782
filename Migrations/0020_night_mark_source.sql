-- A watched mark made by hand, by an import, by a night or on the page replaces a media server's as the mark's
-- source (memberMovie.watchedSource = NULL), so the server's later "unplayed" no longer takes it back. A night
-- remembers the source it replaced, so taking the night back restores who may un-mark it: NULL for every night
-- recorded before this migration, as those nights left the source as it was.
ALTER TABLE movieNightWatcher ADD COLUMN watchedSourceBefore TEXT;
