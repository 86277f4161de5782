import Foundation

/// Whether a Netflix title is an episode. Netflix writes them `Show: Season 1: Episode title`, in the account's
/// language ("Seizoen", "Temporada", "Staffel"), `Show: Limited Series: …`, `Show: Part 2: …`, or, in
/// `ViewingActivity.csv`, with `(Episode 3)` at the end; some have no season part at all (`Show: Episode title`),
/// which only another title of the same show in the file tells. Films have colons too (`Dune: Part One`,
/// `Star Wars: Episode IV`): a part counts only with a number after the word. As the last part, an episode's word
/// and number (`The Last Dance: Episode I`, `…: Aflevering 1`) make an episode, while a part, chapter or volume
/// (`Dune: Part Two`, `John Wick: Chapter 4`, `Lupin: Part 2`) is as often a film's as a show's: `numberedPart`.
enum NetflixTitle {
    /// "Season" and "Episode", and "Series", "Chapter", "Part" where a show's part is named, in the languages of
    /// Netflix's biggest markets, folded to lowercase.
    static let seasonWords: Set<String> = [
        "season", "series", "seizoen", "temporada", "staffel", "saison", "stagione", "sezon", "sezonul", "säsong",
        "sæson", "sesong", "kausi", "évad", "sezóna", "série", "serie", "seizoenen", "volume", "vol.", "collection",
        "episode", "episodes", "aflevering", "episódio", "episodio", "épisode", "folge", "odcinek", "jakso",
        "avsnitt", "afsnit", "epizoda", "bölüm", "sezonu", "chapter", "part", "parte", "teil", "deel", "del",
        "capítulo", "capitolo", "kapitel", "hoofdstuk", "chapitre", "partie", "volumen",
    ]
    static let limitedSeries: Set<String> = [
        "limited series", "miniseries", "mini-series", "miniserie", "minisérie", "minissérie", "minisserie",
        "docuseries", "série limitée", "serie limitada", "miniserie limitata", "begrænset serie",
    ]

    static let episodeWords: Set<String> = [
        "episode", "aflevering", "episódio", "episodio", "épisode", "folge", "odcinek", "jakso", "avsnitt", "afsnit",
        "epizoda", "bölüm",
    ]

    /// The show's name when `title` is written as an episode is; nil for what may be a film.
    static func show(_ title: String) -> String? {
        let parts = title.components(separatedBy: ": ")
        // ViewingActivity.csv: "Show: Season 1: Title (Episode 3)".
        if title.hasSuffix(")"), let open = title.range(of: "(", options: .backwards) {
            let inside = title[open.upperBound...].dropLast().lowercased()
            if isNumbered(inside), let word = inside.split(separator: " ").first, episodeWords.contains(String(word)) {
                return parts[0]
            }
        }
        // The last part is the episode's own title, or a film's subtitle: "Dune: Part One", "Kill Bill: Vol. 1".
        if parts.count >= 3,
            parts.dropFirst().dropLast().contains(where: { isNumbered($0) || isLimited($0) })
        {
            return parts[0]
        }
        if parts.count >= 2, let last = parts.last, isNumbered(last, spelled: true),
            let word = last.split(separator: " ").first, episodeWords.contains(word.lowercased())
        {
            return parts[0]
        }
        if parts.count == 2, isNumbered(parts[1]), !isFilmSequel(parts[1]) { return parts[0] }
        return nil
    }

    /// Whether the last part is a part, chapter or volume with its number (`Part 2`, `Chapter Three`, `Vol. 1`):
    /// a film's sequel or a show's instalment, which only TMDB can tell.
    static func numberedPart(_ title: String) -> Bool {
        let parts = title.components(separatedBy: ": ")
        guard parts.count >= 2, let last = parts.last, isNumbered(last, spelled: true) else { return false }
        return isFilmSequel(last)
    }

    /// Digits ("2", "01", "2ª"), or with `spelled` a Roman numeral up to XX or an English number word up to twenty.
    static func isNumber(_ word: String, spelled: Bool) -> Bool {
        let digits = word.filter(\.isNumber)
        if !digits.isEmpty, word.count - digits.count <= 2 { return true }
        return spelled && numberWords.contains(word)
    }

    private static let numberWords: Set<String> = [
        "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii",
        "xviii", "xix", "xx", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    ]

    /// "Season 2", "Temporada 1", "2ª Temporada", "Episode 3", "Staffel 4", "Part 2", "Volume 1"; with `spelled`,
    /// "Episode I" and "Chapter Three" too. Only a last part is read so: before it, "Episode I" is a film's
    /// (`Star Wars: Episode I: The Phantom Menace`) as often as a show's.
    static func isNumbered(_ part: String, spelled: Bool = false) -> Bool {
        let words = part.lowercased().split(separator: " ").map(String.init)
        guard words.count == 2 || words.count == 3 else { return false }
        let hasWord = words.contains { seasonWords.contains($0) }
        let hasNumber = words.contains { isNumber($0, spelled: spelled) }
        return hasWord && hasNumber
    }

    static func isLimited(_ part: String) -> Bool {
        limitedSeries.contains(part.lowercased())
    }

    /// "Part 2" or "Volume 1" as a film's subtitle (`Kill Bill: Volume 1`, `Dune: Part Two` is spelled out):
    /// two parts whose second is such a word and a number are a film, not an episode.
    private static func isFilmSequel(_ part: String) -> Bool {
        let first = part.lowercased().split(separator: " ").first.map(String.init) ?? ""
        return [
            "part", "parte", "teil", "deel", "del", "partie", "volume", "volumen", "vol.", "chapter", "capítulo",
            "capitolo", "kapitel", "hoofdstuk", "chapitre", "collection",
        ].contains(first)
    }
}
