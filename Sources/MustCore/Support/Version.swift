/// mustc's version: `mustc --version` prints it and the HTTP User-Agent carries it. The only place it is written.
public enum MustcVersion {
    public static let current = "0.5.0"
    /// TMDB's terms ask every app that uses its API to say so: `--version` prints it and the page's footer shows it.
    public static let tmdbNotice = "This product uses the TMDB API but is not endorsed or certified by TMDB."
    /// What `mustc --version` prints.
    public static let shown = current + "\n" + tmdbNotice
}
