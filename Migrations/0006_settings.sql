-- Facts about the file itself that Swift needs to know, such as which version of the TitleKey fold made the
-- stored keys (nameKey, titleKey, identityKey, movieAlias.key). No row for a setting means its first value.
CREATE TABLE setting (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
