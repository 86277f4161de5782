/// mustc's version: `mustc --version` prints it and the HTTP User-Agent carries it. The only place it is written.
public enum MustcVersion {
    public static let current = "0.5.0"
}
