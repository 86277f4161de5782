-- What `suggest` reads of each candidate of a tier (issue 34; Store.suggestionFacts): its id, votes, details and
-- genres, without the overview, title and poster that fill the table's rows. The 5,002 candidates of the
-- benchmark's first tier (100,000 suggestion movies) lay on 3,710 of the table's 7,162 pages; this index holds
-- them all on 1,055 pages (4 MB). The fetch writes a few hundred suggestion movies a day at most, each now with
-- one index entry more.
CREATE INDEX suggestionMovie_facts
    ON suggestionMovie(remoteId, voteCount, voteAverage, extrasRegion, runtime, certification, genres);
