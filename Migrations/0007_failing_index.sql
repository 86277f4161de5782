-- `mustc status` lists the failing movies: without this index it read the whole table (237 ms at 1,000,000
-- movies, measured with the sqlite3 CLI), with it only the failing ones (under 1 ms).
CREATE INDEX movie_failing ON movie(titleKey) WHERE fetchError IS NOT NULL;
