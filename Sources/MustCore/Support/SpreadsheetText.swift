/// CSV text fields a spreadsheet would run as a formula (CSV injection): a title such as
/// `=HYPERLINK("http://…"&A1,"click")`, edited into TMDB by a stranger, would run when the family opens an export.
/// Such a field is written with a leading `'`, which spreadsheets read as "this is text" and hide; `mustc import`
/// removes exactly that quote, so `+1` and `'=x` come back as themselves.
public enum SpreadsheetText {
    /// `field` as written to a CSV: prefixed with `'` when it starts with `=`, `+`, `-`, `@`, a tab or a carriage
    /// return, or with quotes before one of those (so that removing one quote on import gives the field back).
    public static func guarded(_ field: String) -> String {
        needsGuard(field) ? "'" + field : field
    }

    /// A field read from a mustc CSV: one leading `'` removed when `guarded` added it.
    public static func unguarded(_ field: String) -> String {
        guard field.utf8.first == quote, needsGuard(String(field.utf8.dropFirst())!) else { return field }
        return String(field.utf8.dropFirst())!
    }

    static func needsGuard(_ field: String) -> Bool {
        // Checked on bytes: every figure column skips this, but titles pass here once per row of a large export.
        for byte in field.utf8 {
            switch byte {
            case quote: continue
            case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: return true
            default: return false
            }
        }
        return false
    }

    private static let quote = UInt8(ascii: "'")
}
